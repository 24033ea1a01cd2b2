package org.hsdag.cli;

import java.util.Locale;
import java.util.Optional;
import org.hsdag.backend.CostModelSource.FitError;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.SplitMargin;

/**
 * The placement {@code plan} proposes: the planner's best, unless it is a split whose estimated gain
 * over the fastest single device lies within the {@link SplitMargin}: the cost model's own error on
 * its measured runs, or the noise of their repeats, whichever is larger (the rule a search's early
 * stop applies). A gain the model cannot back is noise of its profiling, and would make the same call
 * give another split each time; the fastest single device is proposed instead, and the plan says why.
 *
 * @param chosen the proposed candidate
 * @param note why the planner's best split was not proposed; empty when it was (or is a single device)
 */
record PlanChoice(PlanCandidate chosen, Optional<String> note) {
  static PlanChoice of(Plan plan, Optional<FitError> error) {
    PlanCandidate best = plan.best();
    PlanCandidate single = plan.bestSingleDevice();
    if (error.isEmpty() || single == null || best.placement().isSingleDevice()) {
      return new PlanChoice(best, Optional.empty());
    }
    FitError e = error.get();
    String device = single.placement().deviceName(0);
    if (e.runs() == 0) {
      return new PlanChoice(single, Optional.of("the cost model predicts HETERO refuses every measured run, so it "
          + "backs no split; " + device + " alone is proposed"));
    }
    SplitMargin margin = new SplitMargin(e.maxAbs(), String.format(Locale.ROOT,
        "off by up to %.1f %% on its %d measured runs", 100 * e.maxAbs(), e.runs()), e.noise());
    double gain = 1 - best.proxyMillis() / single.proxyMillis();
    if (!margin.covers(gain)) {
      return new PlanChoice(best, Optional.empty());
    }
    return new PlanChoice(single, Optional.of(String.format(Locale.ROOT,
        "no split beats %s within the cost model's error and the profile's noise (±%.1f %%): the best split is %.1f "
            + "%% faster on the model, which is %s; %s alone is proposed",
        device, 100 * margin.width(), 100 * gain, margin.describe(), device)));
  }
}
