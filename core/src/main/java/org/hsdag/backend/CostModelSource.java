package org.hsdag.backend;

import java.util.Optional;
import java.util.function.Consumer;
import org.hsdag.ir.OpGraph;
import org.hsdag.cost.HeteroCostModel;

/**
 * A backend capability: an additive HETERO cost model of a graph (per-op kernel times per device,
 * fusion savings, boundary copies, sub-model start costs), which the planner solves and the search
 * uses to rank placements before measuring them. The simulator serves its own tables; the
 * OpenVINO backend serves per-op times from the profiling records of single-device runs.
 */
public interface CostModelSource {
  /** The cost model of {@code graph} on every device the backend has. */
  HeteroCostModel costModel(OpGraph graph);

  /**
   * The runtime's judge of which splits of {@code graph} HETERO refuses (its own shape inference on
   * the split's boundaries, docs/hetero-rules.md §3), when a runtime is loaded; empty: hsdag's rules judge.
   */
  default Optional<org.hsdag.cost.BoundaryOracle> runtimeBoundaryOracle(OpGraph graph) {
    return Optional.empty();
  }

  /**
   * The measurements {@code graph}'s cost model was built from, as text to save with a run, when
   * they are measurements (the real backend profiles the model); empty when the model is computed
   * (the simulator), which a resumed run computes again exactly.
   */
  default Optional<String> costModelMeasurements(OpGraph graph) {
    return Optional.empty();
  }

  /**
   * Builds {@code graph}'s cost model from saved {@link #costModelMeasurements} instead of
   * measuring again, so that a resumed run plans on the numbers the interrupted one planned on.
   *
   * @throws IllegalArgumentException when the text does not fit this graph and these devices
   */
  default void reuseCostModelMeasurements(OpGraph graph, String measurements) {}

  /**
   * Where {@code graph}'s measurements go while its cost model is built: {@code sink} gets the text of
   * {@link #costModelMeasurements} so far each time a part of it was measured, so a process killed during the
   * build keeps that part; {@link #reuseCostModelMeasurements} then continues from it. Called before the build.
   */
  default void costModelProgress(OpGraph graph, Consumer<String> sink) {}

  /** Whether building {@code graph}'s cost model still measures on hardware (nothing or only part of it measured). */
  default boolean costModelPending(OpGraph graph) {
    return costModelMeasurements(graph).isEmpty();
  }

  /**
   * What {@code graph}'s measurements hold, in a few words for the user ({@code kernel times on CPU, CPU2; 20 of 42
   * designed-split measurements}); empty when there are none.
   */
  default Optional<String> costModelMeasured(OpGraph graph) {
    return Optional.empty();
  }

  /**
   * How far {@code graph}'s cost model is off on the measurements it was fitted to (the real
   * backend's designed splits); empty when it was not fitted to measurements (the simulator, one device).
   */
  default Optional<FitError> costModelError(OpGraph graph) {
    return Optional.empty();
  }

  /**
   * A cost model's own error on the runs it was fitted to.
   *
   * @param runs how many measured runs it gives a latency for
   * @param medianAbs the median |predicted / measured - 1| over them
   * @param maxAbs the largest
   * @param noise how far the repeats of one run differ: the median, over the runs repeated, of half their spread
   *     relative to their median (NaN: unknown)
   * @param predictedRefused measured runs it predicts HETERO refuses, so gives no latency for, though they ran: not
   *     an error of a size (a percentage of infinity says nothing), a count of its own
   */
  record FitError(int runs, double medianAbs, double maxAbs, double noise, int predictedRefused) {
    /** Without a known noise, every run predicted. */
    public FitError(int runs, double medianAbs, double maxAbs) {
      this(runs, medianAbs, maxAbs, Double.NaN, 0);
    }

    /** From the relative errors of the runs; empty when there is none. */
    public static Optional<FitError> of(java.util.List<Double> errors) {
      return of(errors, Double.NaN);
    }

    /**
     * From the relative errors of the runs (infinite for a run it predicts refused) and the noise of their
     * repeats; empty when there is no error. When it predicts every run refused, its error is unbounded.
     */
    public static Optional<FitError> of(java.util.List<Double> errors, double noise) {
      if (errors.isEmpty()) {
        return Optional.empty();
      }
      double[] e = errors.stream().filter(Double::isFinite).mapToDouble(x -> Math.abs(x)).sorted().toArray();
      int refused = errors.size() - e.length;
      if (e.length == 0) {
        return Optional.of(new FitError(0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, noise, refused));
      }
      double median = e.length % 2 == 1 ? e[e.length / 2] : (e[e.length / 2 - 1] + e[e.length / 2]) / 2;
      return Optional.of(new FitError(e.length, median, e[e.length - 1], noise, refused));
    }

    /** How it reads, e.g. {@code on its 12 measured runs: median 4.1 %, max 18.5 %}. */
    public String describe() {
      return describe("measured runs");
    }

    /** How it reads with the runs named, e.g. {@code on its 12 designed HETERO runs: median 4.1 %, max 18.5 %}. */
    public String describe(String theRuns) {
      String refused = predictedRefused == 0 ? "" : String.format(java.util.Locale.ROOT,
          "; %d more %s it predicts HETERO refuses", predictedRefused,
          predictedRefused == 1 && theRuns.endsWith("s") ? theRuns.substring(0, theRuns.length() - 1) : theRuns);
      if (runs == 0) {
        return "none of its " + predictedRefused + " " + theRuns + " predicted (it predicts HETERO refuses them all)";
      }
      return String.format(java.util.Locale.ROOT, "on its %d %s: median %.1f %%, max %.1f %%%s", runs, theRuns,
          100 * medianAbs, 100 * maxAbs, refused);
    }
  }
}
