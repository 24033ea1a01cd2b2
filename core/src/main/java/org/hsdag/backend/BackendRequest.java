package org.hsdag.backend;

import java.util.List;
import java.util.Locale;

/**
 * Everything a {@link BackendProvider} needs to open a backend, in one value: the commands build
 * it from their options (or a resumed run from its manifest) and {@link Backends#open} hands it to
 * the chosen provider. A provider reads what applies to it and refuses what it cannot honour.
 *
 * @param backend a provider name or {@value Backends#AUTO}
 * @param profile the machine profile a simulated backend models: a built-in name or a JSON path
 * @param mismatch a perturbation of that machine away from {@code profile} ({@link Mismatch#NONE}: none)
 * @param seed seed of the backend's own randomness (the simulator's noise), so a run is reproducible
 * @param inputShapes the sizes of the model's dynamic inputs, for every backend alike
 * @param testDevices extra devices a real backend registers ({@code NAME[:key=value]...}, as {@code --test-device})
 * @param requestedDevices the devices the command will place on ({@value Backends#AUTO} takes a
 *     backend only if it has them; empty: no requirement)
 * @param minimumDevices the fewest devices the command works with ({@value Backends#AUTO} again)
 */
public record BackendRequest(String backend, String profile, Mismatch mismatch, long seed,
    InputShapes.Resolution inputShapes, List<String> testDevices, List<String> requestedDevices, int minimumDevices) {

  /**
   * A seeded perturbation of the simulated machine (op-class efficiencies, links, launches): model
   * error without hardware, the cost model staying the unperturbed profile.
   *
   * @param amplitude how far efficiencies move, 0 for none
   * @param seed which perturbation
   */
  public record Mismatch(double amplitude, long seed) {
    /** No perturbation. */
    public static final Mismatch NONE = new Mismatch(0, 1);

    /** True when the machine is perturbed. */
    public boolean any() {
      return amplitude != 0;
    }
  }

  public BackendRequest {
    backend = backend == null ? Backends.AUTO : backend.trim().toLowerCase(Locale.ROOT);
    profile = profile == null ? Backends.DEFAULT_PROFILE : profile;
    mismatch = mismatch == null ? Mismatch.NONE : mismatch;
    inputShapes = inputShapes == null ? InputShapes.Resolution.NONE : inputShapes;
    testDevices = List.copyOf(testDevices);
    requestedDevices = List.copyOf(requestedDevices);
    if (minimumDevices < 0) {
      throw new IllegalArgumentException("minimumDevices must be >= 0 (got " + minimumDevices + ")");
    }
  }

  /** {@code backend} on {@code profile} (null: the defaults), seed 0, nothing else asked. */
  public static BackendRequest of(String backend, String profile) {
    return new BackendRequest(backend, profile, Mismatch.NONE, 0, InputShapes.Resolution.NONE, List.of(), List.of(), 0);
  }

  public BackendRequest withMismatch(Mismatch m) {
    return new BackendRequest(backend, profile, m, seed, inputShapes, testDevices, requestedDevices, minimumDevices);
  }

  public BackendRequest withSeed(long s) {
    return new BackendRequest(backend, profile, mismatch, s, inputShapes, testDevices, requestedDevices,
        minimumDevices);
  }

  public BackendRequest withInputShapes(InputShapes.Resolution shapes) {
    return new BackendRequest(backend, profile, mismatch, seed, shapes, testDevices, requestedDevices, minimumDevices);
  }

  public BackendRequest withTestDevices(List<String> devices) {
    return new BackendRequest(backend, profile, mismatch, seed, inputShapes, devices, requestedDevices, minimumDevices);
  }

  /** The same request where {@value Backends#AUTO} needs {@code devices} and at least {@code minimum} devices. */
  public BackendRequest requiring(List<String> devices, int minimum) {
    return new BackendRequest(backend, profile, mismatch, seed, inputShapes, testDevices, devices, minimum);
  }

  /** The same request for backend {@code name} (what {@value Backends#AUTO} passes to the provider it tries). */
  public BackendRequest forBackend(String name) {
    return new BackendRequest(name, profile, mismatch, seed, inputShapes, testDevices, requestedDevices,
        minimumDevices);
  }

  /** True when the request names no particular backend. */
  public boolean auto() {
    return backend.equals(Backends.AUTO);
  }
}
