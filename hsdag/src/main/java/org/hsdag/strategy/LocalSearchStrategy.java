package org.hsdag.strategy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SequentialStrategy;

/**
 * The greedy baseline: first-improvement hill climbing over single-unit device flips, with
 * random restarts. It starts from the best single-device assignment (each device measured once),
 * then tries moves "unit u to device d" in a shuffled order and keeps the first that lowers the
 * measured latency; when a full cycle of moves brings no improvement it restarts from a random
 * assignment. Placements measured before are answered from the engine's cache for free.
 */
public final class LocalSearchStrategy implements SequentialStrategy {
  private enum Phase {
    STARTS, RESTART, SCAN
  }

  private final Grouping grouping;
  private PlacementSpace space;
  private SplittableRandom rng;
  private FailurePenalty penalty;
  private final Deque<int[]> starts = new ArrayDeque<>();
  private Phase phase;
  private int[] current;
  private double currentCost;
  private int[] moves;
  private int movePos;
  private int sinceImprovement;
  private int[] pending;

  public LocalSearchStrategy(Grouping grouping) {
    this.grouping = grouping;
  }

  @Override
  public String name() {
    return "greedy";
  }

  @Override
  public void init(SearchContext context) {
    space = PlacementSpace.grouped(context.graph(), context.devices(), context.support(),
        grouping.groupOf(context.graph()));
    rng = new SplittableRandom(context.seed());
    penalty = FailurePenalty.twiceSlowest();
    starts.clear();
    for (int d = 0; d < space.deviceCount(); d++) {
      starts.add(space.uniform(d));
    }
    phase = Phase.STARTS;
    current = null;
    currentCost = Double.POSITIVE_INFINITY;
    int count = 0;
    for (int u = 0; u < space.unitCount(); u++) {
      count += space.choiceCount(u);
    }
    moves = new int[count];
    int k = 0;
    for (int u = 0; u < space.unitCount(); u++) {
      for (int c = 0; c < space.choiceCount(u); c++) {
        moves[k++] = u * space.deviceCount() + space.choice(u, c);
      }
    }
  }

  @Override
  public Placement propose() {
    pending = nextCandidate();
    return space.decode(pending);
  }

  private int[] nextCandidate() {
    while (true) {
      switch (phase) {
        case STARTS -> {
          if (!starts.isEmpty()) {
            return starts.peek();
          }
          beginScan();
        }
        case RESTART -> {
          return current;
        }
        case SCAN -> {
          if (sinceImprovement >= moves.length) {
            current = space.randomAssignment(rng);
            currentCost = Double.POSITIVE_INFINITY;
            phase = Phase.RESTART;
            return current;
          }
          int m = moves[movePos];
          movePos = (movePos + 1) % moves.length;
          int u = m / space.deviceCount();
          int d = m % space.deviceCount();
          if (current[u] == d) {
            sinceImprovement++;
            continue;
          }
          int[] c = current.clone();
          c[u] = d;
          return c;
        }
        default -> throw new IllegalStateException();
      }
    }
  }

  private void beginScan() {
    phase = Phase.SCAN;
    // Fisher-Yates shuffle of the move order, new for every climb.
    for (int i = moves.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = moves[i];
      moves[i] = moves[j];
      moves[j] = t;
    }
    movePos = 0;
    sinceImprovement = 0;
  }

  private void accept(int[] candidate, double cost) {
    switch (phase) {
      case STARTS -> {
        starts.poll();
        if (current == null || cost < currentCost) {
          current = candidate.clone();
          currentCost = cost;
        }
        if (starts.isEmpty()) {
          beginScan();
        }
      }
      case RESTART -> {
        currentCost = cost;
        beginScan();
      }
      case SCAN -> {
        if (cost < currentCost) {
          current = candidate.clone();
          currentCost = cost;
          sinceImprovement = 0;
        } else {
          sinceImprovement++;
        }
      }
      default -> throw new IllegalStateException();
    }
  }

  @Override
  public void observe(Placement placement, Measurement measurement) {
    if (pending == null) {
      throw new IllegalStateException("observe without propose");
    }
    double cost = penalty.costMillis(measurement);
    int[] c = pending;
    pending = null;
    accept(c, cost);
  }
}
