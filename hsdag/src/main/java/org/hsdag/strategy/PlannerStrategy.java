package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CostCorrection;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.Planner;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchStrategy;
import org.hsdag.cost.HeteroCostModel;

/**
 * The cost-model planner as a search: it measures the planner's candidates first (a few distinct
 * placements, zero measurements spent to find them), then corrects the cost model with what it
 * measured ({@link CostCorrection}) and measures what the corrected model now ranks best: a
 * re-plan's new candidates, else the most promising unmeasured moves (one op or one co-location
 * group to another device) around the best placement measured. It stops when the corrected model has
 * nothing new worth measuring. With an exact cost model the first batch already holds the optimum;
 * with an inexact one each round of measurements moves the model towards the target.
 */
public final class PlannerStrategy implements SearchStrategy {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PlannerStrategy.class);

  /** Moves measured per round around the best placement. */
  static final int MOVES_PER_ROUND = 4;
  /** Relative error assumed of a kernel time the measurements have not corrected yet. */
  static final double UNCERTAINTY = 0.25;
  /** Rounds in a row without a better measurement before the strategy stops. */
  static final int PATIENCE = 6;

  private final String name;
  private PlacementProxy proxy;
  private CostCorrection correction;
  private final List<Placement> queue = new ArrayList<>();
  private final Set<Placement> proposed = new HashSet<>();
  private Placement best;
  private double bestMs = Double.POSITIVE_INFINITY;
  private boolean planned;
  private boolean improvedThisRound;
  private int roundsWithoutImprovement;
  private boolean finished;
  private final List<Told> history = new ArrayList<>();
  private int lastLimit;

  /**
   * One batch as it happened: the limit it was asked with, the placements (device per node) and
   * their latencies (null: failed). Replaying these rebuilds the strategy exactly.
   */
  public record Told(int limit, List<int[]> placements, List<Double> latencies) {}

  public PlannerStrategy(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(SearchContext context) {
    proxy = context.proxy(PlacementProxy.class).orElseThrow(() -> new SearchConfigException("strategy " + name
        + " plans on a cost model, and this run has none (the backend offers none and no --proxy-profile was given; or --proxy none)"));
    correction = new CostCorrection(proxy);
    queue.clear();
    proposed.clear();
    best = null;
    bestMs = Double.POSITIVE_INFINITY;
    planned = false;
    improvedThisRound = false;
    roundsWithoutImprovement = 0;
    finished = false;
    history.clear();
  }

  /** Every batch asked and told so far, in order. */
  public List<Told> history() {
    return List.copyOf(history);
  }

  /** Replays {@code told} after {@link #init}: the state it was in after those batches. */
  public void replay(List<Told> told) {
    for (Told t : told) {
      List<Placement> batch = ask(t.limit());
      if (batch.size() != t.placements().size()) {
        throw new IllegalStateException("the planner proposes " + batch.size() + " placements where it proposed "
            + t.placements().size() + "; the cost model or the planner changed");
      }
      for (int k = 0; k < batch.size(); k++) {
        if (!java.util.Arrays.equals(batch.get(k).deviceOf(), t.placements().get(k))) {
          throw new IllegalStateException(
              "the planner proposes another placement than it did; the cost model or the planner changed");
        }
      }
      told(batch, t.latencies());
    }
  }

  @Override
  public List<Placement> ask(int limit) {
    if (queue.isEmpty() && !finished) {
      refill();
    }
    List<Placement> batch = new ArrayList<>();
    while (!queue.isEmpty() && batch.size() < limit) {
      batch.add(queue.remove(0));
    }
    lastLimit = limit;
    return batch;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    List<Double> latencies = new ArrayList<>();
    for (Measurement m : results) {
      latencies.add(m.ok() ? m.latencyMillis() : null);
    }
    told(batch, latencies);
  }

  private void told(List<Placement> batch, List<Double> latencies) {
    List<int[]> placements = new ArrayList<>();
    for (int k = 0; k < batch.size(); k++) {
      placements.add(batch.get(k).deviceOf());
      Double ms = latencies.get(k);
      if (ms != null) {
        correction.observe(batch.get(k), ms);
        if (ms < bestMs) {
          bestMs = ms;
          best = batch.get(k);
          improvedThisRound = true;
        }
      }
    }
    history.add(new Told(lastLimit, placements, latencies));
  }

  @Override
  public boolean finished() {
    return finished && queue.isEmpty();
  }

  private void refill() {
    if (!planned) {
      planned = true;
      enqueue(candidates(proxy));
      if (!queue.isEmpty()) {
        return;
      }
    }
    roundsWithoutImprovement = improvedThisRound ? 0 : roundsWithoutImprovement + 1;
    improvedThisRound = false;
    if (roundsWithoutImprovement >= PATIENCE) {
      finished = true;
      return;
    }
    PlacementProxy corrected = correction.corrected();
    enqueue(candidates(corrected));
    if (queue.isEmpty() && best != null) {
      enqueue(bestMoves(corrected, best, MOVES_PER_ROUND));
    }
    if (queue.isEmpty()) {
      finished = true;
    }
  }

  private void enqueue(List<Placement> placements) {
    for (Placement p : placements) {
      if (proposed.add(p)) {
        queue.add(p);
      }
    }
  }

  /** The planner's candidates on {@code model}, best estimate first. */
  private static List<Placement> candidates(PlacementProxy model) {
    Plan plan = new Planner().plan(model);
    // A start the cost model refuses was repaired or skipped: the run goes on with the others (--verbose shows it).
    plan.notes().forEach(n -> LOG.info("planner: {}", n));
    List<PlanCandidate> sorted = new ArrayList<>(plan.candidates());
    sorted.sort(Comparator.comparingDouble(PlanCandidate::proxyMicros));
    Set<Placement> out = new LinkedHashSet<>();
    for (PlanCandidate c : sorted) {
      out.add(c.placement());
    }
    return new ArrayList<>(out);
  }

  /**
   * What a move may carry to another device: each co-location group, and each op alone whose kernel
   * time (on the device it has in {@code base}) is at least what counts as an improvement of the
   * latency {@code baseMicros}. A lone op matters where the groups cannot reach: on alexnet (3
   * devices, mismatched machine) the best placement puts one convolution on the CPU, and no group
   * holds it without its neighbours. A smaller op cannot pay by itself, and measuring placements
   * that close to the best only draws noise (a lucky one looks like an improvement).
   */
  private static List<int[]> movable(PlacementProxy model, int[] base, double baseMicros) {
    List<int[]> out = new ArrayList<>(List.of(model.colocationGroups()));
    double least = baseMicros * SearchLimits.MEANINGFUL_IMPROVEMENT_PERCENT / 100;
    for (int op = 0; op < base.length; op++) {
      if (model.model().micros(op, base[op]) >= least) {
        out.add(new int[] {op});
      }
    }
    return out;
  }

  /** The {@code count} distinct unmeasured placements one move from {@code from} that {@code model} ranks best. */
  private List<Placement> bestMoves(PlacementProxy model, Placement from, int count) {
    int[] base = model.opDevices(from);
    record Move(Placement placement, double micros) {}
    List<Move> moves = new ArrayList<>();
    for (int[] group : movable(model, base, model.evaluate(base).micros())) {
      for (int d = 0; d < model.devices().size(); d++) {
        if (base[group[0]] == d) {
          continue;
        }
        int[] next = base.clone();
        boolean ok = true;
        for (int op : group) {
          next[op] = d;
          ok &= model.model().supported(op, d);
        }
        if (!ok) {
          continue;
        }
        HeteroCostModel.Evaluation e = model.evaluate(next);
        if (e.ok()) {
          // Optimism under uncertainty: the moved kernels' time on their new device may be off by
          // about UNCERTAINTY either way, so a move that could pay off is tried before a sure small one.
          double moved = 0;
          for (int op : group) {
            moved += model.model().micros(op, d);
          }
          moves.add(new Move(model.placement(next), e.micros() - UNCERTAINTY * moved));
        }
      }
    }
    moves.sort(Comparator.comparingDouble(Move::micros));
    // A lone op's move may equal a group's (its partners already on that device): count it once.
    Set<Placement> out = new LinkedHashSet<>();
    for (Move m : moves) {
      Placement p = m.placement();
      if (!proposed.contains(p)) {
        out.add(p);
        if (out.size() == count) {
          break;
        }
      }
    }
    return new ArrayList<>(out);
  }
}
