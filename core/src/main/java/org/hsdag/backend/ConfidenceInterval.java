package org.hsdag.backend;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Confidence intervals of the statistics hsdag reports, each for the same statistic as the point
 * it goes with, so a reported latency always lies inside its own interval.
 */
public final class ConfidenceInterval {
  /** The confidence level of every interval hsdag prints (console, log, reports). */
  public static final double LEVEL = 0.95;

  private ConfidenceInterval() {}

  /** {@code [low, high]} of {@code statistic} over {@code x} at the 95% level (NaNs with fewer than two samples). */
  public static double[] of(Statistic statistic, double[] x, int lastK, double trimFraction) {
    return switch (statistic) {
      case MEAN_OF_LAST -> ofMean(Arrays.copyOfRange(x, Math.max(0, x.length - lastK), x.length), LEVEL);
      case MEDIAN -> ofMedian(x, LEVEL);
      case TRIMMED_MEAN -> ofTrimmedMean(x, trimFraction, LEVEL);
    };
  }

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
    double half = tQuantile(n - 1, level) * Math.sqrt(ss / (n - 1) / n);
    return new double[] {mean - half, mean + half};
  }

  /**
   * Distribution-free interval of the median from order statistics: {@code [x(l), x(n+1-l)]} with
   * the largest l for which P(Binomial(n, ½) < l) ≤ (1 − level)/2. Below six samples no such l
   * exists at 95% and the interval is the sample range (coverage 1 − 2^(1−n)); NaNs below two.
   */
  public static double[] ofMedian(double[] x, double level) {
    int n = x.length;
    if (n < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double[] sorted = x.clone();
    Arrays.sort(sorted);
    BinomialDistribution half = BinomialDistribution.of(n, 0.5);
    double tail = (1 - level) / 2;
    int l = 1;
    while (l < (n + 1) / 2 && half.cumulativeProbability(l) <= tail) {
      l++;
    }
    return new double[] {sorted[l - 1], sorted[n - l]};
  }

  /**
   * Tukey–McLaughlin interval of the trimmed mean: the winsorized variance, divided by the kept
   * fraction, with Student's t on n − 2g − 1 degrees of freedom (g samples trimmed at each end).
   */
  public static double[] ofTrimmedMean(double[] x, double trimFraction, double level) {
    int n = x.length;
    int g = (int) Math.floor(n * trimFraction);
    int kept = n - 2 * g;
    if (kept < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double[] s = x.clone();
    Arrays.sort(s);
    double trimmed = 0;
    for (int i = g; i < n - g; i++) {
      trimmed += s[i];
    }
    trimmed /= kept;
    double winsorizedMean = 0;
    for (int i = 0; i < n; i++) {
      winsorizedMean += s[Math.min(Math.max(i, g), n - g - 1)];
    }
    winsorizedMean /= n;
    double ss = 0;
    for (int i = 0; i < n; i++) {
      double d = s[Math.min(Math.max(i, g), n - g - 1)] - winsorizedMean;
      ss += d * d;
    }
    double se = Math.sqrt(ss / (n - 1)) / ((double) kept / n * Math.sqrt(n));
    double half = tQuantile(kept - 1, level) * se;
    return new double[] {trimmed - half, trimmed + half};
  }

  private static double tQuantile(int df, double level) {
    return level == 0.95 && df < T95.length ? T95[df]
        : TDistribution.of(df).inverseCumulativeProbability(0.5 + level / 2);
  }

  // The t quantile costs tens of µs; every simulated measurement needs one, so the usual level is tabulated.
  private static final double[] T95 = new double[257];

  static {
    for (int df = 1; df < T95.length; df++) {
      T95[df] = TDistribution.of(df).inverseCumulativeProbability(0.975);
    }
  }
}
