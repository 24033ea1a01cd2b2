package org.hsdag.tune;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.hsdag.backend.ConfidenceInterval;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;

/**
 * Runs one placement search end to end in a run directory: single-device baselines, the
 * ask–tell search loop with a measurement cache, an append-only log, periodic strategy
 * checkpoints, and a final interleaved re-measurement of the best candidates and the baselines
 * that picks the winner and writes {@code best.json} and {@code placement.dot}.
 *
 * <p>Resume: the latest checkpoint is restored, then the logged steps after it are replayed (the
 * strategy proposes again, the proposal must equal the logged placement, and the logged
 * measurement is fed back), and the search continues. With a deterministic strategy and backend
 * the result equals that of an uninterrupted run with the same seed. Logged baseline and final
 * measurements are reused, never repeated.
 */
public final class Tuner {
  public static final String LOG_FILE = "log.jsonl";
  public static final String BEST_FILE = "best.json";
  public static final String DOT_FILE = "placement.dot";
  public static final String RESULT_FILE = "result.json";
  static final String LOCK_FILE = ".lock";

  /** Consecutive failed measurements after which the search gives up. */
  static final int MAX_CONSECUTIVE_FAILURES = 50;

  private final LatencyBackend backend;
  private final OpGraph graph;
  private final TuneConfig config;
  private final SearchStrategy strategy;
  private final Path runDir;
  private final TuneListener listener;
  private final DeviceSet devices;
  private volatile boolean stopRequested;
  private String decision = "";

  private final MeasurementCache cache = new MeasurementCache();
  private final List<Step> history = new ArrayList<>();
  private final List<Candidate> baselines = new ArrayList<>();
  private final Map<Placement, Measurement> baselineMeasurements = new LinkedHashMap<>();
  private RunLog log;
  private SupportMatrix support;
  private double elapsedOffset;
  private long startNanos;
  private double bestMs = Double.NaN;
  private double cpuOnlyMs = Double.NaN;
  private int measurements;
  private int failures;

  private record Step(int index, Placement placement, Measurement measurement, boolean cached) {}

  public Tuner(LatencyBackend backend, OpGraph graph, TuneConfig config, SearchStrategy strategy, Path runDir,
      TuneListener listener) {
    this.backend = backend;
    this.graph = graph;
    this.config = config;
    this.strategy = strategy;
    this.runDir = runDir;
    this.listener = listener == null ? TuneListener.NONE : listener;
    this.devices = new DeviceSet(config.devices());
  }

  /** Asks a running search to stop after the current measurement (Ctrl-C); the run stays resumable. */
  public void requestStop() {
    stopRequested = true;
  }

  /**
   * Runs (or with {@code resume} continues) the search in the run directory.
   *
   * @throws ResumeMismatchException when the strategy does not reproduce the logged history
   */
  public TuneResult run(boolean resume) throws IOException {
    Files.createDirectories(runDir);
    // One process per run folder: two writers would interleave their logs. The OS drops the lock when a process dies.
    try (FileChannel lockChannel = FileChannel.open(runDir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = tryLock(lockChannel)) {
      if (lock == null) {
        throw new RunFolderBusyException(runDir + " is in use by another running 'hsdag tune'; wait for it or stop it first");
      }
      return runLocked(resume);
    }
  }

  private static FileLock tryLock(FileChannel ch) throws IOException {
    try {
      return ch.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }

  private TuneResult runLocked(boolean resume) throws IOException {
    Path logFile = runDir.resolve(LOG_FILE);
    RunLog.Contents prior = resume ? RunLog.read(logFile) : new RunLog.Contents(List.of(), 0, 0);
    if (!resume && Files.exists(logFile) && Files.size(logFile) > 0) {
      throw new IllegalStateException(runDir + " already holds a run log");
    }
    Map<String, LogRecord> priorBaselines = new HashMap<>();
    List<LogRecord> priorSearch = new ArrayList<>();
    Map<String, LogRecord> priorFinal = new HashMap<>();
    int headers = 0;
    for (LogRecord r : prior.records()) {
      if (r.elapsedS() != null) {
        elapsedOffset = Math.max(elapsedOffset, r.elapsedS());
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
            throw new IOException(logFile + ": search step " + r.step() + " out of order (expected " + priorSearch.size() + ")");
          }
          priorSearch.add(r);
        }
        case LogRecord.PHASE_FINAL -> priorFinal.putIfAbsent(r.round() + ":" + r.placement(), r);
        default -> { }
      }
    }
    startNanos = System.nanoTime();
    SplittableRandom master = new SplittableRandom(config.seed());
    long strategySeed = master.split().nextLong();
    long finalSeed = master.split().nextLong();

    try (RunLog opened = RunLog.openForAppend(logFile, prior.validBytes())) {
      log = opened;
      Map<String, Object> info = new LinkedHashMap<>();
      info.put("session", headers + 1);
      info.put("resumed", resume && !prior.records().isEmpty());
      info.put("prior_search_steps", priorSearch.size());
      info.put("torn_bytes_dropped", prior.tornBytes());
      info.put("strategy", strategy.name());
      info.put("seed", config.seed());
      info.put("budget", config.budget());
      info.put("devices", config.devices());
      info.put("backend", backend.name());
      info.put("profile", backend.profile());
      info.put("simulated", backend.simulated());
      log.append(LogRecord.header(now(), elapsed(), info));
      if (prior.tornBytes() > 0) {
        listener.note("dropped a torn last log line (" + prior.tornBytes() + " bytes) left by the interrupted run");
      }

      support = backend.supports(graph, devices);
      runBaselines(priorBaselines);

      SearchContext context = new SearchContext(graph, devices, support, config.budget(), strategySeed,
          config.protocol(), backend.name());
      strategy.init(context);
      int lastCheckpoint = restoreAndReplay(resume, priorSearch, context);

      String stopReason = search(lastCheckpoint);
      if (stopRequested) {
        return finish(TuneResult.INTERRUPTED, "interrupted", List.of(), null);
      }
      if (stopReason.startsWith("gave up")) {
        return finish(TuneResult.FAILED, stopReason, List.of(), null);
      }
      List<Candidate> finalists = finalRemeasure(priorFinal, finalSeed);
      if (stopRequested) {
        return finish(TuneResult.INTERRUPTED, "interrupted during the final re-measurement", List.of(), null);
      }
      Candidate fastest = null;
      Candidate bestBaseline = null;
      for (Candidate c : finalists) {
        if (c.ok() && (fastest == null || c.finalMs() < fastest.finalMs())) {
          fastest = c;
        }
        if (c.ok() && c.baseline() && (bestBaseline == null || c.finalMs() < bestBaseline.finalMs())) {
          bestBaseline = c;
        }
      }
      Candidate best = fastest;
      decision = fastest == null ? "no candidate ran" : fastest.label() + " is the fastest";
      if (fastest != null && !fastest.baseline() && bestBaseline != null && !clearlyFaster(fastest, bestBaseline)) {
        // A split placement that is not clearly faster is not worth its copies and sub-models.
        best = bestBaseline;
        decision = String.format(java.util.Locale.ROOT,
            "%s measured %.3f ms, within the noise of %s (%.3f ms; the 95%% intervals overlap), so the single device is kept",
            fastest.label(), fastest.finalMs(), bestBaseline.label(), bestBaseline.finalMs());
      }
      if (best != null) {
        PlacementFiles.write(runDir.resolve(BEST_FILE), graph, best.placement());
        PlacementDot.write(runDir.resolve(DOT_FILE), graph, best.placement(), backend.name(), backend.profile());
      }
      return finish(TuneResult.COMPLETED, stopReason, finalists, best);
    } finally {
      log = null;
    }
  }

  private void runBaselines(Map<String, LogRecord> prior) throws IOException {
    for (String device : devices.names()) {
      String label = device + "-only";
      Placement p = Placement.allOn(devices, graph.nodeCount(), device);
      LogRecord old = prior.get(label);
      Measurement m;
      if (old != null && old.assignment() != null && old.assignment().equals(LogRecord.encode(p))) {
        m = old.toMeasurement();
      } else {
        m = measure(p, 0x1000L + devices.indexOf(device));
        log.append(LogRecord.measurement(now(), elapsed(), null, LogRecord.PHASE_BASELINE, null, label, p, m, false,
            config.protocol().describe(), Double.NaN));
      }
      cache.put(p, m);
      baselineMeasurements.put(p, m);
      if (m.ok()) {
        bestMs = Double.isNaN(bestMs) ? m.latencyMillis() : Math.min(bestMs, m.latencyMillis());
        if (device.equals("CPU")) {
          cpuOnlyMs = m.latencyMillis();
        }
      }
    }
  }

  /** Restores the latest checkpoint and replays logged steps; returns the step of the checkpoint used. */
  private int restoreAndReplay(boolean resume, List<LogRecord> priorSearch, SearchContext context) throws IOException {
    int from = 0;
    if (resume && !priorSearch.isEmpty()) {
      Optional<Checkpoints.Checkpoint> ck;
      try {
        ck = Checkpoints.latest(runDir);
      } catch (DamagedRunFileException e) {
        // Checkpoints only save time: the log alone rebuilds the state.
        listener.note(e.getMessage() + "; the checkpoint is unusable, replaying the whole log instead");
        ck = Optional.empty();
      }
      if (ck.isPresent() && ck.get().step() <= priorSearch.size() && ck.get().strategy().equals(strategy.name())) {
        try {
          strategy.restoreState(ck.get().dir());
          from = ck.get().step();
        } catch (IOException | RuntimeException e) {
          // A checkpoint that does not fit (damaged, other options) is not fatal: replay rebuilds the state.
          listener.note("checkpoint at step " + ck.get().step() + " is unusable (" + e.getMessage()
              + "); replaying the whole log instead");
          strategy.init(context);
        }
      }
    }
    for (int i = 0; i < priorSearch.size(); i++) {
      LogRecord r = priorSearch.get(i);
      Placement logged = r.toPlacement(devices);
      if (logged.size() != graph.nodeCount()) {
        throw new ResumeMismatchException("the log's step " + i + " places " + logged.size()
            + " nodes but the model has " + graph.nodeCount());
      }
      if (i >= from) {
        Placement proposed = strategy.propose();
        if (!proposed.equals(logged)) {
          throw new ResumeMismatchException("on resume the strategy proposed " + proposed.hashHex() + " at step " + i
              + " but the log has " + r.placement() + "; the strategy or its options changed, start a new run");
        }
        strategy.observe(proposed, r.toMeasurement());
      }
      record(i, logged, r.toMeasurement(), Boolean.TRUE.equals(r.cached()));
    }
    if (!priorSearch.isEmpty()) {
      listener.note("resumed after " + priorSearch.size() + " logged steps ("
          + (from > 0 ? "checkpoint at step " + from + ", replayed " + (priorSearch.size() - from) : "replayed all")
          + ")");
    }
    return from;
  }

  private void record(int index, Placement p, Measurement m, boolean cached) {
    history.add(new Step(index, p, m, cached));
    cache.put(p, m);
    if (!cached) {
      measurements++;
      if (!m.ok()) {
        failures++;
      }
    }
    if (m.ok()) {
      bestMs = Double.isNaN(bestMs) ? m.latencyMillis() : Math.min(bestMs, m.latencyMillis());
    }
  }

  private String search(int lastCheckpoint) throws IOException {
    int step = history.size();
    int consecutiveFailures = 0;
    int consecutiveHits = 0;
    for (int i = history.size() - 1; i >= 0 && history.get(i).cached(); i--) {
      consecutiveHits++;
    }
    listener.searchStarted(progress(step, Double.NaN));
    String reason;
    while (true) {
      if (stopRequested) {
        reason = "interrupted";
        break;
      }
      if (measurements >= config.budget()) {
        reason = "budget of " + config.budget() + " measurements spent";
        break;
      }
      if (config.timeLimitSeconds() > 0 && elapsed() >= config.timeLimitSeconds()) {
        reason = "time limit of " + config.timeLimitSeconds() + " s reached";
        break;
      }
      if (step >= config.maxProposals()) {
        reason = "stopped after " + step + " proposals (the strategy keeps proposing measured placements)";
        break;
      }
      if (strategy.finished()) {
        reason = "strategy finished";
        break;
      }
      if (config.patience() > 0 && consecutiveHits >= config.patience()) {
        reason = "converged: the last " + consecutiveHits + " proposals were all placements already measured";
        break;
      }
      Placement p = strategy.propose();
      if (p.size() != graph.nodeCount() || !p.devices().equals(devices)) {
        throw new IllegalStateException("strategy " + strategy.name() + " proposed a placement of " + p.size()
            + " nodes on " + p.devices() + " for a model of " + graph.nodeCount() + " nodes on " + devices);
      }
      Measurement m = cache.lookup(p);
      boolean cached = m != null;
      if (!cached) {
        m = measure(p, 0x2000_0000L + step);
      }
      record(step, p, m, cached);
      log.append(LogRecord.measurement(now(), elapsed(), step, LogRecord.PHASE_SEARCH, null, null, p, m, cached,
          config.protocol().describe(), bestMs));
      strategy.observe(p, m);
      step++;
      if (step - lastCheckpoint >= config.checkpointEvery()) {
        Checkpoints.save(runDir, step, strategy);
        lastCheckpoint = step;
      }
      consecutiveHits = cached ? consecutiveHits + 1 : 0;
      listener.searchStep(progress(step, m.ok() ? m.latencyMillis() : Double.NaN));
      if (!cached) {
        consecutiveFailures = m.ok() ? 0 : consecutiveFailures + 1;
        if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
          reason = "gave up after " + consecutiveFailures + " failed measurements in a row (last: " + m.reason() + ")";
          break;
        }
      }
    }
    if (step > lastCheckpoint) {
      Checkpoints.save(runDir, step, strategy);
    }
    return reason;
  }

  private List<Candidate> finalRemeasure(Map<String, LogRecord> priorFinal, long finalSeed) throws IOException {
    List<Placement> placements = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    List<Integer> steps = new ArrayList<>();
    List<Measurement> first = new ArrayList<>();
    for (Map.Entry<Placement, Measurement> e : baselineMeasurements.entrySet()) {
      placements.add(e.getKey());
      labels.add(e.getKey().devices().name(e.getKey().deviceOf(0)) + "-only");
      steps.add(-1);
      first.add(e.getValue());
    }
    Set<Placement> seen = new HashSet<>(placements);
    List<Step> ranked = new ArrayList<>();
    for (Step s : history) {
      if (!s.cached() && s.measurement().ok()) {
        ranked.add(s);
      }
    }
    ranked.sort(Comparator.comparingDouble((Step s) -> s.measurement().latencyMillis()).thenComparingInt(Step::index));
    for (Step s : ranked) {
      if (placements.size() - baselineMeasurements.size() >= config.topK()) {
        break;
      }
      if (seen.add(s.placement())) {
        placements.add(s.placement());
        labels.add("step " + s.index());
        steps.add(s.index());
        first.add(s.measurement());
      }
    }
    int n = placements.size();
    List<List<Double>> roundValues = new ArrayList<>();
    List<List<Double>> pooled = new ArrayList<>();
    String[] failReason = new String[n];
    int[] subModels = new int[n];
    for (int i = 0; i < n; i++) {
      roundValues.add(new ArrayList<>());
      pooled.add(new ArrayList<>());
      subModels[i] = first.get(i).subModels();
      if (!first.get(i).ok()) {
        failReason[i] = first.get(i).reason();
      }
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
      total += failReason[i] == null ? config.finalRounds() : 0;
    }
    listener.finalStarted(total);
    int done = 0;
    for (int round = 0; round < config.finalRounds(); round++) {
      int[] order = shuffledOrder(n, new SplittableRandom(finalSeed + round));
      for (int i : order) {
        if (failReason[i] != null) {
          continue;
        }
        if (stopRequested) {
          return List.of();
        }
        Placement p = placements.get(i);
        LogRecord old = priorFinal.get(round + ":" + p.hashHex());
        Measurement m;
        if (old != null && p.equals(old.toPlacement(devices))) {
          m = old.toMeasurement();
        } else {
          m = measure(p, p.hash64() * 31 + round);
          log.append(LogRecord.measurement(now(), elapsed(), null, LogRecord.PHASE_FINAL, round, labels.get(i), p, m,
              false, config.protocol().describe(), Double.NaN));
        }
        if (m.ok()) {
          roundValues.get(i).add(m.latencyMillis());
          for (double x : m.samplesMillis()) {
            pooled.get(i).add(x);
          }
          subModels[i] = m.subModels();
        } else {
          failReason[i] = "failed in final round " + round + ": " + m.reason();
        }
        listener.finalStep(++done, total);
      }
    }
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Measurement f = first.get(i);
      double searchMs = f.ok() ? f.latencyMillis() : Double.NaN;
      double finalMs;
      double[] ci;
      int samples;
      if (failReason[i] != null) {
        finalMs = Double.NaN;
        ci = new double[] {Double.NaN, Double.NaN};
        samples = 0;
      } else if (config.finalRounds() == 0) {
        finalMs = searchMs;
        ci = new double[] {f.ciLowMillis(), f.ciHighMillis()};
        samples = f.samplesMillis().length;
      } else {
        finalMs = median(roundValues.get(i));
        // The interval describes the round statistics the decision is made on, not raw samples
        // (raw samples include warm-up-affected runs the statistic may exclude).
        ci = ConfidenceInterval.ofMean(roundValues.get(i).stream().mapToDouble(Double::doubleValue).toArray(), 0.95);
        samples = pooled.get(i).size();
      }
      out.add(new Candidate(labels.get(i), steps.get(i) < 0, placements.get(i), steps.get(i), searchMs, finalMs,
          ci[0], ci[1], failReason[i] == null ? roundValues.get(i).size() : 0, samples, subModels[i], failReason[i]));
    }
    return out;
  }

  private TuneResult finish(String status, String stopReason, List<Candidate> finalists, Candidate best)
      throws IOException {
    int cacheHits = 0;
    for (Step s : history) {
      cacheHits += s.cached() ? 1 : 0;
    }
    List<Candidate> cands = finalists.isEmpty() ? provisionalCandidates() : finalists;
    TuneResult result = new TuneResult(status, stopReason, history.size(), measurements, cacheHits, failures,
        elapsed(), cands, best, decision, backend.name(), backend.profile(), backend.simulated());
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("stop_reason", stopReason);
    info.put("decision", decision);
    info.put("steps", history.size());
    info.put("measurements", measurements);
    info.put("cache_hits", cacheHits);
    info.put("failures", failures);
    if (best != null) {
      info.put("best", best.label());
      info.put("best_placement", best.placement().hashHex());
    }
    if (TuneResult.COMPLETED.equals(status)) {
      Map<String, Double> time = best != null && backend instanceof DeviceTimeBreakdown b
          ? b.timeByDevice(graph, best.placement()) : Map.of();
      RunResults.write(runDir.resolve(RESULT_FILE), result, graph, time);
    }
    log.append(LogRecord.footer(now(), elapsed(), status, best == null ? null : best.finalMs(), info));
    listener.finished(result);
    return result;
  }

  /** True when {@code a}'s interval lies entirely below {@code b}'s (both known), or without intervals when a is faster. */
  static boolean clearlyFaster(Candidate a, Candidate b) {
    if (Double.isNaN(a.ciHighMs()) || Double.isNaN(b.ciLowMs())) {
      return a.finalMs() < b.finalMs();
    }
    return a.ciHighMs() < b.ciLowMs();
  }

  /** Baselines with their first measurements, for a run that stopped before the final re-measurement. */
  private List<Candidate> provisionalCandidates() {
    List<Candidate> out = new ArrayList<>();
    for (Map.Entry<Placement, Measurement> e : baselineMeasurements.entrySet()) {
      Measurement m = e.getValue();
      double ms = m.ok() ? m.latencyMillis() : Double.NaN;
      out.add(new Candidate(e.getKey().devices().name(e.getKey().deviceOf(0)) + "-only", true, e.getKey(), -1, ms,
          ms, m.ciLowMillis(), m.ciHighMillis(), m.ok() ? 1 : 0, m.samplesMillis().length, m.subModels(), m.reason()));
    }
    return out;
  }

  /**
   * Times {@code p}; an op on a device that cannot run it fails here with a precise reason. {@code
   * key} names the measurement for backends whose noise is keyed ({@link KeyedMeasurement}).
   */
  private Measurement measure(Placement p, long key) {
    for (int v = 0; v < p.size(); v++) {
      if (!support.allowed(v, p.deviceOf(v))) {
        OpNode node = graph.node(v);
        return Measurement.failed("op '" + node.name() + "' (" + node.type() + ") cannot run on " + p.deviceName(v),
            backend.name(), backend.profile());
      }
    }
    try {
      return backend instanceof KeyedMeasurement keyed
          ? keyed.measure(graph, p, config.protocol(), key)
          : backend.measure(graph, p, config.protocol());
    } catch (RuntimeException e) {
      // A backend bug must not end hours of search; it is recorded like any other failure.
      return Measurement.failed("backend error: " + e, backend.name(), backend.profile());
    }
  }

  private TuneProgress progress(int step, double lastMs) {
    return new TuneProgress(step, measurements, config.budget(), lastMs, bestMs, cpuOnlyMs, elapsed(),
        backend.name(), backend.profile(), backend.simulated());
  }

  private double elapsed() {
    return elapsedOffset + (System.nanoTime() - startNanos) / 1e9;
  }

  private static String now() {
    return Instant.now().toString();
  }

  private static int[] shuffledOrder(int n, SplittableRandom rng) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    Arrays.sort(v);
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
}
