package org.hsdag.backend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Opens a {@link LatencyBackend} from a {@link BackendRequest}: by the name of a registered
 * {@link BackendProvider}, or {@value #AUTO} (each provider in its auto rank that runs here and has
 * the devices asked for, the last one answering otherwise — and it says which and why).
 */
public final class Backends {
  /** The profile used when none is given. */
  public static final String DEFAULT_PROFILE = "paper";

  /** The backend name that lets hsdag choose. */
  public static final String AUTO = "auto";

  private Backends() {}

  /** Every provider on the class path, by name. Loaded anew each call: no state is kept. */
  public static List<BackendProvider> providers() {
    List<BackendProvider> all = new ArrayList<>();
    ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).forEach(all::add);
    Set<String> names = new HashSet<>();
    for (BackendProvider p : all) {
      if (p.name().equals(AUTO) || !names.add(p.name())) {
        throw new IllegalStateException("two backend providers are named '" + p.name() + "' (or it is reserved)");
      }
    }
    all.sort(Comparator.comparing(BackendProvider::name));
    return List.copyOf(all);
  }

  /** The names {@code --backend} takes: {@value #AUTO}, then the providers in auto order, then the rest. */
  public static List<String> names() {
    List<String> names = new ArrayList<>(List.of(AUTO));
    autoOrder(providers()).forEach(p -> names.add(p.name()));
    providers().stream().filter(p -> p.autoRank().isEmpty()).forEach(p -> names.add(p.name()));
    return List.copyOf(names);
  }

  /** The provider named {@code name}, if one is registered. */
  public static Optional<BackendProvider> provider(String name) {
    return providers().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** Opens {@code backend} on {@code profile} (null: the defaults) with seed 0 and no notices. */
  public static LatencyBackend open(String backend, String profile) {
    return open(BackendRequest.of(backend, profile), notice -> {});
  }

  /**
   * Opens the backend {@code request} names.
   *
   * @param notices receives one line when {@value #AUTO} chose a backend, saying which and why
   * @throws BackendUnavailableException when the named backend cannot run here
   * @throws IllegalArgumentException for an unknown backend name, a bad profile or a request field
   *     the backend cannot honour
   */
  public static LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    List<BackendProvider> all = providers();
    if (request.auto()) {
      return openAuto(request, all, notices);
    }
    BackendProvider p = all.stream().filter(x -> x.name().equals(request.backend())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown backend '" + request.backend() + "' (expected "
            + String.join(", ", names()) + ")"));
    requireFeatures(p, request);
    return p.open(request, notices);
  }

  private static void requireFeatures(BackendProvider p, BackendRequest request) {
    if (request.mismatch().any() && !p.features().contains(BackendProvider.Feature.PROFILE_MISMATCH)) {
      throw new IllegalArgumentException("a mismatch perturbs a simulated machine; backend " + p.name()
          + " cannot take one (it needs " + featured(BackendProvider.Feature.PROFILE_MISMATCH) + ")");
    }
    if (!request.testDevices().isEmpty() && !p.features().contains(BackendProvider.Feature.TEST_DEVICES)) {
      throw new IllegalArgumentException("backend " + p.name() + " cannot register test devices (they need "
          + featured(BackendProvider.Feature.TEST_DEVICES) + ")");
    }
  }

  private static String featured(BackendProvider.Feature f) {
    return providers().stream().filter(p -> p.features().contains(f)).map(p -> "--backend " + p.name())
        .collect(Collectors.joining(" or "));
  }

  private static List<BackendProvider> autoOrder(List<BackendProvider> all) {
    return all.stream().filter(p -> p.autoRank().isPresent())
        .sorted(Comparator.comparingInt((BackendProvider p) -> p.autoRank().getAsInt())
            .thenComparing(BackendProvider::name))
        .toList();
  }

  /**
   * Each provider in auto order that can honour the request, until one runs here with every
   * requested device; the last candidate answers whatever the others lacked.
   */
  private static LatencyBackend openAuto(BackendRequest request, List<BackendProvider> all, Consumer<String> notices) {
    List<BackendProvider> candidates = autoOrder(all).stream()
        // Test devices only matter to a provider that registers them; a mismatch only to one that can perturb.
        .filter(p -> !request.mismatch().any() || p.features().contains(BackendProvider.Feature.PROFILE_MISMATCH))
        .toList();
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("no registered backend can answer this request");
    }
    List<String> passedOver = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      BackendProvider p = candidates.get(i);
      BackendRequest mine = p.features().contains(BackendProvider.Feature.TEST_DEVICES) ? request.forBackend(p.name())
          : request.forBackend(p.name()).withTestDevices(List.of());
      if (i == candidates.size() - 1) {
        LatencyBackend last = p.open(mine, notices);
        requireRequestedDevices(last, request, passedOver);
        if (!passedOver.isEmpty()) {
          notices.accept("backend auto: " + String.join("; ", passedOver) + ", so " + answers(last));
        }
        return last;
      }
      LatencyBackend b;
      try {
        b = p.open(mine, notices);
      } catch (BackendUnavailableException | LinkageError e) {
        // One short line: the full reason and its fix are what `hsdag devices --backend NAME` prints.
        passedOver.add("no " + p.name() + " runtime here ('hsdag devices --backend " + p.name() + "' says why)");
        continue;
      }
      List<String> have = names(b);
      List<String> missing = missing(request, have);
      if (missing.isEmpty() && have.size() >= request.minimumDevices()) {
        if (passedOver.isEmpty()) {
          notices.accept("backend auto: using " + b.name() + " (" + b.profile() + ")");
        } else {
          notices.accept("backend auto: " + String.join("; ", passedOver) + ", so " + answers(b));
        }
        return b;
      }
      b.close();
      String lacking = missing.isEmpty()
          ? "only " + String.join(", ", have) + " (this needs " + request.minimumDevices()
              + " devices)"
          : String.join(", ", have) + " but not " + String.join(", ", missing);
      passedOver.add(p.name() + " here has " + lacking + p.moreDevicesHint().map(h -> " (" + h + ")").orElse(""));
    }
    throw new AssertionError("unreachable: the last candidate always answers");
  }

  /**
   * The last candidate lacking a requested device too: one line that says what each backend has (and
   * how to add a test device), not a choice of the last one followed by its refusal.
   */
  private static void requireRequestedDevices(LatencyBackend last, BackendRequest request, List<String> passedOver) {
    List<String> have = names(last);
    List<String> missing = missing(request, have);
    if (missing.isEmpty() || passedOver.isEmpty()) {
      return;
    }
    last.close();
    throw new IllegalArgumentException("--devices: no backend here has " + String.join(", ", missing) + ": "
        + String.join("; ", passedOver) + "; " + last.name() + "/" + last.profile() + " has "
        + String.join(", ", have));
  }

  private static List<String> names(LatencyBackend b) {
    return b.devices().stream().map(DeviceInfo::name).toList();
  }

  /** The devices {@code request} asks for that are not among {@code have}. */
  private static List<String> missing(BackendRequest request, List<String> have) {
    return request.requestedDevices().stream().filter(d -> !have.contains(d)).toList();
  }

  private static String answers(LatencyBackend b) {
    return b.simulated() ? "the simulator answers (" + b.name() + "/" + b.profile() + "; every number is simulated)"
        : b.name() + " answers (" + b.profile() + ")";
  }
}
