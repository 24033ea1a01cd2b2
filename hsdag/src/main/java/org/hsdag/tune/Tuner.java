package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.backend.DeviceTimeBreakdown;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.OpCoverage;
import org.hsdag.backend.Measurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementDot;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.search.Candidate;
import org.hsdag.search.Checkpointable;
import org.hsdag.search.Decision;
import org.hsdag.search.FinalResult;
import org.hsdag.search.Finalist;
import org.hsdag.search.FinalistChoice;
import org.hsdag.search.Replay;
import org.hsdag.search.ResumeMismatchException;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchProgress;
import org.hsdag.search.SearchStep;
import org.hsdag.search.SearchStrategy;
import org.hsdag.search.StopReason;
import org.hsdag.search.Verdict;

/**
 * Runs one placement search in a run directory on the {@link SearchEngine}: what belongs to the
 * run folder is here — the append-only log, periodic strategy checkpoints, the single-device
 * baselines measured first, resume, and {@code best.json} / {@code placement.dot} / {@code
 * result.json} at the end; measuring, the search loop, the stop rules and the final interleaved
 * re-measurement are the engine's.
 *
 * <p>Resume: the latest checkpoint is restored (strategies that are {@link Checkpointable}), the
 * engine replays the logged steps after it (the strategy proposes again, the proposal must equal
 * the logged placement, and the logged measurement is fed back), and the search continues. The
 * result equals that of an uninterrupted run with the same seed. Logged baseline and final
 * measurements are reused, never repeated.
 */
public final class Tuner {
  public static final String LOG_FILE = "log.jsonl";
  public static final String BEST_FILE = "best.json";
  public static final String DOT_FILE = "placement.dot";
  public static final String RESULT_FILE = "result.json";

  private final LatencyBackend backend;
  private final OpGraph graph;
  private final TuneConfig config;
  private final SearchStrategy strategy;
  private final Path runDir;
  private final TuneListener listener;
  private final DeviceSet devices;
  private final PlacementProxy proxy;
  /** The device capacities no measured placement may exceed, or null (the proxy's then, if any). */
  private final MemoryCheck memory;
  private volatile boolean stopRequested;
  private volatile SearchEngine engine;

  private final List<Finalist> baselines = new ArrayList<>();
  private RunLog log;
  private RunClock clock;
  /** Search placements measured successfully: the finalists the final race will have, up to the top K. */
  private int searchCandidates;
  private double bestMs = Double.NaN;
  private double lastMs = Double.NaN;
  private double referenceMs = Double.NaN;
  /** The device speedups are stated against, by {@link DeviceKind#reference}. */
  private final String referenceDevice;
  private int lastCheckpoint;

  /** A tuner for {@code job}; {@link #run} runs it. */
  public Tuner(TuneJob job) {
    this.backend = job.backend();
    this.graph = job.graph();
    this.config = job.config();
    this.strategy = job.strategy();
    this.runDir = job.runDir();
    this.listener = job.listener();
    this.proxy = job.proxy();
    this.memory = job.memory();
    this.devices = config.devices();
    this.referenceDevice = DeviceKind.reference(devices, DeviceKinds.of(backend, devices));
  }

  /**
   * Times the run on {@code c} (by default the system clock from {@link #run}): started when the command
   * started, so that the cost-model build counts against {@code --time}.
   */
  public Tuner clock(RunClock c) {
    clock = c;
    return this;
  }

  /** Asks a running search to stop after the current measurement (Ctrl-C); the run stays resumable. */
  public void requestStop() {
    stopRequested = true;
    SearchEngine e = engine;
    if (e != null) {
      e.requestStop();
    }
  }

  /**
   * Runs (or with {@code resume} continues) the search in the run directory.
   *
   * @throws ResumeMismatchException when the strategy does not reproduce the logged history
   */
  public TuneResult run(boolean resume) throws IOException {
    try (RunFolder folder = RunFolder.lock(runDir)) {
      return run(folder, resume);
    }
  }

  /**
   * {@link #run(boolean)} in a folder this process already holds (the command took the lock before
   * writing the manifest).
   */
  public TuneResult run(RunFolder folder, boolean resume) throws IOException {
    if (!folder.dir().equals(runDir)) {
      throw new IllegalArgumentException("holding " + folder.dir() + " but this run's folder is " + runDir);
    }
    return runLocked(resume);
  }

  private TuneResult runLocked(boolean resume) throws IOException {
    Path logFile = runDir.resolve(LOG_FILE);
    RunLog.Contents prior = resume ? RunLog.read(logFile) : new RunLog.Contents(List.of(), 0, 0);
    if (!resume && Files.exists(logFile) && Files.size(logFile) > 0) {
      throw new IllegalStateException(runDir + " already holds a run log");
    }
    Map<String, LogRecord> priorBaselines = new HashMap<>();
    List<SearchStep> priorSearch = new ArrayList<>();
    Map<SearchEngine.RoundKey, Measurement> priorFinal = new HashMap<>();
    int headers = 0;
    clock = clock != null ? clock : RunClock.startingNow();
    for (LogRecord r : prior.records()) {
      if (r.elapsedS() != null) {
        clock.continueAfter(r.elapsedS());
      }
      if (LogRecord.HEADER.equals(r.type())) {
        headers++;
      }
      if (!r.hasMeasurement()) {
        continue;
      }
      switch (r.phase()) {
        case LogRecord.PHASE_BASELINE -> priorBaselines.putIfAbsent(r.candidate(), r);
        case LogRecord.PHASE_SEARCH -> {
          if (r.step() == null || r.step() != priorSearch.size()) {
            throw new IOException(
                logFile + ": search step " + r.step() + " out of order (expected " + priorSearch.size() + ")");
          }
          Placement p = r.toPlacement(devices);
          if (p.size() != graph.nodeCount()) {
            throw new ResumeMismatchException("the log's step " + r.step() + " places " + p.size()
                + " nodes but the model has " + graph.nodeCount());
          }
          priorSearch.add(new SearchStep(r.step(), p, r.toMeasurement(), Boolean.TRUE.equals(r.cached())));
        }
        case LogRecord.PHASE_FINAL -> priorFinal.putIfAbsent(
            new SearchEngine.RoundKey(r.round(), r.toPlacement(devices)), r.toMeasurement());
        default -> {
        }
      }
    }
    SplittableRandom master = new SplittableRandom(config.seed());
    long strategySeed = master.split().nextLong();
    long finalSeed = master.split().nextLong();
    engine = SearchEngine.builder(backend, graph, devices).protocol(config.protocol()).seed(config.seed())
        .clock(this::searchClock).proxy(proxy).memory(memory).build();
    if (stopRequested) {
      engine.requestStop();
    }
    Map<Integer, Placement> unfinished = UnfinishedMeasurements.of(prior.records(), devices);
    unfinished.values().forEach(p -> engine.remember(p,
        Measurement.failed(UnfinishedMeasurements.REASON, backend.name(), backend.profile())));
    if (!unfinished.isEmpty()) {
      listener.note("sessions ended twice while measuring " + UnfinishedMeasurements.describe(unfinished)
          + ": recorded as failed, never measured again");
    }
    Map<Integer, Placement> endedOnce = UnfinishedMeasurements.once(prior.records(), devices);
    if (!endedOnce.isEmpty()) {
      listener.note("the previous session ended while measuring " + UnfinishedMeasurements.describe(endedOnce)
          + ": measured once more (a second end there fails it for good)");
    }

    try (RunLog opened = RunLog.openForAppend(logFile, prior.validBytes())) {
      log = opened;
      long sessionStart = opened.size();
      try {
        return session(resume, new History(prior, headers, priorBaselines, priorSearch, priorFinal), strategySeed,
            finalSeed);
      } catch (ResumeMismatchException e) {
        opened.cutBackTo(sessionStart);
        throw e;
      }
    } finally {
      log = null;
    }
  }

  /**
   * What the log holds from earlier sessions.
   *
   * @param log the log as read
   * @param sessions session headers in it
   * @param baselines logged baseline measurements by label
   * @param search logged search steps in order
   * @param finals logged final-round measurements
   */
  private record History(RunLog.Contents log, int sessions, Map<String, LogRecord> baselines, List<SearchStep> search,
      Map<SearchEngine.RoundKey, Measurement> finals) {}

  /** One session on the open log: header, baselines, search (replaying the logged steps first), final rounds. */
  private TuneResult session(boolean resume, History history, long strategySeed, long finalSeed) throws IOException {
    RunLog.Contents prior = history.log();
    List<SearchStep> priorSearch = history.search();
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("session", history.sessions() + 1);
    info.put("resumed", resume && !prior.records().isEmpty());
    info.put("prior_search_steps", priorSearch.size());
    info.put("torn_bytes_dropped", prior.tornBytes());
    info.put("strategy", strategy.name());
    info.put("seed", config.seed());
    info.put("budget", config.budget());
    info.put("devices", config.devices().names());
    info.put("backend", backend.name());
    info.put("profile", backend.profile());
    info.put("simulated", backend.simulated());
    log.append(LogRecord.header(now(), elapsed(), info));
    if (prior.tornBytes() > 0) {
      listener.note("dropped a torn last log line (" + prior.tornBytes() + " bytes) left by the interrupted run");
    }

    clock.setupDone();
    runBaselines(history.baselines());
    clock.baselinesDone();
    strategy.init(engine.context(config.limits(), strategySeed));
    lastCheckpoint = restore(priorSearch.size(), strategySeed);
    if (!priorSearch.isEmpty()) {
      listener.note("resumed after " + priorSearch.size() + " logged steps ("
          + (lastCheckpoint > 0
              ? "checkpoint at step " + lastCheckpoint + ", replayed " + (priorSearch.size() - lastCheckpoint)
              : "replayed all")
          + "); " + resumePromise(backend.simulated()));
    }
    int priorMeasurements = (int) priorSearch.stream().filter(s -> !s.cached()).count();
    // The progress line's "best" starts from what earlier sessions found, not from the baselines alone.
    for (SearchStep s : priorSearch) {
      if (s.measurement().ok()) {
        bestMs = Double.isNaN(bestMs) ? s.measurement().latencyMillis()
            : Math.min(bestMs, s.measurement().latencyMillis());
      }
    }
    listener.searchStarted(progress(new SearchProgress(priorSearch.size(), priorMeasurements, 0, 0, Double.NaN)));

    SearchOutcome outcome = engine.search(strategy, config.limits(), new Replay(priorSearch, lastCheckpoint),
        searchListener());
    clock.searchDone();
    if (outcome.atBatchBoundary() && outcome.steps().size() > lastCheckpoint) {
      checkpoint(outcome.steps().size());
    }
    if (outcome.stop() == StopReason.INTERRUPTED) {
      return finish(RunStatus.INTERRUPTED, outcome, "interrupted", null);
    }
    if (outcome.stop().failed()) {
      return finish(RunStatus.FAILED, outcome, outcome.stopText(), null);
    }
    List<Finalist> finalists = new ArrayList<>(baselines);
    Set<Placement> exclude = new HashSet<>();
    baselines.forEach(b -> exclude.add(b.placement()));
    for (SearchStep s : FinalistChoice.choose(outcome, config.topK(), exclude, proxy,
        strategy.favourites(config.topK()))) {
      finalists.add(new Finalist("step " + s.index(), false, s.placement(), s.index(), s.measurement()));
    }
    // Near ties in the race go to the cost model corrected by the run's measurements (Verdict).
    FinalResult fin = engine.remeasure(finalists, config.finalRounds(), finalSeed, history.finals(),
        new FinalRaceListener(log, listener, clock, config),
        proxy == null ? null : FinalistChoice.prediction(outcome, proxy));
    if (fin.interrupted()) {
      return finish(RunStatus.INTERRUPTED, outcome, "interrupted during the final re-measurement", null);
    }
    Candidate best = fin.verdict().winner();
    if (best != null) {
      PlacementFiles.write(runDir.resolve(BEST_FILE), graph, best.placement());
      PlacementDot.write(runDir.resolve(DOT_FILE), graph, best.placement(), backend.name(), backend.profile());
    }
    return finish(RunStatus.COMPLETED, outcome, outcome.stopText(), fin);
  }

  private void runBaselines(Map<String, LogRecord> prior) throws IOException {
    for (String device : devices.names()) {
      String label = Finalist.baselineLabel(device);
      Placement p = Placement.allOn(devices, graph.nodeCount(), device);
      LogRecord old = prior.get(label);
      Measurement m;
      if (old != null && old.assignment() != null && old.assignment().equals(LogRecord.encode(p))) {
        m = old.toMeasurement();
      } else {
        clock.measuring();
        m = engine.measure(p, 0);
        clock.measured(m.ok());
        log.append(LogRecord.measurement(now(), elapsed(), null, LogRecord.PHASE_BASELINE, null, label, p, m, false,
            config.protocol().describe(), Double.NaN)
            .withPredictedMs(proxy == null ? Double.NaN : proxy.predictMillis(p)));
      }
      engine.remember(p, m);
      baselines.add(new Finalist(label, true, p, -1, m));
      if (m.ok()) {
        bestMs = Double.isNaN(bestMs) ? m.latencyMillis() : Math.min(bestMs, m.latencyMillis());
        if (device.equals(referenceDevice)) {
          referenceMs = m.latencyMillis();
        }
      }
    }
  }

  /** Restores the latest checkpoint that fits; returns the step it was taken at (0: none, replay everything). */
  private int restore(int loggedSteps, long strategySeed) throws IOException {
    if (loggedSteps == 0 || !(strategy instanceof Checkpointable state)) {
      return 0;
    }
    Optional<Checkpoints.Checkpoint> ck;
    try {
      ck = Checkpoints.latest(runDir);
    } catch (DamagedRunFileException e) {
      // Checkpoints only save time: the log alone rebuilds the state.
      listener.note(e.getMessage() + "; the checkpoint is unusable, replaying the whole log instead");
      return 0;
    }
    if (ck.isEmpty() || ck.get().step() > loggedSteps || !ck.get().strategy().equals(strategy.name())) {
      return 0;
    }
    try {
      state.restoreState(ck.get().dir());
      return ck.get().step();
    } catch (IOException | RuntimeException e) {
      // A checkpoint that does not fit (damaged, other options) is not fatal: replay rebuilds the state.
      listener.note("checkpoint at step " + ck.get().step() + " is unusable (" + e.getMessage()
          + "); replaying the whole log instead");
      strategy.init(engine.context(config.limits(), strategySeed));
      return 0;
    }
  }

  private void checkpoint(int steps) throws IOException {
    if (strategy instanceof Checkpointable state) {
      Checkpoints.save(runDir, steps, strategy.name(), state);
      lastCheckpoint = steps;
    }
  }

  private SearchListener searchListener() {
    return new SearchListener() {
      @Override
      public void step(SearchStep step, SearchProgress progress, boolean replayed) throws IOException {
        Measurement m = step.measurement();
        lastMs = m.ok() ? m.latencyMillis() : Double.NaN;
        searchCandidates += m.ok() && !step.cached() ? 1 : 0;
        if (m.ok()) {
          bestMs = Double.isNaN(bestMs) ? m.latencyMillis() : Math.min(bestMs, m.latencyMillis());
        }
        if (!replayed) {
          clock.measured(m.ok());
          log.append(LogRecord.measurement(now(), elapsed(), step.index(), LogRecord.PHASE_SEARCH, null, null,
              step.placement(), m, step.cached(), config.protocol().describe(), bestMs)
              .withPredictedMs(proxy == null ? Double.NaN : proxy.predictMillis(step.placement())));
          listener.searchStep(progress(progress));
        }
      }

      @Override
      public void measuring(int index, Placement placement) throws IOException {
        clock.measuring();
        log.append(LogRecord.measuring(now(), elapsed(), index, placement));
      }

      @Override
      public void told(SearchProgress progress) throws IOException {
        if (progress.steps() - lastCheckpoint >= config.checkpointEvery()) {
          checkpoint(progress.steps());
        }
      }
    };
  }

  private TuneResult finish(RunStatus status, SearchOutcome outcome, String stopText, FinalResult fin)
      throws IOException {
    Verdict verdict = fin == null ? new Verdict(Decision.NOTHING_RAN, null, "") : fin.verdict();
    List<Candidate> cands = fin == null ? provisionalCandidates() : fin.candidates();
    Candidate best = verdict.winner();
    TuneResult result = new TuneResult(status, outcome.stop(), stopText, outcome.steps().size(), outcome.measurements(),
        outcome.cacheHits(), outcome.failures(), elapsed(), cands, best, verdict.decision(), verdict.text(),
        backend.name(), backend.profile(), backend.simulated(), referenceDevice,
        clock.spent(config.timeLimitSeconds()));
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("stop_reason", stopText);
    info.put("decision", verdict.text());
    info.put("steps", result.steps());
    info.put("measurements", result.measurements());
    info.put("cache_hits", result.cacheHits());
    info.put("failures", result.failures());
    if (best != null) {
      info.put("best", best.label());
      info.put("best_placement", best.placement().hashHex());
    }
    if (status == RunStatus.COMPLETED) {
      Map<String, Double> time = best == null ? Map.of() : backend.capability(DeviceTimeBreakdown.class)
          .map(b -> b.timeByDevice(graph, best.placement())).orElse(Map.of());
      RunResults.write(runDir.resolve(RESULT_FILE), result, graph, time,
          backend.capability(OpCoverage.class).map(c -> c.unknownOpTypes(graph)).orElse(Map.of()),
          memory != null && memory.limitsAny() ? memory : null, backend.capability(DeviceMemorySource.class)
              .map(DeviceMemorySource::capacitySource).orElse("--memory"),
          backend.capability(CompileCaching.class).map(CompileCaching::compileStats).orElse(null));
    }
    RunRefusals.write(runDir, engine.learnedRefusals());
    log.append(LogRecord.footer(now(), elapsed(), status.label(), best == null ? null : best.finalMs(), info));
    listener.finished(result);
    return result;
  }

  /** Baselines with their first measurements, for a run that stopped before the final re-measurement. */
  private List<Candidate> provisionalCandidates() {
    List<Candidate> out = new ArrayList<>();
    for (Finalist b : baselines) {
      Measurement m = b.first();
      double ms = m.ok() ? m.latencyMillis() : Double.NaN;
      out.add(new Candidate(b.label(), true, b.placement(), -1, ms, ms, m.ciLowMillis(), m.ciHighMillis(),
          m.ok() ? List.of(ms) : List.of(), m.samplesMillis().length, m.subModels(), m.reason()));
    }
    return out;
  }

  private TuneProgress progress(SearchProgress p) {
    return new TuneProgress(p.steps(), p.measurements(), config.budget(), lastMs, bestMs, referenceMs,
        Finalist.baselineLabel(referenceDevice), elapsed(),
        backend.name(), backend.profile(), backend.simulated(), config.timeLimitSeconds());
  }

  private double elapsed() {
    return clock.elapsed();
  }

  /** The search's clock: the time spent, plus what the final race will take, so that it still fits {@code --time}. */
  private double searchClock() {
    return elapsed() + clock.forMeasurements(config.raceMeasurements(searchCandidates));
  }

  private static String now() {
    return Instant.now().toString();
  }

  /** What a resume promises (docs/tuning.md): the simulator replays exactly, a real runtime keeps what it logged. */
  static String resumePromise(boolean simulated) {
    return simulated ? "simulated: the run continues exactly as an uninterrupted run with this seed"
        : "real runtime: the logged measurements are kept and never re-taken, the rest is measured anew"
            + " (real timings differ between runs, so the search may go elsewhere than it would have)";
  }
}
