package org.hsdag.backend;

import org.apache.commons.statistics.distribution.TDistribution;

/** Confidence intervals of a sample mean (Student's t). */
public final class ConfidenceInterval {
  private ConfidenceInterval() {}

  /** {@code [low, high]} of the mean at {@code level}; NaNs with fewer than two samples. */
  public static double[] ofMean(double[] x, double level) {
    int n = x.length;
    if (n < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= n;
    double ss = 0;
    for (double v : x) {
      ss += (v - mean) * (v - mean);
    }
    double se = Math.sqrt(ss / (n - 1) / n);
    double t = level == 0.95 && n - 1 < T95.length ? T95[n - 1]
        : TDistribution.of(n - 1).inverseCumulativeProbability(0.5 + level / 2);
    return new double[] {mean - t * se, mean + t * se};
  }

  // The t quantile costs tens of µs; every simulated measurement needs one, so the usual level is tabulated.
  private static final double[] T95 = new double[257];

  static {
    for (int df = 1; df < T95.length; df++) {
      T95[df] = TDistribution.of(df).inverseCumulativeProbability(0.975);
    }
  }
}
