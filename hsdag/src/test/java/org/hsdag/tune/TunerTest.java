package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.search.StopReason;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.search.ResumeMismatchException;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.hsdag.search.SearchStrategy;
import org.hsdag.search.Candidate;
import org.hsdag.strategy.RandomSearchStrategy;

class TunerTest {
  /** The fake backend's exact latencies (never measures). */
  private static final FakeBackend EXACT = FakeBackend.cpuGpu();
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @TempDir
  Path tmp;
  private OpGraph graph;

  @BeforeEach
  void model() throws IOException {
    graph = TestModels.read(TestModels.twoBranch(tmp));
  }

  private static TuneConfig config(int budget, int topK, int rounds, int checkpointEvery, int patience, long seed) {
    return new TuneConfig(DEVICES, "random", new StrategyConfig.Random(), budget, 0, seed,
        MeasurementProtocol.PAPER, topK, rounds,
        checkpointEvery, patience);
  }

  private TuneResult run(FakeBackend backend, TuneConfig c, SearchStrategy s, Path dir, boolean resume, TuneListener l)
      throws IOException {
    return new Tuner(new TuneJob(backend, graph, c, s, dir, l, null, null)).run(resume);
  }

  /** A tuner searching at random, without a cost model or memory limits. */
  private Tuner randomTuner(LatencyBackend backend, TuneConfig c, Path dir, TuneListener l) {
    return new Tuner(new TuneJob(backend, graph, c, new RandomSearchStrategy(), dir, l, null, null));
  }

  /** Placement with nodes whose index is in {@code gpu} on GPU.1, the rest on CPU. */
  private Placement mixed(int... gpu) {
    int[] a = new int[graph.nodeCount()];
    for (int v : gpu) {
      a[v] = 1;
    }
    return new Placement(DEVICES, a);
  }

  private static List<LogRecord> records(Path dir) throws IOException {
    return RunLog.read(dir.resolve(Tuner.LOG_FILE)).records();
  }

  private static List<LogRecord> search(Path dir) throws IOException {
    return records(dir).stream().filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase())).toList();
  }

  @Test
  void runMeasuresBaselinesSpendsTheBudgetAndPicksTheFastestByReMeasurement() throws IOException {
    FakeBackend backend = FakeBackend.cpuGpu();
    Path dir = tmp.resolve("run");
    TuneResult r = run(backend, config(30, 3, 3, 7, 0, 1), new RandomSearchStrategy(), dir, false, null);

    assertEquals(RunStatus.COMPLETED, r.status());
    assertEquals(30, r.measurements());
    assertEquals(2 + 3, r.candidates().size(), "two baselines and the top 3");
    Candidate best = r.best();
    for (Candidate c : r.candidates()) {
      assertTrue(best.finalMs() <= c.finalMs(), best.label() + " is not faster than " + c.label());
      assertEquals(3, c.rounds());
      assertEquals(EXACT.latency(graph, c.placement()), c.finalMs(), 1e-9);
    }
    // Everything on the 2x faster GPU with no copies is optimal for this backend.
    assertEquals("GPU.1-only", best.label());
    assertEquals(best.placement(), PlacementFiles.read(dir.resolve(Tuner.BEST_FILE), graph, DEVICES));
    assertTrue(Files.readString(dir.resolve(Tuner.DOT_FILE)).startsWith("digraph placement"));
    assertTrue(Files.isRegularFile(dir.resolve(Tuner.RESULT_FILE)));

    List<LogRecord> log = records(dir);
    assertEquals(LogRecord.HEADER, log.get(0).type());
    assertEquals(LogRecord.FOOTER, log.get(log.size() - 1).type());
    assertEquals(RunStatus.COMPLETED.label(), log.get(log.size() - 1).status());
    assertEquals(30, search(dir).size());
    long finals = log.stream().filter(x -> LogRecord.PHASE_FINAL.equals(x.phase())).count();
    assertEquals(5 * 3, finals);
    // Two baselines + 30 search + 15 final measurements, nothing measured twice by accident.
    assertEquals(2 + 30 + 15, backend.calls());
    LogRecord first = search(dir).get(0);
    assertEquals(graph.nodeCount(), first.assignment().length());
    assertEquals(graph.nodeCount(), first.opsPerDevice().values().stream().mapToInt(Integer::intValue).sum());
    assertEquals(MeasurementProtocol.PAPER.runs(), first.samplesMs().size());
  }

  @Test
  void aPlacementProposedAgainIsMeasuredOnceAndPatienceCountsDistinctMeasurements() throws IOException {
    FakeBackend backend = FakeBackend.cpuGpu();
    // All on GPU.1 is the fastest (FakeBackend: no cuts, half the CPU's time); every split is slower.
    Placement best = Placement.allOn(DEVICES, graph.nodeCount(), "GPU.1");
    Placement a = mixed(3, 4, 5);
    Placement b = mixed(6, 7);
    Placement c = mixed(3);
    ScriptedStrategy s = new ScriptedStrategy(ctx -> List.of(a, best, a, best, b, best, c, mixed(4), mixed(5)));
    Path dir = tmp.resolve("cache");
    TuneResult r = run(backend, config(50, 2, 0, 5, 3, 1), s, dir, false, null);

    assertEquals(StopReason.CONVERGED, r.stop(), r.stopReason());
    // best is the GPU.1-only baseline, measured before the search: a cache hit from its first proposal.
    assertEquals(4, r.measurements(),
        "a, then b, c and mixed(4) bring no improvement on best: 3 measurements of patience");
    assertEquals(8, r.steps(), "the repeated proposals cost neither budget nor patience");
    assertEquals(4, r.cacheHits());
    assertEquals(1, backend.calls(a));
    assertEquals(1, backend.calls(best));
    assertEquals(8, s.observed.size(), "the strategy still observes every proposal");
    assertEquals(s.observed.get(0).latencyMillis(), s.observed.get(2).latencyMillis());
    assertEquals(4, search(dir).stream().filter(x -> Boolean.TRUE.equals(x.cached())).count());
    assertTrue(r.stopReason().contains("3 measurements"), r.stopReason());
  }

  @Test
  void aLuckyFirstSampleDoesNotWinTheFinalReMeasurement() throws IOException {
    FakeBackend backend = FakeBackend.cpuGpu();
    Placement lucky = mixed(3, 4, 5);
    backend.luckyFirst(lucky, 0.01);
    ScriptedStrategy s = new ScriptedStrategy(ctx -> List.of(lucky, mixed(6), mixed(7), mixed(8)));
    TuneResult r = run(backend, config(4, 4, 3, 5, 0, 1), s, tmp.resolve("lucky"), false, null);

    Candidate luckyCandidate = r.candidates().stream().filter(c -> c.placement().equals(lucky)).findFirst()
        .orElseThrow();
    assertEquals(0.01, luckyCandidate.searchMs(), 1e-12);
    assertEquals(EXACT.latency(graph, lucky), luckyCandidate.finalMs(), 1e-9);
    assertNotEquals(lucky, r.best().placement());
    assertEquals("GPU.1-only", r.best().label());
  }

  @Test
  void failedMeasurementsAreLoggedWithTheirReasonAndTheSearchGoesOn() throws IOException {
    // No op of type Convolution may run on the GPU: GPU-only fails, mixed placements may too.
    FakeBackend backend = FakeBackend.cpuGpu(Set.of("Convolution"), -1);
    int conv = -1;
    for (int v = 0; v < graph.nodeCount() && conv < 0; v++) {
      conv = graph.node(v).type().equals("Convolution") ? v : -1;
    }
    assertTrue(conv >= 0, "the test model has a convolution");
    Placement bad = mixed(conv);
    ScriptedStrategy s = new ScriptedStrategy(ctx -> List.of(bad, Placement.allOn(DEVICES, graph.nodeCount(), "CPU")));
    Path dir = tmp.resolve("fail");
    TuneResult r = run(backend, config(3, 2, 2, 5, 0, 1), s, dir, false, null);

    assertEquals(RunStatus.COMPLETED, r.status());
    assertEquals(1, r.failures());
    LogRecord failed = search(dir).get(0);
    assertFalse(failed.succeeded());
    assertTrue(failed.reason().contains("cannot run on GPU.1"), failed.reason());
    Candidate gpu = r.baseline("GPU.1");
    assertFalse(gpu.ok());
    assertNotNull(gpu.reason());
    assertEquals("CPU-only", r.best().label());
  }

  @Test
  void aStoppedRunResumesToExactlyTheUninterruptedResult() throws IOException {
    TuneConfig c = config(40, 3, 3, 7, 0, 5);
    TuneResult reference = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), tmp.resolve("ref"), false, null);

    Path dir = tmp.resolve("resumed");
    TuneResult stopped = stopAt(17, c, dir);
    assertEquals(RunStatus.INTERRUPTED, stopped.status());
    assertFalse(Files.exists(dir.resolve(Tuner.BEST_FILE)));
    List<LogRecord> before = records(dir);
    assertEquals(RunStatus.INTERRUPTED.label(), before.get(before.size() - 1).status());

    FakeBackend second = FakeBackend.cpuGpu();
    TuneResult resumed = run(second, c, new RandomSearchStrategy(), dir, true, null);
    assertSameOutcome(reference, resumed, tmp.resolve("ref"), dir);
    // The resumed session re-measures nothing that was logged: 23 search steps + the final rounds.
    assertEquals(23 + 5 * 3, second.calls());
  }

  @Test
  void theResumeLinePromisesExactnessOnlyOnTheSimulator() {
    assertTrue(Tuner.resumePromise(true).contains("exactly as an uninterrupted run"));
    String real = Tuner.resumePromise(false);
    assertTrue(real.contains("logged measurements are kept and never re-taken"), real);
    assertFalse(real.contains("exactly"), real);
  }

  @Test
  void aTornLastLogLineIsDroppedAndTheResumeIsStillExact() throws IOException {
    TuneConfig c = config(30, 2, 2, 4, 0, 9);
    TuneResult reference = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), tmp.resolve("ref"), false, null);
    Path dir = tmp.resolve("torn");
    stopAt(13, c, dir);
    // Simulate a kill in the middle of writing a line: drop the footer, leave half a record.
    Path log = dir.resolve(Tuner.LOG_FILE);
    List<String> lines = new ArrayList<>(Files.readAllLines(log));
    lines.remove(lines.size() - 1);
    Files.write(log, lines);
    Files.writeString(log, "{\"type\":\"measurement\",\"step\":13,\"pha", StandardOpenOption.APPEND);
    assertTrue(RunLog.read(log).tornBytes() > 0);

    TuneResult resumed = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), dir, true, null);
    assertSameOutcome(reference, resumed, tmp.resolve("ref"), dir);
    RunLog.Contents after = RunLog.read(log);
    assertEquals(0, after.tornBytes(), "the torn fragment was cut before appending");
    LogRecord secondHeader = after.records().stream().filter(x -> LogRecord.HEADER.equals(x.type())).skip(1).findFirst()
        .orElseThrow();
    assertTrue(((Number) secondHeader.info().get("torn_bytes_dropped")).longValue() > 0);
  }

  @Test
  void aKilledRunWithoutCheckpointReplaysTheWholeLog() throws IOException {
    TuneConfig c = config(20, 2, 2, 1000, 0, 3);
    TuneResult reference = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), tmp.resolve("ref"), false, null);
    Path dir = tmp.resolve("nockpt");
    stopAt(9, c, dir);
    Checkpoints.deleteTree(dir.resolve(Checkpoints.DIR));
    TuneResult resumed = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), dir, true, null);
    assertSameOutcome(reference, resumed, tmp.resolve("ref"), dir);
  }

  /** Stands for a native crash of the tune's own process during a measurement: nothing after it runs. */
  private static final class ProcessEnded extends Error {
    private static final long serialVersionUID = 1L;
  }

  /** {@code backend} measuring by {@link LatencyBackend#measure} alone, calling {@code hook} first. */
  private static LatencyBackend watched(FakeBackend backend, java.util.function.Consumer<Placement> hook) {
    return new org.hsdag.backend.ForwardingBackend(backend) {
      @Override
      public Measurement measure(OpGraph g, Placement p, MeasurementProtocol protocol) {
        hook.accept(p);
        return super.measure(g, p, protocol);
      }

      @Override
      public <T> java.util.Optional<T> capability(Class<T> type) {
        return type == org.hsdag.backend.KeyedMeasurement.class || type == org.hsdag.backend.BatchMeasurement.class
            ? java.util.Optional.empty() : super.capability(type);
      }
    };
  }

  @Test
  void aPlacementWhoseMeasurementEndedTheProcessTwiceIsFailedAndNeverMeasuredAgainOnResume() throws IOException {
    TuneConfig c = config(12, 2, 2, 1000, 0, 5);
    Path dir = tmp.resolve("crashed");
    List<Placement> measured = new ArrayList<>();
    LatencyBackend crashing = watched(FakeBackend.cpuGpu(), p -> {
      measured.add(p);
      if (measured.size() == 6) { // two baselines, then the fourth search step
        throw new ProcessEnded();
      }
    });
    assertThrows(ProcessEnded.class,
        () -> randomTuner(crashing, c, dir, null).run(false));
    Placement victim = measured.get(5);
    // One end proves nothing (a kill -9 lands on some step): the first resume measures it once more, and it ends again.
    List<Placement> retried = new ArrayList<>();
    LatencyBackend crashesOnVictim = watched(FakeBackend.cpuGpu(), p -> {
      retried.add(p);
      if (p.equals(victim)) {
        throw new ProcessEnded();
      }
    });
    assertThrows(ProcessEnded.class,
        () -> randomTuner(crashesOnVictim, c, dir, null).run(true));
    assertTrue(retried.contains(victim), "a placement one session ended on is measured once more");
    List<Placement> again = new ArrayList<>();
    randomTuner(watched(FakeBackend.cpuGpu(), again::add), c, dir, null).run(true);
    assertFalse(again.contains(victim), "the placement that ended the process twice is not measured again");
    LogRecord logged = search(dir).stream().filter(r -> LogRecord.encode(victim).equals(r.assignment()))
        .filter(LogRecord::hasMeasurement).findFirst().orElseThrow();
    assertFalse(logged.succeeded());
    assertEquals(UnfinishedMeasurements.REASON, logged.reason());
    // And a further resume answers it the same way, from the log.
    List<Placement> third = new ArrayList<>();
    randomTuner(watched(FakeBackend.cpuGpu(), third::add), c, dir, null).run(true);
    assertFalse(third.contains(victim));
  }

  @Test
  void resumingWithAnotherSeedIsRefusedInsteadOfMixingTwoSearches() throws IOException {
    Path dir = tmp.resolve("seed");
    stopAt(8, config(20, 2, 2, 4, 0, 1), dir);
    byte[] log = Files.readAllBytes(dir.resolve(Tuner.LOG_FILE));
    ResumeMismatchException e = assertThrows(ResumeMismatchException.class,
        () -> run(FakeBackend.cpuGpu(), config(20, 2, 2, 4, 0, 2), new RandomSearchStrategy(), dir, true, null));
    assertTrue(e.getMessage().contains("step"), e.getMessage());
    assertArrayEquals(log, Files.readAllBytes(dir.resolve(Tuner.LOG_FILE)),
        "a refused resume appends nothing to the log");
  }

  @Test
  void aCompletedRunResumedAgainChangesNothing() throws IOException {
    TuneConfig c = config(15, 2, 2, 4, 0, 4);
    Path dir = tmp.resolve("twice");
    TuneResult first = run(FakeBackend.cpuGpu(), c, new RandomSearchStrategy(), dir, false, null);
    FakeBackend again = FakeBackend.cpuGpu();
    TuneResult second = run(again, c, new RandomSearchStrategy(), dir, true, null);
    assertEquals(0, again.calls(), "everything is reused from the log");
    assertEquals(first.best().placement(), second.best().placement());
    assertEquals(first.best().finalMs(), second.best().finalMs());
  }

  @Test
  void aRunFolderInUseByAnotherTunerIsRefused() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("busy"));
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve(".lock"),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE); var lock = ch.lock()) {
      RunFolderBusyException e = assertThrows(RunFolderBusyException.class,
          () -> run(FakeBackend.cpuGpu(), config(5, 1, 1, 5, 0, 1), new RandomSearchStrategy(), dir, false, null));
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }
    assertFalse(Files.exists(dir.resolve(Tuner.LOG_FILE)), "nothing was written");
  }

  /** Runs until {@code steps} search steps are done, then asks the tuner to stop (as Ctrl-C does). */
  private TuneResult stopAt(int steps, TuneConfig c, Path dir) throws IOException {
    AtomicReference<Tuner> ref = new AtomicReference<>();
    TuneListener stopper = new TuneListener() {
      @Override
      public void searchStep(TuneProgress p) {
        if (p.step() == steps) {
          ref.get().requestStop();
        }
      }
    };
    Tuner t = randomTuner(FakeBackend.cpuGpu(), c, dir, stopper);
    ref.set(t);
    TuneResult r = t.run(false);
    assertEquals(steps, r.steps());
    assertNull(r.best());
    return r;
  }

  static void assertSameOutcome(TuneResult expected, TuneResult actual, Path expectedDir, Path actualDir)
      throws IOException {
    assertEquals(RunStatus.COMPLETED, actual.status());
    assertEquals(expected.steps(), actual.steps());
    assertEquals(expected.measurements(), actual.measurements());
    assertEquals(expected.best().placement(), actual.best().placement());
    assertEquals(expected.best().finalMs(), actual.best().finalMs());
    assertEquals(expected.candidates().stream().map(Candidate::label).toList(),
        actual.candidates().stream().map(Candidate::label).toList());
    assertEquals(expected.candidates().stream().map(Candidate::finalMs).toList(),
        actual.candidates().stream().map(Candidate::finalMs).toList());
    List<String> e = search(expectedDir).stream().map(r -> r.assignment() + " " + r.samplesMs())
        .toList();
    List<String> a = search(actualDir).stream().map(r -> r.assignment() + " " + r.samplesMs())
        .toList();
    assertEquals(e, a, "the same placements with the same samples, in the same order");
    assertEquals(Files.readString(expectedDir.resolve(Tuner.BEST_FILE), StandardCharsets.UTF_8),
        Files.readString(actualDir.resolve(Tuner.BEST_FILE), StandardCharsets.UTF_8));
  }
}
