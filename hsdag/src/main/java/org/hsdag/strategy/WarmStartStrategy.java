package org.hsdag.strategy;

import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;

/**
 * A learned search warm-started on the cost model: the {@link PlannerStrategy} spends the first
 * measurements (the planner's candidates, then the corrected model's best guesses) until it has
 * nothing new worth measuring, and the learned strategy continues with the rest of the budget. The
 * engine keeps the best of both, so the result is never worse than the planner's. Without a cost
 * model ({@code --proxy none}, or a backend that has none) it is the learned strategy alone, cold
 * as published.
 */
public final class WarmStartStrategy implements SearchStrategy {
  private final PlannerStrategy planner;
  private final SearchStrategy then;
  private boolean warm;

  public WarmStartStrategy(PlannerStrategy planner, SearchStrategy then) {
    this.planner = planner;
    this.then = then;
  }

  @Override
  public String name() {
    return then.name();
  }

  @Override
  public void init(SearchContext context) {
    warm = context.proxy().isPresent();
    if (warm) {
      planner.init(context);
    }
    then.init(context);
  }

  private boolean inPlannerPhase() {
    return warm && !planner.finished();
  }

  @Override
  public List<Placement> ask(int limit) {
    if (inPlannerPhase()) {
      List<Placement> batch = planner.ask(limit);
      if (!batch.isEmpty()) {
        return batch;
      }
    }
    return then.ask(limit);
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    // A batch comes from one phase: the planner's while it still proposes, then the learned strategy's.
    if (inPlannerPhase()) {
      planner.tell(batch, results);
    } else {
      then.tell(batch, results);
    }
  }

  @Override
  public boolean finished() {
    return !inPlannerPhase() && then.finished();
  }
}
