package org.hsdag.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.backend.BatchMeasurement;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.LatencyModel;
import org.hsdag.placement.Placement;
import org.hsdag.random.SplitMix64;

/**
 * The one search core behind {@code tune}, {@code bench} and {@code apply}: it measures placements of
 * one graph on one backend and device set, drives a {@link SearchStrategy} by batch ask–tell under
 * {@link SearchLimits}, and re-measures finalists in interleaved rounds to pick a winner.
 *
 * <ul>
 *   <li>Measuring: a placement with an op on a device that cannot run it fails here with a precise
 *       reason, before the backend; a backend exception becomes a failed measurement. Backends with
 *       {@link KeyedMeasurement} get a key naming what is measured — run seed, placement content,
 *       round — so a result never depends on call order (equal in a resumed run, equal whichever
 *       other methods shared the backend).
 *   <li>Cache: keyed by the whole placement; a placement proposed again is answered with its first
 *       measurement and costs no budget. The budget counts distinct placements measured.
 *   <li>Stop rules ({@link StopReason}): checked before every proposal, so they fire at the same
 *       proposal however a strategy batches.
 * </ul>
 *
 * <p>Not thread-safe, except {@link #requestStop()}.
 */
public final class SearchEngine {
  private final LatencyBackend backend;
  private final OpGraph graph;
  private final DeviceSet devices;
  private final SupportMatrix support;
  private final MeasurementProtocol protocol;
  private final long seed;
  private final DoubleSupplier elapsedSeconds;
  private final Optional<KeyedMeasurement> keyed;
  private final Optional<BatchMeasurement> batched;
  private final LatencyModel proxy;
  private final Map<Placement, Measurement> cache = new HashMap<>();
  private final MemoryCheck memory;
  private final LearnedRefusals learned;
  private volatile boolean stopRequested;

  SearchEngine(SearchEngineBuilder b) {
    backend = b.backend;
    graph = b.graph;
    devices = b.devices;
    protocol = b.protocol;
    seed = b.seed;
    support = backend.supports(graph, devices);
    keyed = backend.capability(KeyedMeasurement.class);
    batched = keyed.isPresent() ? backend.capability(BatchMeasurement.class) : Optional.empty();
    proxy = b.proxy;
    memory = b.memory != null ? b.memory : proxy == null ? null : proxy.memory().orElse(null);
    learned = new LearnedRefusals(graph);
    long start = System.nanoTime();
    elapsedSeconds = b.clock != null ? b.clock : () -> (System.nanoTime() - start) / 1e9;
  }

  /** An engine measuring {@code graph} on {@code devices} of {@code backend}. */
  public static SearchEngineBuilder builder(LatencyBackend backend, OpGraph graph, DeviceSet devices) {
    return new SearchEngineBuilder(backend, graph, devices);
  }

  public OpGraph graph() {
    return graph;
  }

  public DeviceSet devices() {
    return devices;
  }

  /** Which devices can run each node (asked of the backend once). */
  public SupportMatrix support() {
    return support;
  }

  public MeasurementProtocol protocol() {
    return protocol;
  }

  /** Asks a running search or re-measurement to stop after the current measurement (Ctrl-C). */
  public void requestStop() {
    stopRequested = true;
  }

  public boolean stopRequested() {
    return stopRequested;
  }

  /** The context a strategy gets for a search of {@code budget} measurements that may stop early. */
  public SearchContext context(int budget, long strategySeed) {
    return context(SearchLimits.of(budget).withPatience(1), strategySeed);
  }

  /** The context a strategy gets for a search under {@code limits} (it may stop early when they have a patience). */
  public SearchContext context(SearchLimits limits, long strategySeed) {
    return SearchContext.builder(graph, devices, support).budget(limits.budget()).seed(strategySeed).protocol(protocol)
        .backendName(backend.name()).deviceKinds(DeviceKinds.of(backend, devices)).proxy(proxy).memory(memory)
        .stopsEarly(limits.patience() > 0).build();
  }

  /**
   * Measures {@code p} as measurement {@code round} of it (0 its first, r + 1 final round r). Never
   * throws for a placement that cannot run; does not touch the cache.
   */
  public Measurement measure(Placement p, int round) {
    requireFits(p, "measure");
    Measurement unsupported = unsupported(p);
    if (unsupported != null) {
      return unsupported;
    }
    Measurement refused = refused(p);
    if (refused != null) {
      return refused;
    }
    Optional<String> oom = memory == null ? Optional.empty() : memory.violation(p);
    if (oom.isPresent()) {
      // The memory model refuses it: no run is spent on a placement that cannot fit.
      return Measurement.failed(MemoryCheck.REJECTED + oom.get(), backend.name(), backend.profile());
    }
    Measurement m;
    try {
      m = keyed.isPresent() ? keyed.get().measure(graph, p, protocol, noiseKey(seed, p, round))
          : backend.measure(graph, p, protocol);
    } catch (RuntimeException e) {
      // A backend bug must not end hours of search; it is recorded like any other failure.
      m = Measurement.failed("backend error: " + e, backend.name(), backend.profile());
    }
    learned.learn(p, m);
    return m;
  }

  /** The splits HETERO refused during this run beyond those predicted, in the order learned. */
  public List<LearnedRefusals.Learned> learnedRefusals() {
    return learned.learned();
  }

  /** The failed measurement of a placement with an op on a device that cannot run it, or null when it fits. */
  private Measurement unsupported(Placement p) {
    for (int v = 0; v < p.size(); v++) {
      if (!support.allowed(v, p.deviceOf(v))) {
        OpNode node = graph.node(v);
        return Measurement.failed("op '" + node.name() + "' (" + node.type() + ") cannot run on " + p.deviceName(v),
            backend.name(), backend.profile());
      }
    }
    return null;
  }

  /** A split HETERO refuses (docs/hetero-rules.md) or refused earlier in this run, answered without a run; else null. */
  private Measurement refused(Placement p) {
    String earlier = learned.refusal(p);
    if (earlier != null) {
      return Measurement.failed(earlier, backend.name(), backend.profile());
    }
    if (proxy == null) {
      return null;
    }
    return proxy.predictedRefusal(p)
        .map(reason -> Measurement.failed(reason + " (predicted, not run)", backend.name(), backend.profile()))
        .orElse(null);
  }

  /**
   * Measures round {@code round} of {@code placements} at once when the backend offers {@link
   * BatchMeasurement} (a fleet of workers), else nothing: the caller then measures one by one. Each
   * result equals what {@link #measure} would give, since each carries its own noise key.
   */
  Map<Placement, Measurement> prefetch(List<Placement> placements, int round) {
    Map<Placement, Measurement> out = new HashMap<>();
    if (batched.isEmpty()) {
      return out;
    }
    List<BatchMeasurement.Task> tasks = new ArrayList<>();
    for (Placement p : placements) {
      requireFits(p, "measure");
      if (out.containsKey(p) || tasks.stream().anyMatch(t -> t.placement().equals(p))) {
        continue;
      }
      Measurement unsupported = unsupported(p);
      Measurement refused = unsupported == null ? refused(p) : null;
      if (unsupported != null || refused != null) {
        out.put(p, unsupported != null ? unsupported : refused);
      } else {
        tasks.add(new BatchMeasurement.Task(p, noiseKey(seed, p, round)));
      }
    }
    if (tasks.size() < 2) {
      return out;
    }
    List<Measurement> results = batched.get().measureAll(graph, tasks, protocol);
    for (int i = 0; i < tasks.size(); i++) {
      out.put(tasks.get(i).placement(), results.get(i));
      learned.learn(tasks.get(i).placement(), results.get(i));
    }
    return out;
  }

  /** Remembers {@code m} as the measurement of {@code p} (baselines measured before the search): free later. */
  public void remember(Placement p, Measurement m) {
    cache.putIfAbsent(p, m);
  }

  /** Initialises {@code strategy} for {@code limits} with {@code strategySeed} and runs a new search. */
  public SearchOutcome run(SearchStrategy strategy, SearchLimits limits, long strategySeed, SearchListener listener)
      throws IOException {
    strategy.init(context(limits, strategySeed));
    return search(strategy, limits, Replay.NONE, listener);
  }

  /**
   * Drives the initialised {@code strategy} until a stop rule fires.
   *
   * @param replay logged steps of a resumed run (its strategy restored to {@code replay.strategyAt()})
   * @throws ResumeMismatchException when the strategy does not propose what the log holds
   * @throws IOException from the listener
   */
  public SearchOutcome search(SearchStrategy strategy, SearchLimits limits, Replay replay, SearchListener listener)
      throws IOException {
    Run run = new Run(strategy, limits, replay, listener);
    return run.go();
  }

  /** The mutable state of one search. */
  private final class Run {
    private final SearchStrategy strategy;
    private final SearchLimits limits;
    private final Replay replay;
    private final SearchListener listener;
    private final List<SearchStep> steps = new ArrayList<>();
    private int measurements;
    private int cacheHits;
    private int failures;
    // Distinct measurements since the best last improved meaningfully (the patience counter).
    private int sinceImprovement;
    private int consecutiveFailures;
    private double bestMillis = Double.NaN;
    private String lastFailure;

    Run(SearchStrategy strategy, SearchLimits limits, Replay replay, SearchListener listener) {
      this.strategy = strategy;
      this.limits = limits;
      this.replay = replay;
      this.listener = listener == null ? SearchListener.NONE : listener;
    }

    SearchOutcome go() throws IOException {
      for (int i = 0; i < replay.strategyAt(); i++) {
        SearchStep logged = replay.logged().get(i);
        requireFits(logged.placement(), "the log");
        learned.learn(logged.placement(), logged.measurement());
        listener.step(record(logged.placement(), logged.measurement(), logged.cached()), progress(), true);
      }
      while (true) {
        StopReason stop = beforeAsk();
        if (stop != null) {
          return outcome(stop, true);
        }
        int remaining = limits.budget() - measurements;
        List<Placement> batch = List.copyOf(strategy.ask(remaining));
        if (batch.isEmpty()) {
          return outcome(StopReason.STRATEGY_FINISHED, true);
        }
        if (batch.size() > remaining) {
          throw new IllegalStateException("strategy " + strategy.name() + " proposed " + batch.size()
              + " placements, more than the limit of " + remaining);
        }
        List<Measurement> results = new ArrayList<>(batch.size());
        // Measured together (on a fleet: in parallel), then taken in proposal order as if one by one;
        // what a stop rule cuts off mid-batch is dropped, never counted.
        Map<Placement, Measurement> ahead = prefetch(fresh(batch), 0);
        for (int j = 0; j < batch.size(); j++) {
          Placement p = batch.get(j);
          requireFits(p, "strategy " + strategy.name());
          if (j > 0) {
            stop = beforeProposal();
            if (stop != null) {
              return outcome(stop, false);
            }
          }
          int index = steps.size();
          Measurement m = cache.get(p);
          boolean cached = m != null;
          boolean replayed = index < replay.logged().size();
          if (replayed) {
            SearchStep logged = replay.logged().get(index);
            if (!logged.placement().equals(p)) {
              throw new ResumeMismatchException("on resume the strategy proposed " + p.hashHex() + " at step " + index
                  + " but the log has " + logged.placement().hashHex()
                  + "; the strategy or its options changed, start a new run");
            }
            if (!cached && logged.cached()) {
              throw new ResumeMismatchException("the log marks step " + index
                  + " as answered from the cache, but its placement was never measured before");
            }
            m = cached ? m : logged.measurement();
            learned.learn(p, m);
          } else if (!cached && ahead.containsKey(p)) {
            m = ahead.get(p);
          } else if (!cached) {
            listener.measuring(index, p); // before the backend runs it: a process that dies in it is known
            m = measure(p, 0);
          }
          SearchStep step = record(p, m, cached);
          results.add(m);
          listener.step(step, progress(), replayed);
          if (!cached && consecutiveFailures >= limits.maxConsecutiveFailures()) {
            return outcome(StopReason.GAVE_UP, false);
          }
        }
        strategy.tell(batch, results);
        listener.told(progress());
      }
    }

    /** The placements of {@code batch} that neither the cache nor the replayed log answers. */
    private List<Placement> fresh(List<Placement> batch) {
      List<Placement> out = new ArrayList<>();
      for (int j = 0; j < batch.size(); j++) {
        if (steps.size() + j >= replay.logged().size() && !cache.containsKey(batch.get(j))) {
          out.add(batch.get(j));
        }
      }
      return out;
    }

    private boolean replaying() {
      return steps.size() < replay.logged().size();
    }

    private StopReason beforeAsk() {
      if (stopRequested) {
        return StopReason.INTERRUPTED;
      }
      if (measurements >= limits.budget()) {
        return StopReason.BUDGET_SPENT;
      }
      StopReason s = beforeProposal();
      if (s != null) {
        return s;
      }
      return strategy.finished() ? StopReason.STRATEGY_FINISHED : null;
    }

    private StopReason beforeProposal() {
      if (stopRequested) {
        return StopReason.INTERRUPTED;
      }
      // Logged steps happened within the time limit of their own session.
      if (limits.timeLimitSeconds() > 0 && !replaying() && elapsedSeconds.getAsDouble() >= limits.timeLimitSeconds()) {
        return StopReason.TIME_LIMIT;
      }
      if (steps.size() >= limits.maxProposals()) {
        return StopReason.TOO_MANY_PROPOSALS;
      }
      if (limits.patience() > 0 && sinceImprovement >= limits.patience()) {
        return StopReason.CONVERGED;
      }
      return null;
    }

    private SearchStep record(Placement p, Measurement m, boolean cached) {
      SearchStep step = new SearchStep(steps.size(), p, m, cached);
      steps.add(step);
      cache.putIfAbsent(p, m);
      if (!step.spentMeasurement()) {
        // A cached answer or a memory-model refusal spends no measurement.
        cacheHits += cached ? 1 : 0;
      } else {
        measurements++;
        boolean meaningful = m.ok() && (Double.isNaN(bestMillis)
            || m.latencyMillis() < bestMillis * (1 - SearchLimits.MEANINGFUL_IMPROVEMENT_PERCENT / 100));
        sinceImprovement = meaningful ? 0 : sinceImprovement + 1;
        if (m.ok()) {
          consecutiveFailures = 0;
        } else {
          failures++;
          consecutiveFailures++;
          lastFailure = m.reason();
        }
      }
      if (m.ok() && !(m.latencyMillis() >= bestMillis)) {
        bestMillis = m.latencyMillis();
      }
      return step;
    }

    private SearchProgress progress() {
      return new SearchProgress(steps.size(), measurements, cacheHits, failures, bestMillis);
    }

    private SearchOutcome outcome(StopReason stop, boolean atBatchBoundary) {
      String text = switch (stop) {
        case BUDGET_SPENT -> "budget of " + limits.budget() + " measurements spent";
        case TIME_LIMIT -> "time limit of " + limits.timeLimitSeconds() + " s reached";
        case STRATEGY_FINISHED -> strategy.finishedReason().isEmpty() ? "strategy finished"
            : "strategy finished: " + strategy.finishedReason();
        case CONVERGED -> "converged: the last " + sinceImprovement + " measurements brought no improvement of "
            + SearchLimits.MEANINGFUL_IMPROVEMENT_PERCENT + " % or more";
        case TOO_MANY_PROPOSALS -> "stopped after " + steps.size()
            + " proposals (the strategy keeps proposing measured placements)";
        case GAVE_UP ->
          "gave up after " + consecutiveFailures + " failed measurements in a row (last: " + lastFailure + ")";
        case INTERRUPTED -> "interrupted";
      };
      return new SearchOutcome(stop, text, steps, measurements, cacheHits, failures, atBatchBoundary);
    }
  }

  /** Names a final-round measurement of a placement (for measurements logged by an earlier session). */
  public record RoundKey(int round, Placement placement) {}

  /**
   * Re-measures {@code finalists} in {@code rounds} rounds, each measuring every finalist once in a
   * freshly shuffled order (drift — thermal, clocks, background load — hits all alike), and picks the
   * winner by the {@link Verdict} rule. With at least {@value #MIN_ROUNDS_TO_RACE} rounds, up to
   * {@code rounds} more follow for the finalists whose interval still overlaps the leader's, until
   * one is clear ({@link FinalRounds#contenders}). A finalist's latency is the median of its round latencies,
   * with the 95% interval of that median; a failure ends its rounds. With 0 rounds the first
   * measurements decide.
   *
   * @param orderSeed seeds the shuffles
   * @param prior final measurements logged by an earlier session of the run, reused as they are
   */
  public FinalResult remeasure(List<Finalist> finalists, int rounds, long orderSeed, Map<RoundKey, Measurement> prior,
      RemeasureListener listener) throws IOException {
    return remeasure(finalists, rounds, orderSeed, prior, listener, null);
  }

  /**
   * {@link #remeasure(List, int, long, Map, RemeasureListener)}, with finalists within noise of the
   * fastest weighed with {@code predicted} ({@link Verdict#of(List, Prediction)}; null: by medians alone).
   */
  public FinalResult remeasure(List<Finalist> finalists, int rounds, long orderSeed, Map<RoundKey, Measurement> prior,
      RemeasureListener listener, Prediction predicted) throws IOException {
    return new FinalRounds(this, finalists, prior, listener).run(rounds, orderSeed, predicted);
  }

  /** Below this many rounds an interval of the median is the sample range: too wide to race on. */
  static final int MIN_ROUNDS_TO_RACE = 3;

  /** The most rounds a finalist gets when {@code rounds} are asked for: twice as many for a near tie. */
  public static int maxFinalRounds(int rounds) {
    return rounds >= MIN_ROUNDS_TO_RACE ? 2 * rounds : rounds;
  }

  /** What near ties get beyond {@code rounds}, in words to append to "N rounds", or "" when they get nothing more. */
  public static String racedRoundsNote(int rounds) {
    int max = maxFinalRounds(rounds);
    return max > rounds ? " (up to " + max + " for those still within noise of the fastest)" : "";
  }

  private void requireFits(Placement p, String who) {
    if (p.size() != graph.nodeCount() || !p.devices().equals(devices)) {
      throw new IllegalStateException(who + " has a placement of " + p.size() + " nodes on " + p.devices()
          + " for a model of " + graph.nodeCount() + " nodes on " + devices);
    }
  }

  /** The median, NaN for none. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }

  /** The noise key of measurement {@code round} of {@code p} in a run with {@code seed}: what is measured, never when. */
  static long noiseKey(long seed, Placement p, int round) {
    return SplitMix64.next(SplitMix64.next(seed ^ p.hash64()) + round);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "SearchEngine[%s on %s, %s/%s]", graph, devices, backend.name(),
        backend.profile());
  }
}
