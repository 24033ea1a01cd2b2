package org.hsdag.bench.real;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.statistics.descriptive.Median;

/**
 * The median of some repeated figure with its range: how every figure of the real-runtime
 * benchmark is printed, since on a shared machine one number without its spread says little.
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min smallest value
 * @param max largest value
 * @param count how many values
 */
public record Spread(double median, double min, double max, int count) {
  /** The spread of {@code values} (at least one). */
  public static Spread of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    return new Spread(Median.withDefaults().evaluate(values.clone()), Arrays.stream(values).min().orElseThrow(),
        Arrays.stream(values).max().orElseThrow(), values.length);
  }

  public static Spread of(List<Double> values) {
    return of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** {@code 12.30 [11.02–14.10]} with {@code decimals} places. */
  /** The spread of {@code a[i] / b[i]}. */
  static Spread ratios(double[] a, double[] b) {
    double[] r = new double[a.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = a[i] / b[i];
    }
    return of(r);
  }

  public String format(int decimals) {
    String f = "%." + decimals + "f";
    return String.format(Locale.ROOT, f + " [" + f + "–" + f + "]", median, min, max);
  }
}
