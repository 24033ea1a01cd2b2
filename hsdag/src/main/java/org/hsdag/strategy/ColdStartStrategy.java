package org.hsdag.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.coarsen.Quotients;
import org.hsdag.placement.Placement;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;

/**
 * Any strategy with the cold-start add-ons ({@link ColdStartMoves}) around it, so bench can measure
 * what they add: the ops are grouped by a co-location rule into units, each single-device
 * placement is measured first, a latency model learns from every measurement (the wrapped
 * strategy's and its own), after every {@code round} of the wrapped strategy's placements {@code
 * movesPerRound} segment moves go around the placement the model ranks fastest, and the model's
 * ranking is the favourites (the wrapped strategy's before any measurement). The wrapped strategy
 * is told only about its own placements. {@link HsdagStrategy} runs the same add-ons between its
 * episodes itself.
 */
public final class ColdStartStrategy implements SearchStrategy, AutoCloseable {
  private final SearchStrategy inner;
  private final CoarseningMode grouping;
  private final int round;
  private final int movesPerRound;
  private SearchContext context;
  private Coarsening coarsening;
  private ColdStartMoves cold;
  private final ArrayDeque<Asked> asked = new ArrayDeque<>();
  private int innerTold;

  private static final class Asked {
    private final int[] perCoarse;
    private final boolean fromInner;

    Asked(int[] perCoarse, boolean fromInner) {
      this.perCoarse = perCoarse;
      this.fromInner = fromInner;
    }
  }

  /**
   * @param grouping the co-location rule that makes the units the model and the moves work on
   * @param round how many of the wrapped strategy's measurements make a round
   * @param movesPerRound segment moves after each round
   */
  public ColdStartStrategy(SearchStrategy inner, CoarseningMode grouping, int round, int movesPerRound) {
    if (round < 1 || movesPerRound < 1) {
      throw new IllegalArgumentException("round and movesPerRound must be >= 1");
    }
    this.inner = inner;
    this.grouping = grouping;
    this.round = round;
    this.movesPerRound = movesPerRound;
  }

  @Override
  public String name() {
    return inner.name() + "+cold-start";
  }

  @Override
  public void init(SearchContext context) {
    this.context = context;
    inner.init(context);
    asked.clear();
    innerTold = 0;
    coarsening = new ColocationCoarsener(grouping).coarsen(context.graph());
    int devices = context.devices().size();
    long[] masks = HsdagStrategy.coarseMasks(coarsening, context.support(), devices);
    int[] clusterOf = new int[coarsening.nodeCount()];
    Arrays.setAll(clusterOf, coarsening::clusterOf);
    cold = ColdStartMoves.create(coarsening.quotient(), Quotients.orderCyclesLast(coarsening.quotient()), masks,
        devices, clusterOf, movesPerRound, context.seed());
  }

  @Override
  public List<Placement> ask(int limit) {
    List<Placement> batch = new ArrayList<>();
    int[] move;
    while (cold != null && batch.size() < limit && (move = cold.poll()) != null) {
      asked.addLast(new Asked(move, false));
      batch.add(HsdagStrategy.repair(coarsening.lift(context.devices(), move), context.support()));
    }
    if (!batch.isEmpty()) {
      return batch;
    }
    for (Placement p : inner.ask(limit)) {
      int[] perCoarse = cold == null ? null : cold.model().units(p);
      if (cold != null) {
        cold.asked(perCoarse);
      }
      asked.addLast(new Asked(perCoarse, true));
      batch.add(p);
    }
    return batch;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    List<Placement> innerBatch = new ArrayList<>();
    List<Measurement> innerResults = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Asked a = asked.pollFirst();
      if (a == null) {
        throw new IllegalStateException("told more placements than were asked");
      }
      Measurement m = results.get(i);
      if (cold != null && FailurePenalty.usable(m)) {
        cold.observe(a.perCoarse, m.latencySeconds() * 1000);
      }
      if (a.fromInner) {
        innerBatch.add(batch.get(i));
        innerResults.add(m);
      }
    }
    if (!innerBatch.isEmpty()) {
      inner.tell(innerBatch, innerResults);
      int before = innerTold / round;
      innerTold += innerBatch.size();
      if (cold != null && innerTold / round > before) {
        cold.queueSegmentMoves();
      }
    }
  }

  @Override
  public List<Placement> favourites(int k) {
    List<Placement> out = new ArrayList<>();
    if (cold != null) {
      for (int[] perCoarse : cold.favourites(k)) {
        out.add(HsdagStrategy.repair(coarsening.lift(context.devices(), perCoarse), context.support()));
      }
    }
    return out.isEmpty() ? inner.favourites(k) : out;
  }

  @Override
  public boolean finished() {
    return inner.finished();
  }

  @Override
  public String finishedReason() {
    return inner.finishedReason();
  }

  @Override
  public void close() throws Exception {
    if (inner instanceof AutoCloseable c) {
      c.close();
    }
  }
}
