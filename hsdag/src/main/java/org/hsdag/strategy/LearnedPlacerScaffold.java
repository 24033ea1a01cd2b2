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
 * optimiser and the failure penalty. Each placer builds its own policy on them in {@link #start};
 * {@link #close} releases the manager.
 */
abstract class LearnedPlacerScaffold implements AutoCloseable {
  /** What a failure costs before any measurement succeeded, ms. */
  static final double FAILURE_BEFORE_ANY_SUCCESS_MS = 1e4;

  private final Grouping grouping;
  private final double learningRate;
  /** The units to place and their allowed devices. */
  PlacementSpace space;
  /** The run's random stream (its first draw seeded the parameters). */
  SplittableRandom rng;
  /** Position to unit, cycles last. */
  int[] order;
  /** Owns every tensor of the policy. */
  NDManager manager;
  /** The policy's parameters. */
  ParameterStore store;
  Adam adam;
  /** The cost of a failed measurement: twice the slowest success, {@value #FAILURE_BEFORE_ANY_SUCCESS_MS} ms before any. */
  FailurePenalty penalty;
  int devices;

  LearnedPlacerScaffold(Grouping grouping, double learningRate) {
    this.grouping = grouping;
    this.learningRate = learningRate;
  }

  /** Sets up the shared parts on {@code context}'s graph grouped by the placer's grouping, then the policy. */
  public final void init(SearchContext context) {
    close();
    space = PlacementSpace.grouped(context.graph(), context.devices(), context.support(),
        grouping.groupOf(context.graph()));
    rng = new SplittableRandom(context.seed());
    order = org.hsdag.coarsen.Quotients.orderCyclesLast(space.unitGraph());
    manager = NDManager.newBaseManager();
    // The stream's first draw seeds the parameters, as it always has: a seed repeats its run.
    store = new ParameterStore(manager, rng.nextLong());
    adam = new Adam(manager, learningRate);
    penalty = FailurePenalty.twiceSlowest(FAILURE_BEFORE_ANY_SUCCESS_MS);
    devices = space.deviceCount();
    start(context);
  }

  /** The placer's own part of {@link #init}, once the shared parts are set. */
  abstract void start(SearchContext context);

  PlacementSpace space() {
    return space;
  }

  @Override
  public void close() {
    if (manager != null) {
      manager.close();
      manager = null;
    }
  }
}
