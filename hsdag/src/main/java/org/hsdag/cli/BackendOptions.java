package org.hsdag.cli;

import java.util.List;
import java.util.function.Consumer;
import org.hsdag.backend.BackendUnavailableException; // javadoc
import org.hsdag.backend.Backends;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.openvino.TestDevice;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code --backend} / {@code --profile} picocli mixin: which {@link LatencyBackend} measures.
 * {@code auto} (the default) uses OpenVINO when its native library loads and otherwise the
 * embedded simulator on profile {@value Backends#DEFAULT_PROFILE}, saying which it chose.
 */
public final class BackendOptions {
  @Option(names = "--backend", paramLabel = "auto|sim|openvino", defaultValue = "auto",
      description = "Latency backend: auto (openvino when its native library loads, else sim, and it says which), "
          + "sim (embedded HETERO simulator) or openvino (real hardware). Default: ${DEFAULT-VALUE}.")
  String backend = "auto";

  @Option(names = "--profile", paramLabel = "NAME|FILE", defaultValue = Backends.DEFAULT_PROFILE,
      description = "Simulator machine profile: a built-in name (paper, laptop-core-ultra) or a profile .json file. "
          + "Default: ${DEFAULT-VALUE}.")
  String profile = Backends.DEFAULT_PROFILE;

  @Option(names = "--mismatch", paramLabel = "A", defaultValue = "0",
      description = "Simulator only: perturb the measured machine away from --profile (op-class efficiencies x[1-A, 1+A], "
          + "links x0.5, launches x1.5, seeded by --mismatch-seed) while the cost model stays --profile: model error "
          + "without hardware. Default: 0 (none).")
  double mismatch;

  @Option(names = "--mismatch-seed", paramLabel = "N", defaultValue = "1",
      description = "Seed of the --mismatch perturbation. Default: ${DEFAULT-VALUE}.")
  long mismatchSeed = 1;

  @Mixin TestDeviceOptions testDeviceOptions = new TestDeviceOptions();

  /** The {@code --test-device} entries, parsed. */
  public List<TestDevice> testDevices() {
    return testDeviceOptions.testDevices();
  }

  /** The {@code --mismatch} amplitude (0: none). */
  public double mismatch() {
    return mismatch;
  }

  /** The {@code --mismatch-seed}. */
  public long mismatchSeed() {
    return mismatchSeed;
  }

  /** The backend name as given ({@code auto}, {@code sim} or {@code openvino}). */
  public String backend() {
    return backend;
  }

  /** The profile name or path as given. */
  public String profile() {
    return profile;
  }

  /**
   * Opens the chosen backend with simulator seed {@code seed}; {@code notices} gets the line that
   * says what {@code auto} chose.
   *
   * @throws UserInputException for an unknown backend name or a bad profile (exit 2)
   * @throws BackendUnavailableException when the backend cannot run on this machine (exit 1)
   */
  public LatencyBackend open(long seed, Consumer<String> notices) {
    return open(seed, InputShapeOptions.NONE, List.of(), 0, notices);
  }

  /**
   * {@link #open(long, Consumer)} for {@code graph}'s dynamic inputs sized as {@code shapes} says;
   * {@code auto} takes OpenVINO only if it has every device of {@code requestedDevices} and at
   * least {@code minimumDevices} devices.
   */
  public LatencyBackend open(long seed, InputShapeOptions.Resolved shapes, List<String> requestedDevices,
      int minimumDevices, Consumer<String> notices) {
    List<TestDevice> tests = testDevices();
    if (!tests.isEmpty() && backend.equals("sim")) {
      throw new UserInputException("--test-device registers a device with real OpenVINO; it needs --backend openvino or auto");
    }
    if (mismatch != 0) {
      if (backend.equals("openvino")) {
        throw new UserInputException("--mismatch perturbs the simulator's machine; it needs --backend sim");
      }
      try {
        ProfileMismatch m = ProfileMismatch.named(mismatch, mismatchSeed);
        SimBackend sim = new SimBackend(m.apply(DeviceProfile.load(profile)),
            SimOptions.DEFAULT.withSeed(seed).withShapes(shapes.resolution().shapes()));
        notices.accept("backend sim on a perturbed machine, " + sim.profile() + "; the cost model stays " + profile
            + " (every number is simulated)");
        return sim;
      } catch (IllegalArgumentException e) {
        throw new UserInputException("--mismatch: " + e.getMessage());
      }
    }
    try {
      return Backends.open(backend, profile, SimOptions.DEFAULT.withSeed(seed).withShapes(shapes.resolution().shapes()),
          OpenVinoOptions.DEFAULT.withInputShapes(shapes.given()).withTestDevices(tests), requestedDevices, minimumDevices,
          notices);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
  }
}
