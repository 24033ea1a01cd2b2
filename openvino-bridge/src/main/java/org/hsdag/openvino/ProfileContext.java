package org.hsdag.openvino;

import org.hsdag.backend.TestDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;

/**
 * What besides the op makes a profiled kernel time valid for one device: the runtime's full version, the device
 * profiled and every device of the HETERO set it is profiled in (names, full names, test-device threads and
 * precision: a CPU twin's threads hold alone but not beside a CPU sub-model), the processor (model, stepping and
 * logical CPUs: the CPU plugin's threads and ISA follow them), the sizes given to dynamic inputs, and the profiling
 * method. A record is reused only under an equal key; anything changed is a miss, so it is profiled again.
 *
 * @param key hex SHA-256 of {@code description}
 * @param description the text it hashes, kept in the database for a user who asks what a context was
 */
public record ProfileContext(String key, String description) {
  /**
   * The profiling method's name: change it whenever {@link HeteroProfiling#kernels} measures differently, so no
   * record of the old method is reused.
   */
  static final String METHOD = "hetero-tail; warm-up " + KernelProfiles.PROFILING_RUNS + "; median of "
      + HeteroProfiling.PROFILING_ROUNDS + " alternating rounds";

  /** Device {@code d}'s context among {@code devices} on this runtime and processor. */
  public static ProfileContext of(String runtimeVersion, List<DeviceInfo> devices, int d, List<TestDevice> testDevices,
      Map<String, long[]> inputShapes, String processor) {
    StringBuilder b = new StringBuilder();
    b.append("runtime: OpenVINO ").append(runtimeVersion).append('\n');
    b.append("device: ").append(devices.get(d).name()).append('\n');
    List<String> set = new ArrayList<>();
    devices.forEach(x -> set.add(x.name() + "=" + x.fullName()));
    b.append("in HETERO with: ").append(String.join(", ", set)).append('\n');
    List<String> tests = new ArrayList<>();
    testDevices.forEach(t -> tests.add(t.toString()));
    b.append("test devices: ").append(String.join(", ", tests)).append('\n');
    Map<String, String> sizes = new LinkedHashMap<>();
    inputShapes.forEach((k, v) -> sizes.put(k, java.util.Arrays.toString(v)));
    b.append("input sizes: ").append(sizes).append('\n');
    b.append("processor: ").append(processor).append('\n');
    b.append("method: ").append(METHOD);
    String text = b.toString();
    return new ProfileContext(OpSignature.hash(text), text);
  }

  /**
   * This machine's processor as {@code /proc/cpuinfo} names it (model name, family, model, stepping) with the number
   * of logical CPUs; {@code unknown processor, N logical CPUs} where there is no such file.
   */
  public static String processor() {
    return processor(Path.of("/proc/cpuinfo"), Runtime.getRuntime().availableProcessors());
  }

  static String processor(Path cpuinfo, int logical) {
    Map<String, String> first = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(cpuinfo)) {
        if (line.isBlank() && !first.isEmpty()) {
          break; // the first processor's block: they are alike
        }
        int colon = line.indexOf(':');
        if (colon > 0) {
          first.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
        }
      }
    } catch (IOException e) {
      return "unknown processor, " + logical + " logical CPUs";
    }
    return first.getOrDefault("model name", "unknown processor") + " (family " + first.getOrDefault("cpu family", "?")
        + ", model " + first.getOrDefault("model", "?") + ", stepping " + first.getOrDefault("stepping", "?") + "), "
        + logical + " logical CPUs";
  }
}
