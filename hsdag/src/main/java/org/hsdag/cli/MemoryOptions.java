package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MemoryCappedBackend;
import org.hsdag.backend.MemoryLimiting;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.tune.TuneConfig;
import picocli.CommandLine.Option;

/**
 * The {@code --memory} picocli mixin: device capacities a placement must respect. They replace the
 * capacities the backend knows (the sim profile's; on OpenVINO, what a device reports, see
 * {@code DeviceMemoryReport}), which apply where it is not given. A placement that does not fit is
 * never measured.
 */
public final class MemoryOptions {
  /** Where runs from before the manifest kept the capacities recorded them; read on resume only. */
  public static final String FILE = "memory.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--memory", paramLabel = "DEV=SIZE[,...]",
      description = "Device memory capacities, e.g. GPU.1=8GiB,GPU.0=3GiB (units B, KB/MB/GB = 10^3.., KiB/MiB/GiB or "
          + "K/M/G = 2^10..). Placements that need more on a device (weights + activation peak + runtime overhead) "
          + "are never measured, and the planner keeps within them. Default: the sim profile's capacities; "
          + "on openvino what a GPU or NPU reports (GPU_DEVICE_TOTAL_MEM_SIZE, NPU_DEVICE_TOTAL_MEM_SIZE), "
          + "none for the CPU.")
  String memory;

  /** The user's capacities ({@link MemoryLimits#NONE} when not given). */
  public MemoryLimits limits() {
    if (memory == null || memory.isBlank()) {
      return MemoryLimits.NONE;
    }
    try {
      return MemoryLimits.parse(memory);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--memory: " + e.getMessage());
    }
  }

  /** {@code --memory} as given ("" when not). */
  public String text() {
    return memory == null ? "" : memory.strip();
  }

  /**
   * The capacities the run in {@code runDir} started with: its configuration's, or for a run from
   * before they were kept there, its {@value #FILE}; none when it had none.
   */
  static MemoryOptions savedIn(Path runDir, TuneConfig config) throws IOException {
    MemoryOptions saved = new MemoryOptions();
    Path file = runDir.resolve(FILE);
    if (!config.memory().isEmpty()) {
      saved.memory = config.memory();
    } else if (Files.exists(file)) {
      saved.memory = JSON.readTree(Files.readAllBytes(file)).path("memory").asText(null);
    }
    return saved;
  }

  /**
   * {@code backend} with the user's capacities applied: a backend that keeps to capacities itself
   * ({@link MemoryLimiting}, the simulator: into its profile) fails what exceeds them as out of memory; another backend is wrapped so that its memory
   * capability answers with them and what exceeds them is not run.
   *
   * @throws UserInputException when {@code --memory} is malformed or names a device the backend does not
   *     have ({@code backend} is closed then)
   */
  public LatencyBackend apply(LatencyBackend backend) {
    try {
      MemoryLimits user = limits();
      if (user.isEmpty()) {
        return backend;
      }
      var limiting = backend.capability(MemoryLimiting.class);
      return limiting.isPresent() ? limiting.get().withMemoryLimits(user) : new MemoryCappedBackend(backend, user);
    } catch (IllegalArgumentException | UserInputException e) {
      backend.close();
      throw e instanceof UserInputException u ? u : new UserInputException(e.getMessage());
    }
  }

  /**
   * Checks that {@code --memory} names only devices of {@code devices}.
   *
   * @throws UserInputException naming the first device that is not
   */
  public void requireWithin(DeviceSet devices) {
    try {
      limits().requireWithin(devices.names(), "the devices");
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
  }

  /**
   * The memory check of {@code graph} on {@code devices}: the capacities the backend knows (a sim
   * profile's, what OpenVINO devices report) with the user's replacing them; on a backend that knows
   * none, the user's alone.
   *
   * @throws UserInputException when {@code --memory} names a device outside {@code devices}
   */
  public MemoryCheck check(LatencyBackend backend, OpGraph graph, DeviceSet devices) {
    return check(backend, graph, devices, notice -> {});
  }

  /**
   * {@link #check}, refusing capacities that nothing fits (before any run folder or plan is made) and
   * saying through {@code notices} which capped device cannot take a single op.
   *
   * @throws UserInputException when no placement can fit the capacities
   */
  public MemoryCheck check(LatencyBackend backend, OpGraph graph, DeviceSet devices,
      java.util.function.Consumer<String> notices) {
    requireWithin(devices);
    MemoryCheck check = checkIgnoringOtherDevices(backend, graph, devices);
    var none = check.noPlacementFits();
    if (none.isPresent()) {
      throw new UserInputException(none.get());
    }
    check.unusableDevices().forEach(notices);
    return check;
  }

  /**
   * {@link #check} without requiring {@code --memory} to name only devices of {@code devices}: those it
   * names outside them do not matter ({@code apply}: a placement need not use every device capped).
   */
  public MemoryCheck checkIgnoringOtherDevices(LatencyBackend backend, OpGraph graph, DeviceSet devices) {
    MemoryLimits user = limits();
    return backend.capability(DeviceMemorySource.class).map(s -> s.memoryCheck(graph, devices, user))
        .orElseGet(() -> MemoryCheck.of(graph, devices, user, Map.of()));
  }

  /** Where the capacities of {@code backend} come from, for a report line. */
  public static String capacitySource(LatencyBackend backend) {
    return backend.capability(DeviceMemorySource.class).map(DeviceMemorySource::capacitySource)
        .orElse("none known");
  }
}
