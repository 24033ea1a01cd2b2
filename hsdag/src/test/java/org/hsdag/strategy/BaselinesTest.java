package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.backend.Measurement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.StopReason;
import org.hsdag.search.SearchStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BaselinesTest {
  private static final Grouping G = Grouping.CONSTANTS_WITH_CONSUMER;

  /** The first {@code count} proposals of a run with the fake backend's measurements fed back (fewer if it finishes). */
  static List<Placement> proposals(SearchStrategy s, TinyGraphs.Instance inst, int count, long seed) {
    SearchContext ctx = inst.context(count, seed);
    s.init(ctx);
    List<Placement> out = new ArrayList<>();
    while (out.size() < count && !s.finished()) {
      List<Placement> batch = s.ask(count - out.size());
      List<Measurement> results = new ArrayList<>();
      for (Placement p : batch) {
        results.add(inst.backend().measure(inst.graph(), p, MeasurementProtocol.PAPER));
      }
      s.tell(batch, results);
      out.addAll(batch);
    }
    return out;
  }

  static void assertRespectsSupport(List<Placement> ps, SupportMatrix support) {
    for (Placement p : ps) {
      for (int v = 0; v < p.size(); v++) {
        if (support.mask(v) != 0) {
          assertTrue(support.allowed(v, p.deviceOf(v)),
              "node " + v + " proposed on disallowed device " + p.deviceName(v));
        }
      }
    }
  }

  static List<Supplier<SearchStrategy>> searchers() {
    return List.of(
        RandomSearchStrategy::new,
        () -> new LocalSearchStrategy(G),
        () -> new BrkgaStrategy("brkga", G, BrkgaStrategy.Config.REGAL),
        () -> new LocalSearchStrategy(Grouping.PER_OP),
        () -> new BrkgaStrategy("brkga", Grouping.PER_OP, BrkgaStrategy.Config.REGAL));
  }

  @Test
  void searchersRespectSupportAndAreDeterministicPerSeed() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    SupportMatrix support = inst.context(1, 1).support();
    for (Supplier<SearchStrategy> f : searchers()) {
      List<Placement> a = proposals(f.get(), inst, 150, 7);
      List<Placement> b = proposals(f.get(), inst, 150, 7);
      List<Placement> c = proposals(f.get(), inst, 150, 8);
      assertEquals(150, a.size());
      assertEquals(a, b, f.get().name() + " differs between two runs with one seed");
      assertNotEquals(a, c, f.get().name() + " ignores its seed");
      assertRespectsSupport(a, support);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void brkgaAndGreedyFindThePlantedOptimum(long seed) {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    for (SearchStrategy s : List.of(new BrkgaStrategy("brkga", G, BrkgaStrategy.Config.REGAL),
        new LocalSearchStrategy(G))) {
      SearchOutcome t = inst.run(s, 500, seed);
      assertEquals(inst.optimumLatency(), t.best().latencyMillis(), 1e-9, s.name() + " missed the optimum");
      assertArrayEquals(inst.optimum().deviceOf(), t.best().placement().deviceOf(), s.name());
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void randomFindsTheOptimumOfAnEasyInstance(long seed) {
    TinyGraphs.Instance inst = TinyGraphs.easy();
    SearchOutcome t = inst.run(new RandomSearchStrategy(), 300, seed);
    assertArrayEquals(inst.optimum().deviceOf(), t.best().placement().deviceOf());
    // The budget counts distinct placements: random search measures all 2^3 there are (constants,
    // Parameter and Result follow their neighbours) and then only re-proposes measured ones.
    assertEquals(8, t.measurements());
    assertEquals(StopReason.TOO_MANY_PROPOSALS, t.stop());
  }

  @Test
  void greedyBeatsItsSingleDeviceStartsWithFewMeasurements() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    SearchOutcome t = inst.run(new LocalSearchStrategy(G), 60, 5);
    double bestStart = t.bestSoFarPerMeasurement()[2];
    assertTrue(t.best().latencyMillis() < bestStart, "no improvement over the single-device starts");
  }

  @Test
  void brkgaKeepsElitesAndBreedsGenerations() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    BrkgaStrategy s = new BrkgaStrategy("brkga", Grouping.PER_OP, BrkgaStrategy.Config.REGAL);
    SearchOutcome t = inst.run(s, 400, 3);
    assertTrue(s.generation() >= 3, "generation " + s.generation());
    // Best-so-far never rises and ends strictly below the best of the random initial population.
    double[] b = t.bestSoFarPerMeasurement();
    for (int i = 1; i < b.length; i++) {
      assertTrue(b[i] <= b[i - 1]);
    }
    assertTrue(b[b.length - 1] < b[99]);
  }

  @Test
  void brkgaConfigRejectsBadSizes() {
    assertThrows(IllegalArgumentException.class, () -> new BrkgaStrategy.Config(100, 10, 95, 0.7, false));
    assertThrows(IllegalArgumentException.class, () -> new BrkgaStrategy.Config(100, 10, 80, 0.3, false));
  }

  @Test
  void singleDeviceProposesExactlyOnceAndRespectsSupport() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    for (String dev : List.of("CPU", "GPU.0", "GPU.1")) {
      SingleDeviceStrategy s = new SingleDeviceStrategy(dev.toLowerCase(Locale.ROOT), dev);
      List<Placement> ps = proposals(s, inst, 500, 1);
      assertEquals(1, ps.size());
      assertTrue(s.finished());
      Placement p = ps.get(0);
      int d = inst.devices().indexOf(dev);
      for (int v = 0; v < p.size(); v++) {
        boolean allowed = inst.context(1, 1).support().allowed(v, d);
        assertEquals(allowed ? d : 0, p.deviceOf(v), "node " + v + " on " + dev + "-only");
      }
    }
  }

  @Test
  void singleDeviceNeedsItsDevice() {
    TinyGraphs.Instance inst = TinyGraphs.easy();
    SingleDeviceStrategy s = new SingleDeviceStrategy("gpu0", "GPU.0");
    assertThrows(InvalidPlacementException.class, () -> s.init(inst.context(10, 1)));
  }

  @Test
  void autoPicksTheFirstDeviceInPriorityThatRunsEverything() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    DeviceSet ds = inst.devices();
    int n = inst.graph().nodeCount();
    // Everything supported everywhere: CPU-first picks CPU, GPU-first the discrete GPU.1.
    SearchContext all = SearchContext.builder(inst.graph(), ds, SupportMatrix.all(ds, n)).budget(10).seed(1).build();
    AutoEmulationStrategy cpu = new AutoEmulationStrategy("openvino-cpu", AutoEmulationStrategy.Preference.CPU);
    cpu.init(all);
    assertEquals(Placement.allOn(ds, n, "CPU"), cpu.propose());
    assertTrue(cpu.finished());
    AutoEmulationStrategy gpu = new AutoEmulationStrategy("openvino-gpu", AutoEmulationStrategy.Preference.GPU);
    gpu.init(all);
    assertEquals(List.of("GPU.1", "GPU.0", "CPU"), gpu.priority());
    assertEquals(Placement.allOn(ds, n, "GPU.1"), gpu.propose());
    assertEquals(AutoEmulationStrategy.Mode.AUTO_SINGLE_DEVICE, gpu.mode());
    // One op CPU-only: GPU-first AUTO cannot use a GPU for the whole model and falls to CPU.
    gpu.init(inst.context(10, 1));
    assertEquals(Placement.allOn(ds, n, "CPU"), gpu.propose());
  }

  @Test
  void autoOrdersGpusByTheKindTheBackendStatesNotByTheirNames() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    DeviceSet ds = inst.devices();
    int n = inst.graph().nodeCount();
    // A machine whose GPU.0 is the discrete GPU and GPU.1 the integrated one.
    List<DeviceKind> kinds = List.of(DeviceKind.CPU, DeviceKind.DISCRETE_GPU, DeviceKind.INTEGRATED_GPU);
    SearchContext ctx = SearchContext.builder(inst.graph(), ds, SupportMatrix.all(ds, n)).deviceKinds(kinds).budget(10)
        .seed(1)
        .build();
    AutoEmulationStrategy gpu = new AutoEmulationStrategy("openvino-gpu", AutoEmulationStrategy.Preference.GPU);
    gpu.init(ctx);
    assertEquals(List.of("GPU.0", "GPU.1", "CPU"), gpu.priority());
    assertEquals(Placement.allOn(ds, n, "GPU.0"), gpu.propose());
  }

  @Test
  void autoMovesOnWhenTheModelDoesNotFitItsFirstDevice() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    DeviceSet ds = inst.devices();
    int n = inst.graph().nodeCount();
    // GPU.1 holds one byte: compiling there fails, so AUTO compiles on the next device in its order.
    MemoryCheck memory = MemoryCheck.of(inst.graph(), ds, MemoryLimits.parse("GPU.1=1B"), Map.of());
    SearchContext ctx = SearchContext.builder(inst.graph(), ds, SupportMatrix.all(ds, n)).memory(memory).budget(10)
        .seed(1).build();
    AutoEmulationStrategy gpu = new AutoEmulationStrategy("openvino-gpu", AutoEmulationStrategy.Preference.GPU);
    gpu.init(ctx);
    assertEquals(Placement.allOn(ds, n, "GPU.0"), gpu.propose());
    assertEquals(AutoEmulationStrategy.Mode.AUTO_SINGLE_DEVICE, gpu.mode());
    assertTrue(AutoEmulationStrategy.singleDevice(ds, SupportMatrix.all(ds, n), n, List.of(2), memory::fits).isEmpty(),
        "GPU.1 alone is no answer when it cannot hold the model");
  }

  @Test
  void autoFallsBackToHeteroGreedyWhenNoDeviceRunsEverything() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    DeviceSet ds = inst.devices();
    int n = inst.graph().nodeCount();
    long[] mask = new long[n];
    Arrays.fill(mask, 0b111);
    mask[2] = 0b001; // CPU only
    mask[3] = 0b010; // GPU.0 only
    SearchContext ctx = SearchContext.builder(inst.graph(), ds, new SupportMatrix(ds, mask)).budget(10).seed(1).build();
    AutoEmulationStrategy gpu = new AutoEmulationStrategy("openvino-gpu", AutoEmulationStrategy.Preference.GPU);
    gpu.init(ctx);
    Placement p = gpu.propose();
    assertEquals(AutoEmulationStrategy.Mode.HETERO_AUTOMATIC, gpu.mode());
    for (int v = 0; v < n; v++) {
      int expected = v == 2 ? 0 : v == 3 ? 1 : 2;
      assertEquals(expected, p.deviceOf(v), "node " + v);
    }
    AutoEmulationStrategy cpu = new AutoEmulationStrategy("openvino-cpu", AutoEmulationStrategy.Preference.CPU);
    cpu.init(ctx);
    Placement q = cpu.propose();
    for (int v = 0; v < n; v++) {
      assertEquals(v == 3 ? 1 : 0, q.deviceOf(v), "node " + v);
    }
  }

  @Test
  void constantsJoinTheirConsumer() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    int[] g = Grouping.CONSTANTS_WITH_CONSUMER.groupOf(inst.graph());
    PlacementSpace space = PlacementSpace.grouped(inst.graph(), inst.devices(), inst.context(1, 1).support(), g);
    assertEquals(inst.graph().nodeCount() - 2, space.unitCount());
    for (int v = 0; v < inst.graph().nodeCount(); v++) {
      if (inst.graph().node(v).isConstant()) {
        assertEquals(space.unitOf(inst.graph().successor(v, 0)), space.unitOf(v));
      }
    }
    assertFalse(space.unitGraph().edgeCount() == 0);
  }

  @Test
  void seededBrkgaMeasuresTheSingleDevicePlacementsFirst() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    List<Placement> ps = proposals(new BrkgaStrategy("ref", G, BrkgaStrategy.Config.SEEDED), inst, 3, 1);
    SupportMatrix support = inst.context(1, 1).support();
    for (int d = 0; d < 3; d++) {
      for (int v = 0; v < ps.get(d).size(); v++) {
        assertEquals(support.allowed(v, d) ? d : 0, ps.get(d).deviceOf(v));
      }
    }
  }
}
