package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CorrectedRun;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.SplitBound;
import org.hsdag.tune.LogRecord;

/**
 * The cost-model lines of a finished run: {@code why:} a single device won and how far the model can
 * be trusted, both from the one model the search's early stop used ({@link CorrectedRun}: the run's
 * cost model corrected on its successful search measurements, in log order), so no two figures of a
 * run come from different models.
 *
 * @param why why {@code winner} alone won, or null (a split won, or no cost model)
 * @param trust the model's leave-one-out figures on the run's own measurements, naming the model
 */
record CostModelNotes(String why, String trust) {
  static final CostModelNotes NONE = new CostModelNotes(null, null);

  /**
   * The notes of a run whose cost model is {@code base} ({@code source} names it), from its log's
   * {@code records}; {@code winner} is the single device that won the final race, or null when a split won.
   */
  static CostModelNotes of(PlacementProxy base, String source, List<LogRecord> records, DeviceSet devices,
      String winner) {
    List<Placement> placements = new ArrayList<>();
    List<Double> millis = new ArrayList<>();
    for (LogRecord r : records) {
      if (LogRecord.MEASUREMENT.equals(r.type()) && LogRecord.PHASE_SEARCH.equals(r.phase()) && r.succeeded()
          && r.latencyMs() != null) {
        placements.add(r.toPlacement(devices));
        millis.add(r.latencyMs());
      }
    }
    CorrectedRun run = new CorrectedRun(base, placements, millis);
    String model = run.describe(source);
    String trust = model + ": " + run.trust().describe();
    if (winner == null) {
      return new CostModelNotes(null, trust);
    }
    SplitBound b = run.boundOver(winner);
    String why = b == null ? null : "measured, " + winner + " alone won; by the " + model + ", " + b.explain();
    return new CostModelNotes(why, trust);
  }
}
