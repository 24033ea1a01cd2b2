package org.hsdag.strategy;

import ai.djl.ndarray.NDManager;
import java.util.SplittableRandom;
import org.hsdag.gnn.Adam;
import org.hsdag.gnn.ParameterStore;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SearchContext;

/**
 * What the learned placers ({@link PlacetoStrategy}, {@link RnnPlacerStrategy}) set up alike when a
 * search starts: the grouped placement space, the random stream of the run's seed, the unit order
 * (cycles last), the tensor manager, the parameters seeded from the stream's first draw, the Adam
 * optimiser and the failure penalty. Each placer keeps the parts it uses and closes the manager.
 *
 * <p>The parts are handed over once, so this is not a value: it lives only while a placer starts.
 */
final class LearnedPlacerScaffold {
  /** What a failure costs before any measurement succeeded, ms. */
  static final double FAILURE_BEFORE_ANY_SUCCESS_MS = 1e4;

  private final PlacementSpace space;
  private final SplittableRandom rng;
  private final int[] order;
  private final NDManager manager;
  private final ParameterStore store;
  private final Adam adam;

  private LearnedPlacerScaffold(PlacementSpace space, SplittableRandom rng, int[] order, NDManager manager,
      ParameterStore store, Adam adam) {
    this.space = space;
    this.rng = rng;
    this.order = order;
    this.manager = manager;
    this.store = store;
    this.adam = adam;
  }

  /** The scaffold of a placer on {@code context}'s graph grouped by {@code grouping}, learning at {@code learningRate}. */
  static LearnedPlacerScaffold open(SearchContext context, Grouping grouping, double learningRate) {
    PlacementSpace space = PlacementSpace.grouped(context.graph(), context.devices(), context.support(),
        grouping.groupOf(context.graph()));
    SplittableRandom rng = new SplittableRandom(context.seed());
    int[] order = org.hsdag.coarsen.Quotients.orderCyclesLast(space.unitGraph());
    NDManager manager = NDManager.newBaseManager();
    // The stream's first draw seeds the parameters, as it always has: a seed repeats its run.
    ParameterStore store = new ParameterStore(manager, rng.nextLong());
    return new LearnedPlacerScaffold(space, rng, order, manager, store, new Adam(manager, learningRate));
  }

  /** The units to place and their allowed devices. */
  PlacementSpace space() {
    return space;
  }

  /** The run's random stream (its first draw seeded the parameters). */
  SplittableRandom rng() {
    return rng;
  }

  /** Position to unit, cycles last. */
  int[] order() {
    return order;
  }

  /** Owns every tensor of the policy; the placer closes it. */
  NDManager manager() {
    return manager;
  }

  /** The policy's parameters. */
  ParameterStore store() {
    return store;
  }

  /** The optimiser. */
  Adam adam() {
    return adam;
  }

  /** The cost of a failed measurement: twice the slowest success, {@value #FAILURE_BEFORE_ANY_SUCCESS_MS} ms before any. */
  FailurePenalty penalty() {
    return FailurePenalty.twiceSlowest(FAILURE_BEFORE_ANY_SUCCESS_MS);
  }
}
