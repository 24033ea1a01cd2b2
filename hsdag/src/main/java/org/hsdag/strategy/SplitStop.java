package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CorrectedRun;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.SplitBound;
import org.hsdag.plan.SplitMargin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the search may stop because no split can pay: the cost model, corrected by every
 * measurement so far ({@link CorrectedRun}, the same model the run's {@code why:} line uses), bounds what any split could gain over the fastest
 * single device ({@link SplitBound}); when that bound, or what is left of it once a measured split
 * took part of it (the bound's floor against the best measured placement), is within the {@link
 * SplitMargin}: the corrected model's own error on the splits measured, each left out ({@link
 * CorrectedRun#splitError}, known from 3 successful measurements on with a split among them), or the
 * noise of the measurements (the median half-width of their 95 % intervals), whichever is larger;
 * each at most {@value #MAX_ERROR}. Further
 * measurements then cannot find a split the model or the final race could tell from the single
 * device. Not thread-safe.
 */
final class SplitStop {
  private static final Logger LOG = LoggerFactory.getLogger(SplitStop.class);
  /** Successful measurements before the model's own error is known. */
  static final int MIN_MEASUREMENTS = CorrectedRun.MIN_MEASUREMENTS;
  /** A corrected model less accurate than this, or measurements noisier (a heavily loaded machine), prove nothing. */
  static final double MAX_ERROR = 0.25;

  private final PlacementProxy costModel;
  private final List<Placement> placements = new ArrayList<>();
  private final List<Double> millis = new ArrayList<>();
  private final List<Double> halfWidths = new ArrayList<>();
  private String verdict;
  private boolean stale = true;

  SplitStop(PlacementProxy costModel) {
    this.costModel = costModel;
  }

  /** One successful measurement, of unknown noise. */
  void observe(Placement p, double ms) {
    observe(p, ms, Double.NaN);
  }

  /** One successful measurement and the relative half-width of its 95 % interval (NaN: unknown). */
  void observe(Placement p, double ms, double halfWidth) {
    placements.add(p);
    millis.add(ms);
    halfWidths.add(halfWidth);
    stale = true;
  }

  /** Why no split can pay, when the corrected model shows it; null otherwise. */
  String reason() {
    if (stale) {
      verdict = judge();
      stale = false;
    }
    return verdict;
  }

  private String judge() {
    int n = placements.size();
    if (n < MIN_MEASUREMENTS) {
      return null;
    }
    CorrectedRun run = new CorrectedRun(costModel, placements, millis);
    PlacementProxy corrected = run.corrected();
    // Over the fastest single device measured so far when there is one: the device the result will name.
    String single = fastestSingleDevice();
    SplitBound bound = single != null ? run.boundOver(single) : run.bound();
    if (bound == null) {
      return null;
    }
    CorrectedRun.SplitError error = run.splitError();
    if (!(error.rmsLogError() <= MAX_ERROR)) {
      return null;
    }
    SplitMargin margin = new SplitMargin(error.rmsLogError(), error.describe(), SplitMargin.medianNoise(halfWidths));
    if (margin.noise() > MAX_ERROR) {
      return null;
    }
    LOG.debug("split stop at {} measurements: bound {} over {}, margin {}", n, bound.gainShare(), bound.device(),
        margin.describe());
    if (margin.covers(bound.gainShare())) {
      return String.format(Locale.ROOT, "no split can pay: by the %s (%s), a split could gain at most %.1f %% over %s "
          + "alone; %s", run.describe(null), margin.describe(), 100 * bound.gainShare(), bound.device(),
          bound.explain());
    }
    // A split measured already may have taken most of what any split could gain: what is left is what counts.
    Placement best = placements.get(fastestMeasured());
    double bestMicros = Math.min(corrected.latencyMicros(best), bound.singleMicros());
    double left = Math.max(0, 1 - (bound.singleMicros() - bound.gainMicros()) / bestMicros);
    if (!margin.covers(left)) {
      return null;
    }
    return String.format(Locale.ROOT, "no other split can pay: by the %s (%s), no placement could gain more than "
        + "%.1f %% over the best measured (%.1f %% over %s alone); %s", run.describe(null), margin.describe(),
        100 * left, 100 * (1 - bestMicros / bound.singleMicros()), bound.device(), bound.explain());
  }

  private String fastestSingleDevice() {
    String device = null;
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < placements.size(); i++) {
      Placement p = placements.get(i);
      if (p.isSingleDevice() && p.size() > 0 && millis.get(i) < best) {
        best = millis.get(i);
        device = p.deviceName(0);
      }
    }
    return device;
  }

  private int fastestMeasured() {
    int best = 0;
    for (int i = 1; i < millis.size(); i++) {
      if (millis.get(i) < millis.get(best)) {
        best = i;
      }
    }
    return best;
  }
}
