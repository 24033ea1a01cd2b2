package org.hsdag.backend;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;

/**
 * Opens a {@link LatencyBackend} by name: {@code sim} (the embedded simulator on a profile name or
 * a profile JSON path), {@code openvino} (real hardware) or {@code auto} (OpenVINO when its native
 * library loads, else the simulator — and it says which).
 */
public final class Backends {
  /** The profile used when none is given. */
  public static final String DEFAULT_PROFILE = "paper";

  private Backends() {}

  /** {@link #open(String, String, SimOptions, Consumer)} with default simulator options and no notices. */
  public static LatencyBackend open(String backend, String profile) {
    return open(backend, profile, SimOptions.DEFAULT, notice -> {});
  }

  /**
   * Opens {@code backend} ({@code auto}, {@code sim} or {@code openvino}).
   *
   * @param profile for {@code sim}: a built-in profile name or a JSON path (null = {@value #DEFAULT_PROFILE});
   *     ignored by {@code openvino}, which describes the real machine
   * @param simOptions seed, noise and shape assumption of the simulator
   * @param notices receives one line when {@code auto} chose a backend, saying which and why
   * @throws BackendUnavailableException when {@code openvino} is asked for and cannot load
   * @throws IllegalArgumentException for an unknown backend name or a bad profile
   */
  public static LatencyBackend open(String backend, String profile, SimOptions simOptions, Consumer<String> notices) {
    return open(backend, profile, simOptions, Map.of(), notices);
  }

  /**
   * {@link #open(String, String, SimOptions, Consumer)} where the real backend also fixes the shapes
   * of dynamic inputs ({@code --input-shape}); the simulator's are in {@code simOptions}.
   */
  public static LatencyBackend open(String backend, String profile, SimOptions simOptions,
      Map<String, long[]> openVinoInputShapes, Consumer<String> notices) {
    return open(backend, profile, simOptions, OpenVinoOptions.DEFAULT.withInputShapes(openVinoInputShapes), List.of(), 0,
        notices);
  }

  /**
   * Opens {@code backend}; {@code auto} takes OpenVINO only when it loads and has every device of
   * {@code requestedDevices} and at least {@code minimumDevices} devices (after registering {@code
   * openVino}'s test devices), else the simulator, and says why.
   *
   * @param openVino settings of the real backend (input shapes, test devices)
   * @param requestedDevices the devices the command will place on (empty: no requirement)
   * @param minimumDevices the fewest devices the command works with (splitting needs 2)
   */
  public static LatencyBackend open(String backend, String profile, SimOptions simOptions, OpenVinoOptions openVino,
      List<String> requestedDevices, int minimumDevices, Consumer<String> notices) {
    String b = backend == null ? "auto" : backend.trim().toLowerCase(Locale.ROOT);
    String p = profile == null ? DEFAULT_PROFILE : profile;
    switch (b) {
      case "sim":
        return SimBackend.open(p, simOptions);
      case "openvino":
        return openOpenVino(openVino);
      case "auto":
        LatencyBackend ov;
        try {
          ov = openOpenVino(openVino);
        } catch (BackendUnavailableException | LinkageError e) {
          // One short line: the full reason and its fix are what `hsdag devices --backend openvino` prints.
          LatencyBackend sim = SimBackend.open(p, simOptions);
          notices.accept("backend auto: no OpenVINO runtime here, so the simulator answers (sim/" + sim.profile()
              + "; every number is simulated; 'hsdag devices --backend openvino' says why)");
          return sim;
        }
        List<String> have = ov.devices().stream().map(DeviceInfo::name).toList();
        List<String> missing = requestedDevices.stream().filter(d -> !have.contains(d)).toList();
        if (missing.isEmpty() && have.size() >= minimumDevices) {
          notices.accept("backend auto: using openvino (" + ov.profile() + ")");
          return ov;
        }
        ov.close();
        LatencyBackend sim = SimBackend.open(p, simOptions);
        String lacking = missing.isEmpty() ? "only " + String.join(", ", have) + " (this needs " + minimumDevices + " devices)"
            : String.join(", ", have) + " but not " + String.join(", ", missing);
        notices.accept("backend auto: OpenVINO here has " + lacking + ", so the simulator answers (sim/" + sim.profile()
            + "; every number is simulated; --test-device CPU2 adds a second real device)");
        return sim;
      default:
        throw new IllegalArgumentException("unknown backend '" + backend + "' (expected auto, sim or openvino)");
    }
  }

  /**
   * The real OpenVINO backend. The single place where it is created; unavailable (with the reason
   * and the fix) unless the native library was built (native/provision.sh) and loads.
   *
   * @throws BackendUnavailableException when the native OpenVINO backend cannot run here
   */
  static LatencyBackend openOpenVino(OpenVinoOptions options) {
    org.hsdag.openvino.OpenVinoAvailability a = org.hsdag.openvino.OpenVinoBackend.availability();
    if (!a.available()) {
      throw new BackendUnavailableException(a.oneLine());
    }
    try {
      return org.hsdag.openvino.OpenVinoBackend.open(options);
    } catch (org.hsdag.openvino.OpenVinoException e) {
      throw new BackendUnavailableException("openvino backend unavailable: " + e.getMessage(), e);
    }
  }
}
