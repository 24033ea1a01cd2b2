package org.hsdag.cost;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A simulated machine: its devices and the per-request overhead, read from JSON. Built-in profiles
 * live in {@code org/hsdag/cost/profiles/<name>.json} ({@link #BUILT_IN}); any other JSON file of the
 * same shape can be loaded by path, e.g. one written from real per-layer profiling.
 *
 * @param name profile name (shown beside every simulated number)
 * @param description one line about the machine
 * @param sources where the hardware figures come from (spec pages, calibration targets)
 * @param requestOverheadUs fixed cost of one inference request in microseconds
 * @param devices the devices, in the order {@code hsdag devices} lists them
 */
public record DeviceProfile(
    String name, String description, List<String> sources, double requestOverheadUs, List<DeviceModel> devices) {

  /** Names of the profiles shipped as resources. */
  public static final List<String> BUILT_IN = List.of("paper", "laptop-core-ultra");

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(SerializationFeature.INDENT_OUTPUT);

  public DeviceProfile {
    Objects.requireNonNull(name, "profile name");
    description = description == null ? "" : description;
    sources = sources == null ? List.of() : List.copyOf(sources);
    if (devices == null || devices.isEmpty()) {
      throw new IllegalArgumentException("profile " + name + " has no devices");
    }
    devices = List.copyOf(devices);
    if (devices.size() > 63) {
      throw new IllegalArgumentException("profile " + name + ": at most 63 devices");
    }
    Set<String> seen = new HashSet<>();
    for (DeviceModel d : devices) {
      if (!seen.add(d.name())) {
        throw new IllegalArgumentException("profile " + name + ": duplicate device " + d.name());
      }
    }
    if (!(requestOverheadUs >= 0) || Double.isInfinite(requestOverheadUs)) {
      throw new IllegalArgumentException("profile " + name + ": requestOverheadUs must be >= 0");
    }
  }

  /** Index of the device called {@code deviceName}, or -1. */
  public int indexOf(String deviceName) {
    for (int i = 0; i < devices.size(); i++) {
      if (devices.get(i).name().equals(deviceName)) {
        return i;
      }
    }
    return -1;
  }

  /** The device called {@code deviceName}. */
  public DeviceModel device(String deviceName) {
    int i = indexOf(deviceName);
    if (i < 0) {
      throw new IllegalArgumentException("profile " + name + " has no device " + deviceName);
    }
    return devices.get(i);
  }

  /** The same profile with one device replaced (for calibration). */
  public DeviceProfile withDevice(DeviceModel replacement) {
    List<DeviceModel> ds = new java.util.ArrayList<>(devices);
    ds.set(indexOf(replacement.name()), replacement);
    return new DeviceProfile(name, description, sources, requestOverheadUs, ds);
  }

  /**
   * A built-in profile by name, or a JSON file by path (anything ending in {@code .json} or naming
   * an existing file).
   *
   * @throws IllegalArgumentException with a one-line reason for an unknown name or a bad file
   */
  public static DeviceProfile load(String nameOrPath) {
    Objects.requireNonNull(nameOrPath, "profile");
    Path p = Path.of(nameOrPath);
    if (nameOrPath.endsWith(".json") || Files.isRegularFile(p)) {
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException("profile file not found: " + nameOrPath);
      }
      try (InputStream in = Files.newInputStream(p)) {
        return parse(in, nameOrPath);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read profile " + nameOrPath + " (" + e.getMessage() + ")", e);
      }
    }
    if (!BUILT_IN.contains(nameOrPath)) {
      throw new IllegalArgumentException("unknown profile '" + nameOrPath + "' (built-in: "
          + String.join(", ", BUILT_IN) + "; or give a path to a profile .json)");
    }
    try (InputStream in = DeviceProfile.class.getResourceAsStream("profiles/" + nameOrPath + ".json")) {
      if (in == null) {
        throw new IllegalStateException("built-in profile resource missing: " + nameOrPath);
      }
      return parse(in, nameOrPath);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read built-in profile " + nameOrPath, e);
    }
  }

  private static DeviceProfile parse(InputStream in, String source) throws IOException {
    try {
      return JSON.readValue(in, DeviceProfile.class);
    } catch (JsonProcessingException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String msg = root instanceof IllegalArgumentException ? root.getMessage() : e.getOriginalMessage();
      throw new IllegalArgumentException("bad profile " + source + ": " + msg.replaceAll("\\s+", " "), e);
    }
  }

  /** This profile as JSON text. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
