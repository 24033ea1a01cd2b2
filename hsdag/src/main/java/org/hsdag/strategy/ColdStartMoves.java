package org.hsdag.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.random.SplitMix64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cold-start add-ons over the coarse nodes of a graph, for a search without a cost model: each
 * single-device placement first, a {@link MeasuredLatencyModel} fitted to the run's measurements,
 * after each round {@code movesPerRound} {@link SegmentMoves} around the measured placement the model
 * ranks fastest, and that ranking as the search's favourites. {@link HsdagStrategy} runs them between
 * its episodes; {@link ColdStartStrategy} puts them around any strategy.
 */
final class ColdStartMoves {
  private static final Logger LOG = LoggerFactory.getLogger(ColdStartMoves.class);

  private final MeasuredLatencyModel model;
  private final SegmentMoves segments;
  private final int movesPerRound;
  private final long seed;
  private final ArrayDeque<int[]> queue = new ArrayDeque<>();
  // Every coarse placement asked so far, so a segment move is never measured twice.
  private final Set<SegmentMoves.Key> askedBefore = new HashSet<>();
  private long rounds;

  private ColdStartMoves(MeasuredLatencyModel model, SegmentMoves segments, int movesPerRound, long seed) {
    this.model = model;
    this.segments = segments;
    this.movesPerRound = movesPerRound;
    this.seed = seed;
  }

  /**
   * The add-ons for a coarse graph, with its single-device placements queued; null when the model
   * would have too many terms ({@link MeasuredLatencyModel#MAX_TERMS}).
   *
   * @param order every coarse node once, producers first
   * @param masks per coarse node, the devices its ops may use
   * @param unitOf per op, its coarse node
   */
  static ColdStartMoves create(IntGraph quotient, int[] order, long[] masks, int deviceCount, int[] unitOf,
      int movesPerRound, long seed) {
    MeasuredLatencyModel model = new MeasuredLatencyModel(quotient, order, deviceCount, unitOf);
    if (model.terms() > MeasuredLatencyModel.MAX_TERMS) {
      LOG.info("cold start without a latency model or segment moves: {} terms for {} coarse nodes exceed {}",
          model.terms(), quotient.nodeCount(), MeasuredLatencyModel.MAX_TERMS);
      return null;
    }
    ColdStartMoves moves = new ColdStartMoves(model, new SegmentMoves(order, masks, deviceCount), movesPerRound, seed);
    moves.queueSingleDevicePlacements(masks, deviceCount);
    return moves;
  }

  MeasuredLatencyModel model() {
    return model;
  }

  /**
   * Each single-device placement (nodes that cannot use the device keep their first allowed one):
   * the latency model then knows from the start what each device does to every node, where a node
   * only a search's early, chopped-up samples put on a device is one it would otherwise take for as
   * slow as device 0 and never move there. {@code tune} has measured them already as its
   * baselines, so there they cost nothing.
   */
  private void queueSingleDevicePlacements(long[] masks, int deviceCount) {
    for (int d = 0; d < deviceCount; d++) {
      int[] perCoarse = new int[masks.length];
      for (int v = 0; v < masks.length; v++) {
        perCoarse[v] = (masks[v] >>> d & 1L) != 0 || masks[v] == 0 ? d : Long.numberOfTrailingZeros(masks[v]);
      }
      if (askedBefore.add(new SegmentMoves.Key(perCoarse))) {
        queue.addLast(perCoarse);
      }
    }
  }

  /** The next queued placement (a device per coarse node), or null. */
  int[] poll() {
    return queue.pollFirst();
  }

  /** Notes a placement the wrapped search asked, so no segment move repeats it. */
  void asked(int[] perCoarse) {
    askedBefore.add(new SegmentMoves.Key(perCoarse));
  }

  void observe(int[] perCoarse, double millis) {
    model.observe(perCoarse, millis);
  }

  /**
   * After a round: the next segment moves around the measured placement the latency model ranks
   * fastest ({@link MeasuredLatencyModel#rankedObserved}; not the fastest measured: among near ties
   * that is the luckiest measurement), in turn the boundary move and the other stretch ({@link
   * SegmentMoves#stretches}) the model predicts fastest; equal predictions in a seeded random order.
   * Boundary moves alone stall where a run must open inside another (resnet50); stretches alone,
   * ranked over so many, chase the model's errors (inception_v3).
   */
  void queueSegmentMoves() {
    if (model.observations() == 0) {
      return;
    }
    int[] center = model.rankedObserved(1).get(0);
    // Fixed by (seed, round) alone, so a restored run draws the same moves.
    SplittableRandom rng = new SplittableRandom(seed ^ (SplitMix64.GOLDEN_GAMMA * ++rounds));
    List<ArrayDeque<int[]>> kinds = List.of(byPrediction(segments.around(center), rng),
        byPrediction(segments.stretches(center), rng));
    for (int i = 0; i < movesPerRound; i++) {
      ArrayDeque<int[]> kind = kinds.get(i % 2).isEmpty() ? kinds.get(1 - i % 2) : kinds.get(i % 2);
      if (kind.isEmpty()) {
        return;
      }
      int[] move = kind.pollFirst();
      askedBefore.add(new SegmentMoves.Key(move));
      queue.addLast(move);
    }
  }

  /** The moves never asked before, fastest predicted first, ties in the order of a seeded shuffle. */
  private ArrayDeque<int[]> byPrediction(List<int[]> moves, SplittableRandom rng) {
    List<int[]> fresh = new ArrayList<>();
    for (int[] move : moves) {
      if (!askedBefore.contains(new SegmentMoves.Key(move))) {
        fresh.add(move);
      }
    }
    for (int i = fresh.size() - 1; i > 0; i--) {
      Collections.swap(fresh, i, rng.nextInt(i + 1));
    }
    double[] predicted = fresh.stream().mapToDouble(model::predict).toArray();
    Integer[] order = new Integer[fresh.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingDouble(i -> predicted[i]));
    ArrayDeque<int[]> out = new ArrayDeque<>();
    for (int i : order) {
      out.addLast(fresh.get(i));
    }
    return out;
  }

  /** Up to {@code k} measured placements the latency model ranks fastest (none before a measurement). */
  List<int[]> favourites(int k) {
    return model.observations() > 0 ? model.rankedObserved(k) : List.of();
  }

  /** The state a checkpoint keeps: rounds drawn, queued moves, everything asked, observations. */
  record State(long rounds, List<int[]> queued, List<int[]> askedBefore, List<int[]> observed,
      List<Double> observedMillis) {
    static final State EMPTY = new State(0, List.of(), List.of(), List.of(), List.of());

    State {
      observedMillis = List.copyOf(observedMillis);
    }
  }

  State state() {
    List<int[]> before = new ArrayList<>();
    askedBefore.forEach(k -> before.add(k.deviceOf()));
    return new State(rounds, new ArrayList<>(queue), before, model.observedPlacements(),
        Arrays.stream(model.observedMillis()).boxed().toList());
  }

  void restore(State s) {
    rounds = s.rounds();
    queue.clear();
    queue.addAll(s.queued());
    askedBefore.clear();
    s.askedBefore().forEach(a -> askedBefore.add(new SegmentMoves.Key(a)));
    for (int i = 0; i < s.observed().size(); i++) {
      model.observe(s.observed().get(i), s.observedMillis().get(i));
    }
  }
}
