package org.hsdag.cli;

import java.util.List;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.Backends;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import picocli.CommandLine.Option;

/**
 * The {@code --devices} picocli mixin: parsed once (any spelling {@link DeviceSet#canonical}
 * accepts, as in placement files) and checked against the backend once.
 */
public final class DeviceOptions {
  @Option(names = "--devices", paramLabel = "LIST",
      description = "Devices to place on, comma-separated in priority order, e.g. CPU,GPU.1 "
          + "(default: every device of the backend).")
  String devices;

  /** {@code --devices} parsed, the first time it is asked for (picocli sets the field after construction). */
  private DeviceSet parsed;

  /** Whether {@code --devices} was given. */
  public boolean given() {
    return devices != null;
  }

  /** The devices as given, parsed, or none when {@code --devices} was not given. */
  public List<String> requested() {
    return devices == null ? List.of() : parsed().names();
  }

  /** {@code --devices} parsed once; the same set every time it is asked for. */
  private DeviceSet parsed() {
    if (parsed == null) {
      parsed = parse(devices);
    }
    return parsed;
  }

  /** The devices as given, or null. */
  public String text() {
    return devices;
  }

  /**
   * The devices to use on {@code backend}: the given ones, each checked, or every device it has.
   *
   * @param minimum the fewest devices the command can work with ({@code why} says why, e.g.
   *     "tuning splits a model across devices")
   * @throws UserInputException for a device the backend lacks or too few devices
   */
  public DeviceSet resolve(LatencyBackend backend, int minimum, String why) {
    List<String> available = backend.devices().stream().map(DeviceInfo::name).toList();
    DeviceSet ds;
    if (devices == null) {
      ds = new DeviceSet(available);
    } else {
      ds = parsed();
      for (String d : ds.names()) {
        if (!available.contains(d)) {
          throw new UserInputException("--devices: " + d + " is not a device of " + backend.name() + "/"
              + backend.profile() + " (devices: " + String.join(", ", available) + ")" + testDeviceHint(backend, d));
        }
      }
    }
    if (ds.size() < minimum) {
      throw new UserInputException("--devices: " + why + ", so it needs at least " + minimum + " devices (got " + ds
          + (devices == null ? ", all that " + backend.name() + "/" + backend.profile() + " has" : "") + ")");
    }
    return ds;
  }

  /** Parses a device list, as a one-line user error when malformed. */
  static DeviceSet parse(String list) {
    try {
      return DeviceSet.parse(list);
    } catch (InvalidPlacementException e) {
      throw new UserInputException("--devices: " + e.getMessage());
    }
  }

  /**
   * For a missing {@code CPU<n>} on a backend that registers test devices: how to add it (an f32
   * test device differs from a bf16/f16 CPU, where a threads-only twin does not inside a split).
   */
  private static String testDeviceHint(LatencyBackend backend, String device) {
    boolean testDevices = Backends.provider(backend.name())
        .map(p -> p.features().contains(BackendProvider.Feature.TEST_DEVICES)).orElse(false);
    if (!testDevices || !device.startsWith("CPU") || device.equals("CPU") || device.contains(".")) {
      return "";
    }
    return "; add it as a test device: --test-device " + device + ":precision=f32 (the CPU plugin registered again)";
  }
}
