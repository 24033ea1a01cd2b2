package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.strategy.HsdagStrategy;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchEngineTest {
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

  /** Nodes whose index is in {@code gpu} on GPU.1, the rest on CPU. */
  private Placement mixed(int... gpu) {
    int[] a = new int[graph.nodeCount()];
    for (int v : gpu) {
      a[v] = 1;
    }
    return new Placement(DEVICES, a);
  }

  private SearchEngine engine(FakeBackend backend) {
    return SearchEngine.builder(backend, graph, DEVICES).protocol(MeasurementProtocol.PAPER).seed(1).build();
  }

  /** Proposes a fixed list in batches of {@code batch} (cut by the limit), recording every limit it is given. */
  private static final class Fixed implements SearchStrategy {
    final List<Placement> sequence;
    final int batch;
    final List<Integer> limits = new ArrayList<>();
    final List<Measurement> told = new ArrayList<>();
    int next;

    Fixed(List<Placement> sequence, int batch) {
      this.sequence = sequence;
      this.batch = batch;
    }

    @Override
    public String name() {
      return "fixed";
    }

    @Override
    public void init(SearchContext context) {
      next = 0;
    }

    @Override
    public List<Placement> ask(int limit) {
      limits.add(limit);
      List<Placement> out = new ArrayList<>();
      while (out.size() < Math.min(batch, limit) && next < sequence.size()) {
        out.add(sequence.get(next++));
      }
      return out;
    }

    @Override
    public void tell(List<Placement> batch, List<Measurement> results) {
      told.addAll(results);
    }

    @Override
    public boolean finished() {
      return next >= sequence.size();
    }
  }

  @Test
  void aPlacementProposedAgainIsAnsweredFromTheCacheAndTheBudgetCountsDistinctPlacements() throws IOException {
    FakeBackend backend = FakeBackend.cpuGpu();
    Placement a = mixed(3);
    Placement b = mixed(4);
    Placement c = mixed(5);
    Fixed s = new Fixed(List.of(a, a, b, a, b, c, mixed(6)), 4);
    SearchOutcome o = engine(backend).run(s, SearchLimits.of(3), 1, SearchListener.NONE);

    assertEquals(StopReason.BUDGET_SPENT, o.stop());
    assertEquals(3, o.measurements());
    assertEquals(3, o.cacheHits());
    assertEquals(6, o.steps().size());
    assertEquals(3, backend.calls(), "a, b and c once each");
    assertEquals(List.of(false, true, false, true, true, false), o.steps().stream().map(SearchStep::cached).toList());
    assertEquals(6, s.told.size(), "cache hits are told too");
    // Each ask may hold at most the measurements the budget has left: [a a b], then [a], [b], [c] one at a time.
    assertEquals(List.of(3, 1, 1, 1), s.limits);
  }

  @Test
  void stopRulesFireAtTheSameProposalHoweverTheStrategyBatches() throws IOException {
    // All on GPU.1 is the fastest (FakeBackend: no cuts, half the CPU's time); every split is slower.
    Placement best = Placement.allOn(DEVICES, graph.nodeCount(), "GPU.1");
    List<Placement> seq = new ArrayList<>(List.of(best));
    for (int v = 3; v < 12; v++) {
      seq.add(mixed(v));
      seq.add(best);
    }
    List<String> reference = null;
    for (int batch : new int[] {1, 3, 7, 20}) {
      SearchOutcome o = engine(FakeBackend.cpuGpu()).run(new Fixed(seq, batch), SearchLimits.of(10).withPatience(5), 1,
          SearchListener.NONE);
      assertEquals(StopReason.CONVERGED, o.stop(), "batch " + batch);
      assertEquals(1 + 5, o.measurements(), "batch " + batch + ": the best, then 5 measurements without improvement");
      List<String> steps = o.steps().stream().map(s -> s.index() + ":" + s.placement().hashHex() + ":" + s.cached())
          .toList();
      assertEquals(2 * 5, steps.size(), "batch " + batch + ": the repeats of the best cost no patience");
      if (reference == null) {
        reference = steps;
      }
      assertEquals(reference, steps, "batch " + batch);
      // The 11th proposal is refused: at a batch boundary when a batch ends there (of 1, or of 20 cut to the budget of 10).
      assertEquals(batch == 1 || batch == 20, o.atBatchBoundary(), "batch " + batch);
    }
  }

  @Test
  void aSearchThatKeepsImprovingMeaningfullyIsNotStoppedByPatience() throws IOException {
    // Placements with the first k nodes on GPU.1, slowest first, each kept only when 1 % or more faster than the last.
    List<Placement> pool = new ArrayList<>();
    for (int k = 0; k <= graph.nodeCount(); k++) {
      int[] a = new int[graph.nodeCount()];
      java.util.Arrays.fill(a, 0, k, 1);
      pool.add(new Placement(DEVICES, a));
    }
    pool.sort(java.util.Comparator.comparingDouble((Placement p) -> -EXACT.latency(graph, p)));
    List<Placement> improving = new ArrayList<>();
    for (Placement p : pool) {
      if (improving.isEmpty()
          || EXACT.latency(graph, p) < 0.99 * EXACT.latency(graph, improving.get(improving.size() - 1))) {
        improving.add(p);
      }
    }
    assertTrue(improving.size() >= 3, "a test of several improvements");
    SearchOutcome o = engine(FakeBackend.cpuGpu()).run(new Fixed(improving, 1), SearchLimits.of(100).withPatience(1), 1,
        SearchListener.NONE);
    assertEquals(StopReason.STRATEGY_FINISHED, o.stop(), o.stopText());
    assertEquals(improving.size(), o.measurements(), "patience 1, and yet every placement measured");
  }

  @Test
  void anOpOnADeviceThatCannotRunItFailsBeforeTheBackend() {
    FakeBackend backend = FakeBackend.cpuGpu(Set.of("Convolution"), -1);
    int conv = -1;
    for (int v = 0; v < graph.nodeCount() && conv < 0; v++) {
      conv = graph.node(v).type().equals("Convolution") ? v : -1;
    }
    Measurement m = engine(backend).measure(mixed(conv), 0);
    assertFalse(m.ok());
    assertEquals("op '" + graph.node(conv).name() + "' (Convolution) cannot run on GPU.1", m.reason());
    assertEquals(0, backend.calls(), "the backend never saw it");
  }

  @Test
  void keyedNoiseMakesAMeasurementIndependentOfWhatWasMeasuredBefore() {
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT.withSeed(3));
    Placement a = mixed(3, 4);
    Placement b = mixed(6);
    SearchEngine one = SearchEngine.builder(sim, graph, DEVICES).seed(9).build();
    double[] aFirst = one.measure(a, 0).samplesMillis();
    double[] bSecond = one.measure(b, 0).samplesMillis();
    SearchEngine other = SearchEngine.builder(sim, graph, DEVICES).seed(9).build();
    assertArrayEquals(bSecond, other.measure(b, 0).samplesMillis(), "measured first this time");
    assertArrayEquals(aFirst, other.measure(a, 0).samplesMillis());
    assertFalse(java.util.Arrays.equals(aFirst, other.measure(a, 1).samplesMillis()), "another round, other noise");
  }

  @Test
  void hsdagProposesWholeEpisodesAndMatchesProposingOneAtATime() throws IOException {
    // Only the policy's samples: segment moves have their own test (HsdagStrategyTest).
    HsdagConfig config = HsdagConfig.builder().stepsPerUpdate(4).hidden(8).torchThreads(1).segmentMoves(0).build();
    FakeBackend backend = FakeBackend.cpuGpu();
    List<Integer> batchSizes = new ArrayList<>();
    SearchOutcome o;
    try (HsdagStrategy batched = new HsdagStrategy(config)) {
      SearchStrategy counting = new SearchStrategy() {
        @Override
        public String name() {
          return batched.name();
        }

        @Override
        public void init(SearchContext context) {
          batched.init(context);
        }

        @Override
        public List<Placement> ask(int limit) {
          List<Placement> b = batched.ask(limit);
          batchSizes.add(b.size());
          return b;
        }

        @Override
        public void tell(List<Placement> batch, List<Measurement> results) {
          batched.tell(batch, results);
        }
      };
      o = engine(backend).run(counting, SearchLimits.of(10), 5, SearchListener.NONE);
    }
    assertEquals(4, batchSizes.get(0), "a whole episode at once");
    assertTrue(batchSizes.stream().allMatch(n -> n <= 4));
    SearchEngine e = engine(FakeBackend.cpuGpu());
    try (HsdagStrategy single = new HsdagStrategy(config)) {
      single.init(e.context(10, 5));
      for (SearchStep step : o.steps()) {
        Placement p = single.propose();
        assertEquals(step.placement(), p, "step " + step.index());
        single.observe(p, step.measurement());
      }
    }
  }

  @Test
  void aFinalistThatFailedIsNotMeasuredAgainAndTheOthersGetInterleavedRounds() throws IOException {
    FakeBackend backend = FakeBackend.cpuGpu();
    SearchEngine e = engine(backend);
    Placement cpu = Placement.allOn(DEVICES, graph.nodeCount(), "CPU");
    Placement gpu = Placement.allOn(DEVICES, graph.nodeCount(), "GPU.1");
    List<Finalist> finalists = List.of(new Finalist("CPU-only", true, cpu, -1, e.measure(cpu, 0)),
        new Finalist("GPU.1-only", true, gpu, -1, Measurement.failed("no driver", "fake", "test")),
        new Finalist("step 4", false, mixed(3), 4, null));
    int before = backend.calls();
    FinalResult r = e.remeasure(finalists, 3, 7, Map.of(), RemeasureListener.NONE);
    assertEquals(2 * 3, backend.calls() - before);
    assertEquals(3, r.candidates().get(0).rounds());
    assertFalse(r.candidates().get(1).ok());
    assertEquals("no driver", r.candidates().get(1).reason());
    assertEquals(EXACT.latency(graph, cpu), r.candidates().get(0).finalMs(), 1e-12);
    assertEquals(Decision.SINGLE_DEVICE_FASTEST, r.verdict().decision());
    assertEquals("CPU-only", r.verdict().winner().label());
  }

  @Test
  void nearTiesGetMoreRoundsAndClearWinnersDoNot() throws IOException {
    OpGraph resnet = org.hsdag.models.ModelCatalog.get("resnet50").build().graph();
    SimBackend noisy = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT);
    Placement cpu = Placement.allOn(DEVICES, resnet.nodeCount(), "CPU");
    Placement gpu = Placement.allOn(DEVICES, resnet.nodeCount(), "GPU.1");
    // The same GPU placement but one early op on the CPU: a copy or two slower, well within the noise.
    int[] nearly = gpu.deviceOf();
    nearly[resnet.topologicalOrder()[1]] = 0;
    Placement near = new Placement(DEVICES, nearly);
    SearchEngine e = SearchEngine.builder(noisy, resnet, DEVICES).seed(3).build();

    FinalResult clear = e.remeasure(List.of(new Finalist("CPU-only", true, cpu, -1, null),
        new Finalist("GPU.1-only", true, gpu, -1, null)), 5, 11, Map.of(), RemeasureListener.NONE);
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, clear.candidates().get(0).rounds(),
        "8.8 ms against 7.0 ms is settled in the rounds needed to race on");
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, clear.candidates().get(1).rounds());

    // A placement given to measure (step -1, as apply's) races to the end whatever it measures.
    List<Finalist> tie = List.of(new Finalist("CPU-only", true, cpu, -1, null),
        new Finalist("GPU.1-only", true, gpu, -1, null),
        new Finalist("given", false, near, -1, null));
    FinalResult raced = e.remeasure(tie, 5, 11, Map.of(), RemeasureListener.NONE);
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, raced.candidates().get(0).rounds(), "CPU-only is out of the race");
    assertTrue(raced.candidates().get(1).rounds() > 5, "the near tie gets more rounds");
    assertEquals(raced.candidates().get(1).rounds(), raced.candidates().get(2).rounds());
    assertTrue(raced.candidates().get(2).rounds() <= SearchEngine.maxFinalRounds(5));
    // The same seed gives the same rounds, so a resumed run re-measures exactly what it logged.
    FinalResult again = e.remeasure(tie, 5, 11, Map.of(), RemeasureListener.NONE);
    for (int i = 0; i < tie.size(); i++) {
      assertEquals(raced.candidates().get(i).roundsMs(), again.candidates().get(i).roundsMs());
    }
  }

  @Test
  void contendersAreThoseWhoseIntervalOverlapsTheLeaders() {
    List<List<Double>> rounds = List.of(List.of(1.0, 1.1, 1.2, 1.0, 1.1), List.of(1.15, 1.2, 1.3, 1.25, 1.2),
        List.of(3.0, 3.1, 3.0, 3.2, 3.1), List.of(1.05, 1.0, 0.95, 1.0, 1.1));
    // Five rounds: each interval is the range. The leader (median 1.0) spans 0.95-1.1.
    boolean[] in = FinalRounds.contenders(rounds, new String[4]);
    assertArrayEquals(new boolean[] {true, false, false, true}, in);
    String[] failed = {"failed in final round 2: boom", null, null, null};
    assertArrayEquals(new boolean[] {false, false, false, false}, FinalRounds.contenders(rounds, failed),
        "a failed finalist is out, and the leader alone needs no race");
    // Two identical noise-free candidates are the same number: nothing to race.
    boolean[] exact = FinalRounds.contenders(List.of(List.of(2.0, 2.0, 2.0), List.of(2.0, 2.0, 2.0)), new String[2]);
    assertArrayEquals(new boolean[] {false, false}, exact);
  }

  @Test
  void aFinalistClearlySlowerThanTheLeaderLeavesTheRaceEarlyAndSoDoesASlowerSingleDevice() throws IOException {
    OpGraph resnet = org.hsdag.models.ModelCatalog.get("resnet50").build().graph();
    SimBackend noisy = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT);
    Placement cpu = Placement.allOn(DEVICES, resnet.nodeCount(), "CPU");
    Placement gpu = Placement.allOn(DEVICES, resnet.nodeCount(), "GPU.1");
    // Every other op on the other device: a copy at nearly every edge, far slower than either device alone.
    int[] zigzag = new int[resnet.nodeCount()];
    int[] order = resnet.topologicalOrder();
    for (int k = 0; k < order.length; k++) {
      zigzag[order[k]] = k % 2;
    }
    Placement slow = new Placement(DEVICES, zigzag);
    SearchEngine e = SearchEngine.builder(noisy, resnet, DEVICES).seed(3).build();
    List<Finalist> finalists = List.of(new Finalist("CPU-only", true, cpu, -1, null),
        new Finalist("GPU.1-only", true, gpu, -1, null), new Finalist("step 1", false, slow, 1, null));
    List<Integer> totals = new ArrayList<>();
    RemeasureListener counting = new RemeasureListener() {
      @Override
      public void measured(Finalist f, int round, Measurement m, boolean fresh, int done, int total) {
        totals.add(total);
      }

      @Override
      public void ended(int done) {
        totals.add(done);
      }
    };
    FinalResult r = e.remeasure(finalists, 5, 11, Map.of(), counting);
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, r.candidates().get(0).rounds(),
        "a single device clearly slower than another leaves too");
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, r.candidates().get(1).rounds(), "alone, the race is over");
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, r.candidates().get(2).rounds(),
        "clearly slower after the rounds needed to race on: no more rounds");
    assertEquals("GPU.1-only", r.verdict().winner().label());
    assertEquals(3 + 3 + 3 + 1, totals.size(), "each measurement reported once, then the end");
    assertEquals(totals.size() - 1, totals.get(totals.size() - 1), "the race ends announcing what was measured");
  }

  @Test
  void outclassedAreTheNonBaselinesWhoseIntervalLiesAboveTheLeaders() {
    List<List<Double>> rounds = List.of(List.of(1.0, 1.1, 1.2), List.of(3.0, 3.1, 3.2), List.of(1.15, 1.2, 1.3),
        List.of(2.0, 2.1, 2.2), List.of(9.0), List.of(1.25, 1.3, 1.4));
    boolean[] staying = {false, true, false, false, false, false};
    assertArrayEquals(new boolean[] {false, false, false, true, false, false},
        FinalRounds.outclassed(rounds, new String[6], staying),
        "the leader, one staying, an overlapping finalist, one with a single round and one just above stay");
    String[] failed = {null, null, null, "failed in final round 1: boom", null, null};
    assertArrayEquals(new boolean[6], FinalRounds.outclassed(rounds, failed, staying),
        "a failed finalist's rounds have ended already");
  }
}
