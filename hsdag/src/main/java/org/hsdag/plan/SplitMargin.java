package org.hsdag.plan;

import java.util.List;
import java.util.Locale;

/**
 * How large a split's gain over the fastest single device must be before it is worth believing: at
 * least the cost model's own error and the noise of the measurements it was judged on. A gain within
 * the model's error is one the model cannot tell from nothing; a gain within the noise is one that
 * measuring cannot tell from the single device either (the final pick keeps the single device in such
 * a tie). The early stop of a search and {@code plan}'s choice of a single device both apply this one
 * rule.
 *
 * @param modelError the model's own relative error (NaN: unknown)
 * @param modelErrorText how it was found, e.g. {@code its own error 3.1 % on the 2 splits measured, each left out}
 * @param noise the measurements' relative noise (NaN: unknown): in a search, the median half-width of their 95 %
 *     intervals; in a plan, the median half-spread of the profile's repeated runs
 */
public record SplitMargin(double modelError, String modelErrorText, double noise) {
  /** The noise of measurements whose 95 % intervals have the relative half-widths {@code halfWidths} (NaN ignored). */
  public static double medianNoise(List<Double> halfWidths) {
    double[] w = halfWidths.stream().filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue)
        .sorted().toArray();
    if (w.length == 0) {
      return Double.NaN;
    }
    return w.length % 2 == 1 ? w[w.length / 2] : (w[w.length / 2 - 1] + w[w.length / 2]) / 2;
  }

  /** The margin: the larger of the model's error and the noise (an unknown one counts as 0). */
  public double width() {
    return Math.max(known(modelError), known(noise));
  }

  /** Whether a split gaining {@code gainShare} of the single device's latency is within the margin. */
  public boolean covers(double gainShare) {
    return gainShare <= width();
  }

  /** {@code its own error 3.1 % on ...; the measurements' noise ±2.0 %}. */
  public String describe() {
    return Double.isFinite(noise) && noise > 0 ? String.format(Locale.ROOT, "%s; the measurements' noise ±%.1f %%",
        modelErrorText, 100 * noise) : modelErrorText;
  }

  private static double known(double x) {
    return Double.isFinite(x) ? x : 0;
  }
}
