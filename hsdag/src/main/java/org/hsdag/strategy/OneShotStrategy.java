package org.hsdag.strategy;

import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SequentialStrategy;

/**
 * A baseline that decides one placement from the context alone and proposes it once (single
 * device, AUTO emulation): it learns nothing from measurements and is finished after one proposal.
 */
abstract class OneShotStrategy implements SequentialStrategy {
  private Placement placement;
  private boolean proposed;

  /** The placement to propose for {@code context}. */
  protected abstract Placement choose(SearchContext context);

  @Override
  public final void init(SearchContext context) {
    placement = choose(context);
    proposed = false;
  }

  @Override
  public final Placement propose() {
    if (placement == null) {
      throw new IllegalStateException("init was not called");
    }
    proposed = true;
    return placement;
  }

  @Override
  public final void observe(Placement placement, Measurement measurement) {}

  @Override
  public final boolean finished() {
    return proposed;
  }
}
