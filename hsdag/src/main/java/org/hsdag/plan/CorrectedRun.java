package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hsdag.placement.Placement;

/**
 * A run's cost model corrected by its own measurements ({@link CostCorrection}) and how well it
 * predicts them: the one source of every cost-model figure a tune prints (the early stop, the
 * {@code why:} line, the summary's and the report's trust line). Built from the same measurements
 * in the same order, it gives the same figures, whoever asks.
 *
 * <p>Trust is leave-one-out: each measurement is predicted by the model corrected on all the others.
 */
public final class CorrectedRun {
  /** Successful measurements before the model's own error is known. */
  public static final int MIN_MEASUREMENTS = 3;

  private final PlacementProxy base;
  private final List<Placement> placements;
  private final double[] millis;
  private PlacementProxy corrected;
  private Trust trust;
  private SplitError splitError;

  /**
   * How well the corrected model predicted the run's own measurements, each left out in turn.
   *
   * @param count measurements predicted (successful, with a finite prediction)
   * @param rmsLogError root mean square of log(real / predicted); NaN below {@value #MIN_MEASUREMENTS}
   * @param rho Spearman's rho of predicted against real; NaN below {@value #MIN_MEASUREMENTS} or without a ranking
   * @param medianError median of |predicted / real - 1|; NaN below {@value #MIN_MEASUREMENTS}
   */
  public record Trust(int count, double rmsLogError, double rho, double medianError) {
    /** {@code leave-one-out over 7 measurements: rho 0.91, median |error| 3.2 %}, or why it is unknown. */
    public String describe() {
      if (count < MIN_MEASUREMENTS) {
        return "unknown: " + count + " measurement" + (count == 1 ? "" : "s") + ", at least " + MIN_MEASUREMENTS
            + " needed";
      }
      String r = Double.isNaN(rho) ? "rho undefined (the measurements do not rank)"
          : String.format(Locale.ROOT, "rho %.2f", rho);
      return String.format(Locale.ROOT, "leave-one-out over %d measurements: %s, median |error| %.1f %%", count, r,
          100 * medianError);
    }
  }

  /** {@code base} corrected by the successful measurements {@code placements} (latencies {@code millis}, in order). */
  public CorrectedRun(PlacementProxy base, List<Placement> placements, List<Double> millis) {
    if (placements.size() != millis.size()) {
      throw new IllegalArgumentException(placements.size() + " placements for " + millis.size() + " latencies");
    }
    this.base = base;
    this.placements = List.copyOf(placements);
    this.millis = millis.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Successful measurements the model is corrected on. */
  public int count() {
    return placements.size();
  }

  /** The base model corrected on every measurement. */
  public PlacementProxy corrected() {
    if (corrected == null) {
      corrected = correctedWithout(-1);
    }
    return corrected;
  }

  /** The bound on a split's gain over the model's fastest single device; null when no device runs every op. */
  public SplitBound bound() {
    return SplitBound.of(corrected());
  }

  /** The bound on a split's gain over {@code device} alone (e.g. the measured winner); null when it cannot run every op. */
  public SplitBound boundOver(String device) {
    return SplitBound.over(corrected(), device);
  }

  /** The leave-one-out trust figures (computed once). */
  public Trust trust() {
    if (trust == null) {
      trust = leaveOneOut();
    }
    return trust;
  }

  /**
   * The corrected model's error on the splits measured, each left out in turn while every
   * single-device measurement stays in the fit: the root mean square of log(real / predicted) over
   * them (NaN below {@value #MIN_MEASUREMENTS} measurements or without a split). What the early
   * stop weighs a split's gain against. A single device is the bound's own measured reference, and
   * leaving it out makes the model guess that device's scale from a few ops moved in the splits: on
   * a real detector that guess, not the model, was off by 40 % while every split was predicted
   * within 4 %.
   */
  public SplitError splitError() {
    if (splitError == null) {
      List<Double> logs = new ArrayList<>();
      for (int i = 0; placements.size() >= MIN_MEASUREMENTS && i < placements.size(); i++) {
        if (!placements.get(i).isSingleDevice()) {
          double predicted = correctedWithout(i).latencyMicros(placements.get(i)) / 1000;
          if (Double.isFinite(predicted) && predicted > 0 && millis[i] > 0) {
            logs.add(Math.log(millis[i] / predicted));
          }
        }
      }
      double sq = logs.stream().mapToDouble(x -> x * x).sum();
      splitError = new SplitError(logs.size(), logs.isEmpty() ? Double.NaN : Math.sqrt(sq / logs.size()));
    }
    return splitError;
  }

  /**
   * The corrected model's error on the splits measured (see {@link #splitError}).
   *
   * @param splits splits predicted, each left out
   * @param rmsLogError root mean square of log(real / predicted) over them; NaN when none
   */
  public record SplitError(int splits, double rmsLogError) {
    /** {@code its own error 3.1 % on 2 splits measured, each left out}. */
    public String describe() {
      return String.format(Locale.ROOT, "its own error %.1f %% on the %d split%s measured, each left out",
          100 * rmsLogError, splits, splits == 1 ? "" : "s");
    }
  }

  /** Names the model: {@code cost model <source> corrected on N measurements}. */
  public String describe(String source) {
    String model = source == null ? "cost model" : source.startsWith("cost model") ? source : "cost model " + source;
    return model + " corrected on " + count() + " measurement" + (count() == 1 ? "" : "s");
  }

  private PlacementProxy correctedWithout(int left) {
    CostCorrection c = new CostCorrection(base);
    for (int i = 0; i < placements.size(); i++) {
      if (i != left) {
        c.observe(placements.get(i), millis[i]);
      }
    }
    return c.corrected();
  }

  private Trust leaveOneOut() {
    int n = placements.size();
    if (n < MIN_MEASUREMENTS) {
      return new Trust(n, Double.NaN, Double.NaN, Double.NaN);
    }
    List<double[]> pairs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double predicted = correctedWithout(i).latencyMicros(placements.get(i)) / 1000;
      if (Double.isFinite(predicted) && predicted > 0 && millis[i] > 0) {
        pairs.add(new double[] {predicted, millis[i]});
      }
    }
    int k = pairs.size();
    if (k < MIN_MEASUREMENTS) {
      return new Trust(k, Double.NaN, Double.NaN, Double.NaN);
    }
    double[] p = new double[k];
    double[] r = new double[k];
    double[] err = new double[k];
    double sq = 0;
    for (int i = 0; i < k; i++) {
      p[i] = pairs.get(i)[0];
      r[i] = pairs.get(i)[1];
      err[i] = Math.abs(p[i] / r[i] - 1);
      double log = Math.log(r[i] / p[i]);
      sq += log * log;
    }
    Arrays.sort(err);
    double median = k % 2 == 1 ? err[k / 2] : (err[k / 2 - 1] + err[k / 2]) / 2;
    return new Trust(k, Math.sqrt(sq / k), RankCorrelation.spearman(p, r), median);
  }
}
