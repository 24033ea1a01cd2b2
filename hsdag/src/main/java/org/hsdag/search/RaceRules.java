package org.hsdag.search;

import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.ConfidenceInterval;
import org.hsdag.backend.Measurement;

/**
 * When a finalist of the final race ({@link FinalRounds}) can stop being measured because no further
 * round could change the pick. The {@link Verdict} keeps the fastest single device unless a split is
 * {@linkplain Candidate#clearlyFasterThan clearly faster} than it, so a split that cannot end clearly
 * faster than any single device still racing, whatever its and their remaining rounds measure, can
 * only ever lose to it (on ssd-inception-v2 every split was within 1 % of CPU alone, and 5
 * of the 7 finalists ran 10 rounds that could not have made any of them the pick). And a single
 * device clearly slower than another one is neither the pick nor the reference a split must beat.
 */
final class RaceRules {
  /**
   * A single device whose first measurement's interval starts above this many times the fastest single
   * device's interval end does not race ({@link #farSlowerSingleDevices}). Round-to-round drift in a real
   * run is far smaller (ssd-inception-v2 on CPU: 27.3 to 31.4 ms over one race, 15 %), and CPU2 at 1 thread
   * is 3.2-3.8 times slower than CPU on ssd-inception-v2 and resnet50.
   */
  static final double FAR_SLOWER = 2;

  private RaceRules() {}

  /**
   * The single devices ({@link Finalist#baseline}) whose first measurement's 95 % interval lies above
   * {@value #FAR_SLOWER} times the end of the fastest single device's: neither the pick nor the reference
   * a split must beat, they need no rounds, and their first measurement (the same protocol) stands as their
   * figure. Those without a first measurement, or with a failed one, race.
   */
  static boolean[] farSlowerSingleDevices(List<Finalist> finalists) {
    int n = finalists.size();
    double fastest = Double.POSITIVE_INFINITY;
    for (Finalist f : finalists) {
      if (f.baseline() && f.first() != null && f.first().ok()) {
        fastest = Math.min(fastest, high(f.first()));
      }
    }
    boolean[] out = new boolean[n];
    for (int i = 0; i < n; i++) {
      Finalist f = finalists.get(i);
      out[i] = f.baseline() && f.first() != null && f.first().ok() && low(f.first()) > FAR_SLOWER * fastest;
    }
    return out;
  }

  private static double high(Measurement m) {
    return Double.isNaN(m.ciHighMillis()) ? m.latencyMillis() : m.ciHighMillis();
  }

  private static double low(Measurement m) {
    return Double.isNaN(m.ciLowMillis()) ? m.latencyMillis() : m.ciLowMillis();
  }

  /**
   * The search finalists (not {@code staying}) with at least 2 rounds that cannot end clearly faster
   * than any single device still in the race ({@code baseline}, not {@code left}, not failed), however
   * their remaining rounds go: for every number of further rounds each could still get (up to {@code
   * more}), even with all of the finalist's at 0 ms and all of the single device's unboundedly slow,
   * the finalist's 95 % interval of the median does not end below the single device's. Exact for
   * that rule: an order statistic never rises when a value falls. None when no single device is in
   * the race (a split then wins without beating one).
   */
  static boolean[] futile(List<List<Double>> roundValues, String[] failReason, boolean[] baseline, boolean[] staying,
      boolean[] left, int more) {
    int n = roundValues.size();
    boolean[] out = new boolean[n];
    boolean anyBaseline = false;
    for (int j = 0; j < n; j++) {
      anyBaseline |= baseline[j] && !left[j] && failReason[j] == null && roundValues.get(j).size() >= 2;
    }
    for (int i = 0; anyBaseline && i < n; i++) {
      if (staying[i] || baseline[i] || left[i] || failReason[i] != null || roundValues.get(i).size() < 2) {
        continue;
      }
      boolean could = false;
      for (int j = 0; j < n && !could; j++) {
        if (baseline[j] && !left[j] && failReason[j] == null && roundValues.get(j).size() >= 2) {
          could = couldEndClearlyFaster(values(roundValues.get(i)), values(roundValues.get(j)), more);
        }
      }
      out[i] = !could;
    }
    return out;
  }

  /**
   * The single devices whose interval of the median lies above the fastest single device's by more
   * than either interval's width ({@link FinalRounds#outclassed} among the single devices alone).
   */
  static boolean[] slowerSingleDevices(List<List<Double>> roundValues, String[] failReason, boolean[] baseline) {
    int n = roundValues.size();
    String[] onlyBaselines = failReason.clone();
    boolean[] notBaseline = new boolean[n];
    for (int i = 0; i < n; i++) {
      notBaseline[i] = !baseline[i];
      if (!baseline[i] && onlyBaselines[i] == null) {
        onlyBaselines[i] = "not a single device";
      }
    }
    return FinalRounds.outclassed(roundValues, onlyBaselines, notBaseline);
  }

  /**
   * Whether rounds {@code s} could end {@linkplain Candidate#clearlyFasterThan clearly faster} than
   * rounds {@code b} after up to {@code more} further rounds of each: some count of further rounds
   * for each, the best case for {@code s} (its at 0, {@code b}'s unboundedly slow), separates them.
   */
  static boolean couldEndClearlyFaster(double[] s, double[] b, int more) {
    for (int i = 0; i <= more; i++) {
      for (int j = 0; j <= more; j++) {
        if (clearlyFaster(padded(s, i, 0), padded(b, j, Double.MAX_VALUE))) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@link Candidate#clearlyFasterThan} on the medians of two sets of rounds and their intervals. */
  private static boolean clearlyFaster(double[] s, double[] b) {
    double[] cs = ConfidenceInterval.ofMedian(s, ConfidenceInterval.LEVEL);
    double[] cb = ConfidenceInterval.ofMedian(b, ConfidenceInterval.LEVEL);
    if (Double.isNaN(cs[1]) || Double.isNaN(cb[0])) {
      return SearchEngine.median(s) < SearchEngine.median(b);
    }
    return cs[1] < cb[0];
  }

  private static double[] padded(double[] v, int extra, double value) {
    double[] out = Arrays.copyOf(v, v.length + extra);
    Arrays.fill(out, v.length, out.length, value);
    return out;
  }

  private static double[] values(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
