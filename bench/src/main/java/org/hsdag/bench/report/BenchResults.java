package org.hsdag.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a {@code bench} run produced, as plain records (serialised to {@code results.json}).
 *
 * @param backend backend name
 * @param profile backend profile
 * @param simulated whether numbers come from the simulator
 * @param devices devices searched over
 * @param budget measurements per run
 * @param seeds strategy seeds used (one run per seed)
 * @param protocol the measurement protocol used during search
 * @param finalProtocol the protocol of the final re-measurement of each run's best placement
 * @param models per-model results
 */
public record BenchResults(
    String backend,
    String profile,
    boolean simulated,
    List<String> devices,
    int budget,
    List<Long> seeds,
    String protocol,
    String finalProtocol,
    String costModel,
    List<ModelResult> models) {

  /** The same results over {@code newModels}. */
  public BenchResults withModels(List<ModelResult> newModels) {
    return new BenchResults(backend, profile, simulated, devices, budget, seeds, protocol, finalProtocol, costModel,
        newModels);
  }

  /**
   * One model.
   *
   * @param model model name
   * @param nodes node count
   * @param edges edge count
   * @param bestKnownMillis best latency known for this model (reference run or any run)
   * @param bestKnownSource what found it
   * @param methods per-method results in table order
   * @param referenceMillis mean latency of the method speedups are stated against (NaN when it did not run)
   * @param loadStart the 1-minute load average when the model's runs started (NaN when simulated or unknown)
   * @param loadEnd the same when they ended
   */
  public record ModelResult(String model, int nodes, int edges, double bestKnownMillis, String bestKnownSource,
      List<MethodResult> methods, double referenceMillis, double loadStart, double loadEnd) {
    /** A model without a speedup reference or load figures. */
    public ModelResult(String model, int nodes, int edges, double bestKnownMillis, String bestKnownSource,
        List<MethodResult> methods) {
      this(model, nodes, edges, bestKnownMillis, bestKnownSource, methods, Double.NaN, Double.NaN, Double.NaN);
    }
  }

  /**
   * One method on one model, over seeds.
   *
   * @param method method name
   * @param label table row label
   * @param paperRow the paper's row name, or null
   * @param kind BASELINE, HSDAG, ABLATION or REFERENCE
   * @param skipped why the method did not run, or null
   * @param meanMillis mean final latency over seeds
   * @param stdMillis sample standard deviation over seeds (0 for one seed)
   * @param speedupPercent (CPU-only − mean) / CPU-only × 100
   * @param gapToBestPercent (mean − best known) / best known × 100
   * @param paperMillis the paper's latency (ms), or null
   * @param paperSpeedupPercent the paper's speedup, or null
   * @param runs every run
   */
  public record MethodResult(
      String method,
      String label,
      String paperRow,
      String kind,
      String skipped,
      double meanMillis,
      double stdMillis,
      double speedupPercent,
      double gapToBestPercent,
      Double paperMillis,
      Double paperSpeedupPercent,
      List<Run> runs) {}

  /**
   * One run.
   *
   * @param seed strategy seed
   * @param measurements measurements spent
   * @param failures failed measurements
   * @param searchBestMillis best latency seen during the search
   * @param finalMillis the best placement re-measured with the final protocol (NaN when none succeeded)
   * @param wallMillis wall-clock time of the run
   * @param bestSoFarMillis best-so-far curve (one point per measurement)
   * @param bestPlacementDevices op counts per device of the best placement
   * @param bestPlacementMemory the best placement's memory per device ({@code MemoryTable#json}) when device
   *     capacities applied to the run, else empty
   */
  public record Run(
      long seed,
      int measurements,
      int failures,
      double searchBestMillis,
      double finalMillis,
      long wallMillis,
      List<Double> bestSoFarMillis,
      Map<String, Integer> bestPlacementDevices,
      Map<String, Object> bestPlacementMemory) {
    public Run {
      bestSoFarMillis = List.copyOf(bestSoFarMillis);
      bestPlacementMemory = bestPlacementMemory == null ? Map.of()
          : Collections.unmodifiableMap(new LinkedHashMap<>(bestPlacementMemory));
    }

    /** A run without device capacities. */
    public Run(long seed, int measurements, int failures, double searchBestMillis, double finalMillis, long wallMillis,
        List<Double> bestSoFarMillis, Map<String, Integer> bestPlacementDevices) {
      this(seed, measurements, failures, searchBestMillis, finalMillis, wallMillis, bestSoFarMillis,
          bestPlacementDevices,
          Map.of());
    }
  }
}
