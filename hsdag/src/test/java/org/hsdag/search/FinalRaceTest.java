package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who leaves the final race early ({@link RaceRules}), on scripted round latencies. */
class FinalRaceTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @TempDir
  Path tmp;
  private OpGraph graph;
  private Placement cpu;
  private Placement gpu;
  private Placement split;

  @BeforeEach
  void model() throws IOException {
    graph = TestModels.read(TestModels.twoBranch(tmp));
    cpu = Placement.allOn(DEVICES, graph.nodeCount(), "CPU");
    gpu = Placement.allOn(DEVICES, graph.nodeCount(), "GPU.1");
    int[] a = new int[graph.nodeCount()];
    a[graph.topologicalOrder()[graph.nodeCount() - 1]] = 1;
    split = new Placement(DEVICES, a);
  }

  /** Each measurement of a placement reports the next of its scripted latencies (every run alike). */
  private static final class Scripted implements LatencyBackend {
    private final FakeBackend shape = FakeBackend.cpuGpu();
    private final Map<Placement, double[]> script = new HashMap<>();
    private final Map<Placement, Integer> calls = new HashMap<>();

    void script(Placement p, double... ms) {
      script.put(p, ms);
    }

    int calls(Placement p) {
      return calls.getOrDefault(p, 0);
    }

    @Override
    public String name() {
      return "scripted";
    }

    @Override
    public String profile() {
      return "test";
    }

    @Override
    public boolean simulated() {
      return true;
    }

    @Override
    public List<DeviceInfo> devices() {
      return shape.devices();
    }

    @Override
    public SupportMatrix supports(OpGraph g, DeviceSet set) {
      return shape.supports(g, set);
    }

    @Override
    public Measurement measure(OpGraph g, Placement p, MeasurementProtocol protocol) {
      int k = calls.merge(p, 1, Integer::sum) - 1;
      double[] samples = new double[protocol.runs()];
      Arrays.fill(samples, script.get(p)[k]);
      return Measurement.of(samples, protocol, 1, name(), profile());
    }
  }

  private FinalResult race(Scripted backend, List<Finalist> finalists, List<Integer> totals) throws IOException {
    SearchEngine e = SearchEngine.builder(backend, graph, DEVICES).protocol(MeasurementProtocol.PAPER).seed(1)
        .build();
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
    return e.remeasure(finalists, 5, 11, Map.of(), counting);
  }

  @Test
  void aSplitThatCanNoLongerEndClearlyFasterThanTheSingleDeviceLeavesAndTheRaceEnds() throws IOException {
    Scripted b = new Scripted();
    // A near tie a hair slower than CPU alone: its rounds sit above CPU's second-fastest, so however the
    // next 7 go, its interval of the median cannot end below CPU's (before: 10 rounds each for CPU and it).
    b.script(cpu, 10.0, 10.2, 9.9, 10.1, 10.0, 10.0, 10.1, 9.9, 10.0, 10.1);
    b.script(gpu, 20.0, 20.5, 19.8, 20.1, 20.2);
    b.script(split, 10.25, 10.3, 10.05, 9.95, 10.0, 10.1, 9.9, 10.0, 10.05, 10.0);
    List<Integer> totals = new ArrayList<>();
    FinalResult r = race(b, List.of(new Finalist("CPU-only", true, cpu, -1, null),
        new Finalist("GPU.1-only", true, gpu, -1, null), new Finalist("step 3", false, split, 3, null)), totals);
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, b.calls(split), "the split cannot be the pick: no more rounds");
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, b.calls(gpu), "a single device clearly slower than CPU leaves");
    assertEquals(SearchEngine.MIN_ROUNDS_TO_RACE, b.calls(cpu), "alone in the race, nothing left to compare");
    assertEquals(Decision.SINGLE_DEVICE_FASTEST, r.verdict().decision());
    assertEquals("CPU-only", r.verdict().winner().label());
    assertEquals(3, r.candidates().get(2).rounds());
    assertEquals(9 + 1, totals.size(), "each measurement reported once, then the end");
    assertEquals(totals.size() - 1, totals.get(totals.size() - 1), "the race ends announcing what was measured");
  }

  @Test
  void aSplitThatCanStillEndClearlyFasterStaysInTheRace() throws IOException {
    Scripted b = new Scripted();
    // Overlapping CPU after 3 rounds, but 7 more fast rounds could still separate it: it races on.
    b.script(cpu, 10.0, 10.2, 9.9, 10.1, 10.0, 10.0, 10.1, 9.9, 10.0, 10.1);
    b.script(gpu, 20.0, 20.5, 19.8, 20.1, 20.2);
    b.script(split, 9.5, 10.3, 9.4, 9.5, 9.45, 9.5, 9.4, 9.5, 9.45, 9.4);
    FinalResult r = race(b, List.of(new Finalist("CPU-only", true, cpu, -1, null),
        new Finalist("GPU.1-only", true, gpu, -1, null), new Finalist("step 3", false, split, 3, null)),
        new ArrayList<>());
    assertTrue(b.calls(split) >= 5, "the fixed rounds at least");
    assertEquals(b.calls(split), b.calls(cpu), "the reference single device races as long");
    assertEquals(Decision.SPLIT_WINS, r.verdict().decision());
    assertEquals("step 3", r.verdict().winner().label());
  }

  @Test
  void aSingleDeviceFarSlowerAtItsFirstMeasurementDoesNotRace() throws IOException {
    Scripted b = new Scripted();
    b.script(cpu, 10.0, 10.2, 9.9, 10.1, 10.0, 10.0, 10.1, 9.9, 10.0, 10.1, 10.0);
    b.script(gpu, 25.0, 25.5, 24.8, 25.1, 25.2);
    b.script(split, 9.5, 9.4, 9.5, 9.45, 9.5, 9.4, 9.5, 9.45, 9.4, 9.5);
    SearchEngine e = SearchEngine.builder(b, graph, DEVICES).protocol(MeasurementProtocol.PAPER).seed(1).build();
    Measurement cpuFirst = e.measure(cpu, 0);
    Measurement gpuFirst = e.measure(gpu, 0);
    List<Integer> totals = new ArrayList<>();
    FinalResult r = race(b, List.of(new Finalist("CPU-only", true, cpu, -1, cpuFirst),
        new Finalist("GPU.1-only", true, gpu, -1, gpuFirst), new Finalist("step 3", false, split, 3, null)), totals);
    assertEquals(1, b.calls(gpu), "25 ms against 10 ms at the first measurement: no rounds");
    assertEquals(0, r.candidates().get(1).rounds());
    assertEquals(25.0, r.candidates().get(1).finalMs(), 1e-9, "its first measurement stands as its figure");
    assertEquals(6, b.calls(cpu), "the reference single device races");
    assertEquals(Decision.SPLIT_WINS, r.verdict().decision());
    assertTrue(r.verdict().text().contains("than CPU-only"), r.verdict().text());
    assertEquals(2 * 5, totals.get(0), "the announced rounds leave it out");

    Scripted near = new Scripted();
    near.script(cpu, 10.0, 10.2, 9.9, 10.1, 10.0, 10.0);
    near.script(gpu, 19.0, 20.0, 20.5, 19.8, 20.1, 20.2);
    near.script(split, 9.5, 9.4, 9.5, 9.45, 9.5);
    SearchEngine e2 = SearchEngine.builder(near, graph, DEVICES).protocol(MeasurementProtocol.PAPER).seed(1).build();
    Measurement cpu2 = e2.measure(cpu, 0);
    Measurement gpu2 = e2.measure(gpu, 0);
    race(near, List.of(new Finalist("CPU-only", true, cpu, -1, cpu2), new Finalist("GPU.1-only", true, gpu, -1, gpu2),
        new Finalist("step 3", false, split, 3, null)), new ArrayList<>());
    assertEquals(1 + SearchEngine.MIN_ROUNDS_TO_RACE, near.calls(gpu),
        "19 ms is under twice 10 ms: it races until it is clearly slower");
  }

  @Test
  void couldEndClearlyFasterTakesTheBestCaseOfEveryCountOfFurtherRounds() {
    assertTrue(RaceRules.couldEndClearlyFaster(new double[] {1, 1.1, 1}, new double[] {2, 2.1, 2}, 0));
    // Already overlapping, and every value of s sits above b's second fastest: no 10-round future separates them.
    assertFalse(RaceRules.couldEndClearlyFaster(new double[] {2.1, 2.2, 2.3}, new double[] {2.0, 2.05, 2.1}, 7));
    // Overlapping now (1.5 above b's 1.2), but 7 more fast rounds put s's interval at 1.0, below b's.
    double[] s = {1.0, 1.5, 1.0};
    double[] b = {1.2, 1.3, 1.25};
    assertFalse(RaceRules.couldEndClearlyFaster(s, b, 0));
    assertTrue(RaceRules.couldEndClearlyFaster(s, b, 7));
  }

  @Test
  void futileAreSearchFinalistsUnableToBeatAnySingleDeviceRacing() {
    List<List<Double>> rounds = List.of(List.of(10.0, 10.2, 9.9), List.of(20.0, 20.5, 19.8),
        List.of(10.25, 10.3, 10.05), List.of(10.25, 10.3, 10.05), List.of(9.5, 9.4, 9.6), List.of(12.0));
    boolean[] baseline = {true, true, false, false, false, false};
    boolean[] staying = {true, true, false, true, false, false};
    boolean[] gpuLeft = {false, true, false, false, false, false};
    assertArrayEquals(new boolean[] {false, false, true, false, false, false},
        RaceRules.futile(rounds, new String[6], baseline, staying, gpuLeft, 7),
        "baselines, a placement given to measure, one that can still win and one with a single round stay");
    assertArrayEquals(new boolean[6], RaceRules.futile(rounds, new String[6], baseline, staying, new boolean[6], 7),
        "while the 20 ms single device races it may end the fastest one, and every split can beat it");
    assertArrayEquals(new boolean[6], RaceRules.futile(rounds, new String[6], new boolean[6], staying,
        new boolean[6], 7), "no single device racing: a split wins without beating one");
  }

  @Test
  void slowerSingleDevicesAreThoseClearlyAboveTheFastestSingleDevice() {
    List<List<Double>> rounds = List.of(List.of(10.0, 10.2, 9.9), List.of(20.0, 20.5, 19.8),
        List.of(5.0, 5.1, 5.2), List.of(10.3, 10.4, 10.5));
    boolean[] baseline = {true, true, false, true};
    assertArrayEquals(new boolean[] {false, true, false, false},
        RaceRules.slowerSingleDevices(rounds, new String[4], baseline),
        "measured against the fastest single device, not the faster split; a near tie stays");
  }
}
