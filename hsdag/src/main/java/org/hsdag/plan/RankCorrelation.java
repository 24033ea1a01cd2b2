package org.hsdag.plan;

import java.util.Arrays;
import java.util.Comparator;

/** Spearman's rank correlation: Pearson's correlation of the ranks, ties given their average rank. */
public final class RankCorrelation {
  private RankCorrelation() {}

  /**
   * Spearman's rho of {@code x} and {@code y} (same length, at least 2); NaN when either has all
   * values equal (no ranking to compare).
   */
  public static double spearman(double[] x, double[] y) {
    if (x.length != y.length || x.length < 2) {
      throw new IllegalArgumentException(
          "Expected two arrays of the same length >= 2 (got " + x.length + ", " + y.length + ")");
    }
    return pearson(ranks(x), ranks(y));
  }

  /** Ranks 1..n, ties sharing the mean of the ranks they span. */
  static double[] ranks(double[] v) {
    Integer[] order = new Integer[v.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> v[i]));
    double[] r = new double[v.length];
    int i = 0;
    while (i < order.length) {
      int j = i;
      while (j + 1 < order.length && v[order[j + 1]] == v[order[i]]) {
        j++;
      }
      double rank = (i + j) / 2.0 + 1;
      for (int k = i; k <= j; k++) {
        r[order[k]] = rank;
      }
      i = j + 1;
    }
    return r;
  }

  private static double pearson(double[] a, double[] b) {
    double ma = Arrays.stream(a).average().orElseThrow();
    double mb = Arrays.stream(b).average().orElseThrow();
    double sab = 0;
    double saa = 0;
    double sbb = 0;
    for (int i = 0; i < a.length; i++) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) * (a[i] - ma);
      sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa == 0 || sbb == 0 ? Double.NaN : sab / Math.sqrt(saa * sbb);
  }
}
