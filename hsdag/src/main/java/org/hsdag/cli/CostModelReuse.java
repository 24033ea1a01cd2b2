package org.hsdag.cli;

import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadProbe;
import org.hsdag.backend.LoadSample;
import org.hsdag.backend.MeasurementLoad;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.ProfileDatabaseUser;
import org.hsdag.openvino.ProfileReuse;

/**
 * plan's and tune's cost model on a real backend: reused from the {@link CostModelStore} when the same
 * model, devices, test devices, runtime and sizes were profiled before (unless a fresh profile is asked
 * for), else built and saved; with when it was built, how long that took and the load the machine
 * carried meanwhile.
 */
final class CostModelReuse {
  private final CostModelStore store;
  private final java.nio.file.Path xml;
  private final BackendRequest request;
  private final boolean fresh;
  private CostModelStore.Key key;
  private final Consumer<String> notices;
  private String reusedFrom;
  private Optional<LoadSample> before = Optional.empty();
  private Optional<MeasurementLoad> load = Optional.empty();
  private Saved reused;
  private long buildStart;
  private double buildSeconds = Double.NaN;
  private boolean built;

  CostModelReuse(CostModelStore store, java.nio.file.Path xml, BackendRequest request, boolean fresh,
      Consumer<String> notices) {
    this.store = store;
    this.xml = xml;
    this.request = request;
    this.fresh = fresh;
    this.notices = notices;
  }

  /** Before the cost model is resolved: gives the backend the saved measurements, or starts watching the load. */
  void before(LatencyBackend backend, OpGraph graph) {
    Optional<CostModelSource> source = backend.simulated() ? Optional.empty()
        : backend.capability(CostModelSource.class);
    if (source.isEmpty()) {
      return;
    }
    backend.capability(ProfileDatabaseUser.class).ifPresent(u -> u.useProfileDatabase(store.database(), fresh,
        notices));
    try {
      // The runtime's version and the devices' full names are in the backend's profile.
      key = CostModelStore.Key.of(xml, backend.devices().stream().map(d -> d.name()).toList(), request.testDevices(),
          backend.name() + "/" + backend.profile(), request.inputShapes().inputs());
    } catch (IOException e) {
      notices.accept("the cost model cannot be saved for reuse (" + e.getMessage() + ")");
      return;
    }
    if (!fresh) {
      try {
        Optional<String> saved = store.load(key);
        if (saved.isPresent()) {
          Saved env = Saved.parse(saved.get());
          source.get().reuseCostModelMeasurements(graph, env.measurements());
          reusedFrom = store.where(key);
          reused = env;
          backend.capability(ProfileDatabaseUser.class).ifPresent(u -> u.reusedWhole(graph, reusedFrom));
          load = Optional.ofNullable(env.load());
          return;
        }
      } catch (IOException | IllegalArgumentException e) {
        notices.accept("the saved cost model " + store.where(key) + " cannot be used (" + e.getMessage()
            + "); profiling again");
      }
    }
    before = LoadProbe.proc().sample();
    buildStart = System.nanoTime();
  }

  /** After the cost model is resolved: saves what was measured, and reads the load it was measured under. */
  void after(LatencyBackend backend, OpGraph graph) {
    if (reusedFrom != null || key == null) {
      return;
    }
    buildSeconds = (System.nanoTime() - buildStart) / 1e9;
    Optional<LoadSample> end = LoadProbe.proc().sample();
    load = before.isEmpty() ? Optional.empty() : end.flatMap(e -> LoadSample.between(before.get(), e));
    Optional<String> measured = backend.capability(CostModelSource.class).flatMap(s -> s.costModelMeasurements(graph));
    if (measured.isPresent()) {
      built = true;
      try {
        store.save(key, new Saved(measured.get(), load.orElse(null), java.time.Instant.now().toString(),
            buildSeconds).json());
      } catch (IOException e) {
        notices.accept("the cost model could not be saved for reuse (" + e.getMessage() + ")");
      }
    }
  }

  /**
   * The summary's line of what the profile database gave and what was profiled ({@code profile database: 412 of 605
   * op records reused, 193 profiled}); empty when the backend built no cost model with it.
   */
  static Optional<String> databaseLine(LatencyBackend backend, OpGraph graph) {
    return backend.capability(ProfileDatabaseUser.class).flatMap(u -> u.profileReuse(graph)).map(ProfileReuse::line);
  }

  /** Where the measurements were reused from; empty when they were measured now. */
  Optional<String> reusedFrom() {
    return Optional.ofNullable(reusedFrom);
  }

  /** The foreign load while the cost model was profiled (now, or when the reused one was); empty when unknown. */
  Optional<MeasurementLoad> load() {
    return load;
  }

  /** When and in how long a reused cost model was built ({@code built 2026-01-01 12:00 UTC in 18.2 s}), if saved. */
  Optional<String> provenance() {
    if (reused == null || reused.builtAt() == null) {
      return Optional.empty();
    }
    String when = reused.builtAt().replaceFirst("T", " ").replaceFirst(":\\d\\d(\\.\\d+)?Z$", " UTC");
    return Optional.of("built " + when + (reused.buildSeconds() == null ? ""
        : String.format(java.util.Locale.ROOT, " in %.1f s", reused.buildSeconds())));
  }

  /**
   * The line a command says of its cost model: reused (where from, when it was built, the load then) or
   * built now (in how long, under what load); empty when there is no store to speak of (the simulator,
   * a named profile).
   */
  Optional<String> line() {
    if (key == null || (reusedFrom == null && !built)) {
      return Optional.empty();
    }
    String under = load.map(l -> " under " + loadText(l)).orElse("");
    if (reusedFrom != null) {
      return Optional.of("cost model: reused from " + reusedFrom + provenance().map(p -> ", " + p).orElse("") + under
          + " (--fresh-profile profiles again)");
    }
    return Optional.of(String.format(java.util.Locale.ROOT, "cost model: built in %.1f s%s (saved for the next plan "
        + "or tune)", buildSeconds, under));
  }

  /** The load a cost model was profiled under, with a warning when it was high enough to skew the profile. */
  static String loadText(MeasurementLoad l) {
    return l.describe() + (l.foreignShare() > 0.25
        ? " (a loaded machine: the profile, so the plan, may not hold on a quiet one)" : "");
  }

  /**
   * What the store keeps: the backend's measurements, the load they were taken under, when and in how long.
   *
   * @param measurements {@link CostModelSource#costModelMeasurements}' text
   * @param load the foreign load while they were measured, or null
   * @param builtAt when they were measured (an ISO instant), or null (saved before this was kept)
   * @param buildSeconds how long measuring them took, or null
   */
  @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
  record Saved(String measurements, MeasurementLoad load, String builtAt, Double buildSeconds) {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    String json() {
      try {
        return JSON.writeValueAsString(this);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }

    static Saved parse(String text) {
      try {
        Saved s = JSON.readValue(text, Saved.class);
        if (s.measurements() == null) {
          throw new IllegalArgumentException("no measurements in it");
        }
        return s;
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException("not a saved cost model: " + e.getOriginalMessage());
      }
    }
  }
}
