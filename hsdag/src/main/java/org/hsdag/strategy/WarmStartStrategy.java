package org.hsdag.strategy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.io.AtomicFiles;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CostCorrection;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.Estimate;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A learned search warm-started on the cost model: the {@link PlannerStrategy} spends the first
 * measurements (the planner's candidates, then the corrected model's best guesses) until it has
 * nothing new worth measuring, and the learned strategy continues with the rest of the budget;
 * with {@code pretrainEpisodes > 0} an HSDAG policy is first trained on the cost model's latency
 * ({@link HsdagStrategy#pretrainOnProxy}, no measurements). After the planner an HSDAG policy
 * makes no segment moves: the planner has placed the run boundaries on the cost model already. The
 * engine keeps the best of both, so the result is never worse than the planner's. Without a cost
 * model ({@code --proxy none}, or a backend that has none) it is the learned strategy alone, cold
 * as published.
 *
 * <p>The veto: the cost model corrected by every measurement of the run ({@link CostCorrection})
 * screens the learned strategy's proposals. One it predicts more than {@value #VETO_MARGIN_PERCENT}
 * % slower than the best measured placement (model against model, so a bias of the whole model
 * cancels) is not measured: the learned strategy is told the model's estimate instead, on the
 * measured scale, so REINFORCE still learns that it is slow, for free. When
 * {@value #IDLE_LIMIT} proposals in a row were vetoed or measured before, nothing the policy finds
 * is worth a measurement any more and the strategy finishes (in a run that may stop early, {@link
 * SearchContext#stopsEarly()}; otherwise the veto pauses there and the budget is spent).
 *
 * <p>With a cost model the learned strategy is initialised when the planner's phase is over, not
 * before: nothing tells it anything while the planner proposes, so its state is the same either
 * way, and a run that ends in the planner's phase (most real runs where one device wins) never
 * loads libtorch, coarsens the graph or builds the policy (that was the largest part of
 * hsdag's own time in a real tune of resnet50).
 */
public final class WarmStartStrategy implements SearchStrategy, Checkpointable, AutoCloseable {
  private static final String PLANNER_FILE = "planner-phase.json";
  private static final String VETO_FILE = "veto.json";
  /** Present in a checkpoint taken before the learned strategy started (its state is then its initial one). */
  static final String LEARNED_NOT_STARTED_FILE = "learned-not-started";
  private static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper();
  private static final Logger LOG = LoggerFactory.getLogger(WarmStartStrategy.class);
  /** How much slower than the best (percent, by the corrected model) a proposal may be and still be measured. */
  static final double VETO_MARGIN_PERCENT = 5.0;
  /** Proposals in a row not worth measuring after which the learned phase ends. */
  static final int IDLE_LIMIT = 50;

  private final PlannerStrategy planner;
  private final SearchStrategy then;
  private boolean warm;
  private boolean stopsEarly;
  private SearchContext context;
  // Whether the learned strategy has been initialised in this run (at once when cold, after the planner when warm).
  private boolean learnedStarted;
  private DeviceSet devices;

  private final int pretrainEpisodes;

  // Every measurement told (both phases), in order: the correction is rebuilt from it on restore.
  private final List<Observed> observed = new ArrayList<>();
  private final Map<Placement, Double> measured = new HashMap<>();
  private CostCorrection correction;
  private PlacementProxy corrected;
  private double referenceMicros;
  private double bestMs;
  private int idle;
  private int vetoed;
  // The learned strategy's batch being measured: the placements passed to the engine and the estimates of the vetoed.
  private List<Placement> pendingBatch;
  private SplitStop splitStop;
  private Measurement[] pendingResults;

  /**
   * One measurement told: the placement's device per node, its latency (null: failed) and the relative
   * half-width of its 95 % interval (null: unknown, e.g. a checkpoint from before it was kept).
   */
  record Observed(List<Integer> placement, Double ms, Double halfWidth) {
    Observed {
      placement = List.copyOf(placement);
    }
  }

  /** The veto's state in a checkpoint. */
  record VetoState(List<Observed> observed, int idle, int vetoed) {}

  /** {@code then} after {@code planner}; an HSDAG {@code then} is first trained {@code pretrainEpisodes} episodes on the cost model. */
  public WarmStartStrategy(PlannerStrategy planner, SearchStrategy then, int pretrainEpisodes) {
    this.planner = planner;
    this.then = then;
    this.pretrainEpisodes = pretrainEpisodes;
  }

  @Override
  public String name() {
    return then.name();
  }

  @Override
  public void init(SearchContext context) {
    warm = context.proxy(PlacementProxy.class).isPresent();
    devices = context.devices();
    stopsEarly = context.stopsEarly();
    observed.clear();
    measured.clear();
    correction = warm ? new CostCorrection(context.proxy(PlacementProxy.class).get()) : null;
    splitStop = warm ? new SplitStop(context.proxy(PlacementProxy.class).get()) : null;
    corrected = null;
    bestMs = Double.POSITIVE_INFINITY;
    idle = 0;
    vetoed = 0;
    pendingBatch = null;
    pendingResults = null;
    this.context = context;
    learnedStarted = false;
    if (warm) {
      planner.init(context);
      LOG.info("warm start on the cost model: the planner's candidates first; the {} policy is built when the planner "
          + "is done", then.name());
    } else {
      learned();
    }
  }

  /** The learned strategy, initialised on first use (see the class comment). */
  SearchStrategy learned() {
    if (!learnedStarted) {
      learnedStarted = true;
      // Segment moves around the planner's best made the final race pick a lucky neighbour under a
      // mismatched cost model (--mismatch); the planner has placed the run boundaries already.
      if (then instanceof HsdagStrategy h) {
        h.init(context, !warm);
      } else {
        then.init(context);
      }
      // A restored run overwrites this training with its saved state, so a resume stays identical.
      if (warm && then instanceof HsdagStrategy h && pretrainEpisodes > 0) {
        h.pretrainOnProxy(context.proxy(PlacementProxy.class).get(), pretrainEpisodes);
      }
    }
    return then;
  }

  /** Whether the learned strategy has been initialised (for tests: a run that ends with the planner never does). */
  boolean learnedStarted() {
    return learnedStarted;
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
    if (!warm) {
      return learned().ask(limit);
    }
    while (!idleTooLong()) {
      List<Placement> batch = learned().ask(limit);
      if (batch.isEmpty()) {
        return batch;
      }
      Measurement[] results = new Measurement[batch.size()];
      List<Placement> pass = new ArrayList<>();
      for (int k = 0; k < batch.size(); k++) {
        Placement p = batch.get(k);
        Measurement estimate = measured.containsKey(p) ? null : vetoEstimate(p);
        if (estimate != null) {
          results[k] = estimate;
          vetoed++;
        } else {
          pass.add(p);
        }
        // A placement measured before is answered from the engine's cache, free, but it is nothing new either.
        idle = estimate == null && !measured.containsKey(p) ? 0 : idle + 1;
      }
      if (!pass.isEmpty()) {
        pendingBatch = batch;
        pendingResults = results;
        return pass;
      }
      then.tell(batch, Arrays.asList(results));
    }
    return List.of();
  }

  /** Whether the learned phase is over: too long without a proposal worth measuring, in a run that may stop early. */
  private boolean idleTooLong() {
    return stopsEarly && idle >= IDLE_LIMIT;
  }

  /**
   * The corrected model's estimate for {@code p} when it predicts {@code p} hopeless, else null. A
   * run that must spend its budget stops vetoing once the idle limit is reached: it measures what
   * the policy proposes rather than proposing forever.
   */
  private Measurement vetoEstimate(Placement p) {
    if (measured.isEmpty() || idle >= IDLE_LIMIT) {
      return null;
    }
    if (corrected == null) {
      corrected = correction.corrected();
      referenceMicros = Double.POSITIVE_INFINITY;
      for (Map.Entry<Placement, Double> e : measured.entrySet()) {
        if (e.getValue() != null) {
          referenceMicros = Math.min(referenceMicros, corrected.latencyMicros(e.getKey()));
        }
      }
    }
    double predicted = corrected.latencyMicros(p);
    if (!Double.isFinite(predicted) || !Double.isFinite(referenceMicros) || !Double.isFinite(bestMs)
        || predicted <= referenceMicros * (1 + VETO_MARGIN_PERCENT / 100)) {
      return null;
    }
    return Estimate.of(bestMs * predicted / referenceMicros);
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    for (int k = 0; k < batch.size(); k++) {
      Measurement m = results.get(k);
      observe(batch.get(k).deviceOf(), m.ok() ? m.latencyMillis() : null, m.ok() ? halfWidth(m) : null);
    }
    // A batch comes from one phase: the planner's while it still proposes, then the learned strategy's.
    if (inPlannerPhase()) {
      planner.tell(batch, results);
    } else if (pendingBatch != null) {
      int next = 0;
      for (int k = 0; k < pendingResults.length; k++) {
        if (pendingResults[k] == null) {
          pendingResults[k] = results.get(next++);
        }
      }
      learned().tell(pendingBatch, Arrays.asList(pendingResults));
      pendingBatch = null;
      pendingResults = null;
    } else {
      learned().tell(batch, results);
    }
  }

  /** The relative half-width of {@code m}'s 95 % interval; null when it has none. */
  private static Double halfWidth(Measurement m) {
    double w = (m.ciHighMillis() - m.ciLowMillis()) / 2 / m.latencyMillis();
    return Double.isFinite(w) && w >= 0 ? w : null;
  }

  private void observe(int[] deviceOf, Double ms, Double halfWidth) {
    if (!warm) {
      return;
    }
    Placement p = new Placement(devices, deviceOf);
    observed.add(new Observed(Arrays.stream(deviceOf).boxed().toList(), ms, halfWidth));
    measured.putIfAbsent(p, ms);
    if (ms != null) {
      correction.observe(p, ms);
      splitStop.observe(p, ms, halfWidth == null ? Double.NaN : halfWidth);
      bestMs = Math.min(bestMs, ms);
      corrected = null;
    }
  }

  @Override
  public boolean finished() {
    return splitsCannotPay() || (!inPlannerPhase() && (learned().finished() || (warm && idleTooLong())));
  }

  /**
   * Whether the corrected cost model shows no split can pay more than its own error or the
   * measurements' noise ({@link SplitStop}), in a run that may stop early. Asked in the planner's phase too: on a machine where one device wins every op
   * the planner would otherwise measure moves around it until its patience ran out (real resnet50
   * on CPU + CPU2: 20-29 search measurements where the bound holds after 7-11).
   */
  private boolean splitsCannotPay() {
    return warm && stopsEarly && splitStop.reason() != null;
  }

  @Override
  public String finishedReason() {
    if (splitsCannotPay()) {
      return splitStop.reason();
    }
    return warm && idleTooLong() ? "the last " + idle + " proposals were measured before or predicted by the corrected "
        + "cost model to be more than " + VETO_MARGIN_PERCENT + " % slower than the best (" + vetoed + " vetoed in all)"
        : "";
  }

  /** The learned strategy's favourites; none when it never started (nothing was measured for it). */
  @Override
  public List<Placement> favourites(int k) {
    return learnedStarted ? then.favourites(k) : List.of();
  }

  /**
   * The planner phase's batches (it is rebuilt by replaying them), the veto's state and the learned
   * strategy's own state, or a marker that it has not started.
   */
  @Override
  public void saveState(Path dir) throws IOException {
    Files.createDirectories(dir);
    AtomicFiles.writeBytes(dir.resolve(PLANNER_FILE), JSON.writeValueAsBytes(warm ? planner.history() : List.of()));
    AtomicFiles.writeBytes(dir.resolve(VETO_FILE), JSON.writeValueAsBytes(new VetoState(observed, idle, vetoed)));
    if (!learnedStarted) {
      AtomicFiles.writeBytes(dir.resolve(LEARNED_NOT_STARTED_FILE), new byte[0]);
    } else if (then instanceof Checkpointable c) {
      c.saveState(dir);
    }
  }

  @Override
  public void restoreState(Path dir) throws IOException {
    if (!(then instanceof Checkpointable c)) {
      throw new IOException(then.name() + " keeps no checkpoint");
    }
    List<PlannerStrategy.Told> told = JSON.readValue(Files.readAllBytes(dir.resolve(PLANNER_FILE)),
        new TypeReference<List<PlannerStrategy.Told>>() {});
    Path vetoFile = dir.resolve(VETO_FILE);
    if (warm && !Files.isRegularFile(vetoFile)) {
      throw new IOException(
          vetoFile + " is missing: a checkpoint from before the veto, the log replays the run instead");
    }
    if (warm) {
      try {
        planner.replay(told);
      } catch (IllegalStateException e) {
        throw new IOException(e.getMessage(), e);
      }
      VetoState v = JSON.readValue(Files.readAllBytes(vetoFile), VetoState.class);
      for (Observed o : v.observed()) {
        observe(o.placement().stream().mapToInt(Integer::intValue).toArray(), o.ms(), o.halfWidth());
      }
      idle = v.idle();
      vetoed = v.vetoed();
    }
    // A learned strategy that had not started has its initial state: it starts after the planner, as it would have.
    if (!(warm && Files.isRegularFile(dir.resolve(LEARNED_NOT_STARTED_FILE)))) {
      learned();
      c.restoreState(dir);
    }
  }

  @Override
  public void close() throws Exception {
    if (then instanceof AutoCloseable c) {
      c.close();
    }
  }
}
