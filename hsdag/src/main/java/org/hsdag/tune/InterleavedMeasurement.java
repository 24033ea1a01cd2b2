package org.hsdag.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.backend.ConfidenceInterval;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.backend.KeyedMeasurement;

/**
 * Compares placements fairly: {@code rounds} rounds, each measuring every placement once in a
 * freshly shuffled order, so drift (thermal, clocks, background load) hits all of them alike. A
 * placement's latency is the median of its round latencies, with the 95% confidence interval of
 * their mean.
 */
public final class InterleavedMeasurement {
  private InterleavedMeasurement() {}

  /**
   * One placement's outcome.
   *
   * @param label what it is, e.g. {@code placement} or {@code CPU-only}
   * @param placement the placement
   * @param latencyMs median of the round latencies (NaN when it failed)
   * @param ciLowMs 95% CI of the mean of the round latencies, lower end
   * @param ciHighMs upper end
   * @param roundsMs each round's latency
   * @param samples timed samples over all rounds
   * @param subModels HETERO sub-models (0 when unknown)
   * @param statistic the per-round protocol, e.g. {@code 0+10 mean-of-last-5}
   * @param reason why it failed, or null
   */
  public record Result(String label, Placement placement, double latencyMs, double ciLowMs, double ciHighMs,
      double[] roundsMs, int samples, int subModels, String statistic, String reason) {
    public Result {
      roundsMs = roundsMs.clone();
    }

    @Override
    public double[] roundsMs() {
      return roundsMs.clone();
    }

    public boolean ok() {
      return reason == null;
    }
  }

  /** Measures every placement {@code rounds} times, interleaved; a failure ends that placement's rounds. */
  public static List<Result> run(LatencyBackend backend, OpGraph graph, List<String> labels, List<Placement> placements,
      MeasurementProtocol protocol, int rounds, long seed) {
    int n = placements.size();
    List<List<Double>> values = new ArrayList<>();
    int[] samples = new int[n];
    int[] subModels = new int[n];
    String[] reason = new String[n];
    for (int i = 0; i < n; i++) {
      values.add(new ArrayList<>());
    }
    SplittableRandom rng = new SplittableRandom(seed);
    for (int r = 0; r < rounds; r++) {
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      for (int i = n - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      for (int i : order) {
        if (reason[i] != null) {
          continue;
        }
        Placement p = placements.get(i);
        Measurement m;
        try {
          long key = p.hash64() * 31 + r + 0x5EED;
          m = backend.capability(KeyedMeasurement.class).map(k -> k.measure(graph, p, protocol, key))
              .orElseGet(() -> backend.measure(graph, p, protocol));
        } catch (RuntimeException e) {
          m = Measurement.failed("backend error: " + e, backend.name(), backend.profile());
        }
        if (m.ok()) {
          values.get(i).add(m.latencyMillis());
          samples[i] += m.samplesMillis().length;
          subModels[i] = m.subModels();
        } else {
          reason[i] = m.reason();
        }
      }
    }
    List<Result> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] v = values.get(i).stream().mapToDouble(Double::doubleValue).toArray();
      double[] ci = reason[i] == null ? ConfidenceInterval.ofMean(v, 0.95) : new double[] {Double.NaN, Double.NaN};
      out.add(new Result(labels.get(i), placements.get(i), reason[i] == null ? Tuner.median(values.get(i)) : Double.NaN,
          ci[0], ci[1], v, samples[i], subModels[i], protocol.describe(), reason[i]));
    }
    return out;
  }
}
