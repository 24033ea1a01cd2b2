package org.hsdag.cli;

import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.BackendUnavailableException; // javadoc
import org.hsdag.backend.Backends;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.TestDevice;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code --backend} / {@code --profile} picocli mixin: which {@link LatencyBackend} measures,
 * as a {@link BackendRequest}. {@code auto} (the default) takes the first registered backend that
 * runs here with the devices asked for, else the embedded simulator on profile {@value
 * Backends#DEFAULT_PROFILE}, saying which it chose.
 */
public final class BackendOptions {
  /** The names {@code --backend} takes, from the registered providers (help text and shell completion). */
  static final class BackendNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Backends.names().iterator();
    }
  }

  @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = Backends.AUTO,
      completionCandidates = BackendNames.class,
      description = "Latency backend, one of ${COMPLETION-CANDIDATES}: auto takes the first of the others that runs here "
          + "with the devices asked for, else the embedded simulator, and says which ('hsdag devices --backend NAME' "
          + "describes one). Default: ${DEFAULT-VALUE}.")
  String backend = Backends.AUTO;

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

  @Mixin
  TestDeviceOptions testDeviceOptions = new TestDeviceOptions();

  /** The {@code --test-device} entries, parsed. */
  public List<TestDevice> testDevices() {
    return testDeviceOptions.testDevices();
  }

  /** The backend name as given ({@code auto} or a provider's name). */
  public String backend() {
    return backend;
  }

  /** The profile name or path as given. */
  public String profile() {
    return profile;
  }

  /**
   * What these options ask for, with backend seed {@code seed} and {@code shapes} for the model's
   * dynamic inputs: the one value every backend is opened from.
   *
   * @throws UserInputException for a malformed {@code --test-device}
   */
  public BackendRequest request(long seed, InputShapes.Resolution shapes) {
    List<String> tests = testDevices().stream().map(TestDevice::toString).toList();
    return new BackendRequest(backend, profile, new BackendRequest.Mismatch(mismatch, mismatchSeed), seed, shapes,
        tests,
        List.of(), 0);
  }

  /**
   * Opens the chosen backend with simulator seed {@code seed}; {@code notices} gets the line that
   * says what {@code auto} chose.
   *
   * @throws UserInputException for an unknown backend name or a bad profile (exit 2)
   * @throws BackendUnavailableException when the backend cannot run on this machine (exit 1)
   */
  public LatencyBackend open(long seed, Consumer<String> notices) {
    return open(request(seed, InputShapes.Resolution.NONE), notices);
  }

  /**
   * {@link #open(long, Consumer)} for a model's dynamic inputs sized as {@code shapes} says; {@code
   * auto} takes a backend only if it has every device of {@code requestedDevices} and at least
   * {@code minimumDevices} devices.
   */
  public LatencyBackend open(long seed, InputShapes.Resolution shapes, List<String> requestedDevices,
      int minimumDevices,
      Consumer<String> notices) {
    return open(request(seed, shapes).requiring(requestedDevices, minimumDevices), notices);
  }

  /**
   * Opens the backend {@code request} asks for; what it cannot honour is bad input.
   *
   * @throws UserInputException for an unknown backend name, a bad profile or a field the backend cannot take (exit 2)
   * @throws BackendUnavailableException when the backend cannot run on this machine (exit 1)
   */
  public static LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    try {
      return Backends.open(request, notices);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new UserInputException(m.startsWith("a mismatch") ? "--mismatch: " + m : m);
    }
  }
}
