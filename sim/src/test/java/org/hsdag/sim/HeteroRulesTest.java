package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.cost.SimGraph;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/**
 * Each HETERO rule on a tiny graph with the latency worked out by hand on {@link TestProfiles#handy}.
 * A ReLU on [1,1000] f32: 1000 FLOP, 8000 B: CPU max(1, 8) + 1 = 9 µs; GPU.1 max(0.1, 0.8) + 5 = 5.8 µs.
 * A 4000 B tensor crossing to or from GPU.1 costs 7 + 4 = 11 µs; CPU copies are free.
 */
class HeteroRulesTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");
  private static final double EPS = 1e-9;

  private final SimBackend sim = new SimBackend(TestProfiles.handy(false), SimOptions.exact());

  private static Placement place(OpGraph g, String... devices) {
    int[] a = new int[g.nodeCount()];
    for (int i = 0; i < a.length; i++) {
      a[i] = DEVICES.indexOf(devices[i]);
    }
    return new Placement(DEVICES, a);
  }

  /** x → relu1 → relu2 → out. */
  private static OpGraph chain() {
    TinyGraphs.Builder b = TinyGraphs.builder("chain");
    int x = b.parameter("x", 1, 1000);
    int r1 = b.op("relu1", "ReLU", new long[] {1, 1000}, x);
    int r2 = b.op("relu2", "ReLU", new long[] {1, 1000}, r1);
    b.result("out", r2);
    return b.build();
  }

  @Test
  void singleDeviceIsOneSubModelWithItsKernelsAndOverheads() {
    OpGraph g = chain();
    SimGraph.Evaluation cpu = sim.evaluate(g, place(g, "CPU", "CPU", "CPU", "CPU"));
    assertEquals(100 + 10 + 9 + 9, cpu.micros(), EPS);
    assertEquals(1, cpu.subModels());
    // On the dGPU the model input is copied in and the output copied out over the link.
    SimGraph.Evaluation gpu = sim.evaluate(g, place(g, "GPU.1", "GPU.1", "GPU.1", "GPU.1"));
    assertEquals(100 + 20 + 5.8 + 5.8 + 11 + 11, gpu.micros(), EPS);
    assertEquals(1, gpu.subModels());
  }

  @Test
  void boundaryTensorPaysLinkLatencyPlusBytesOverBandwidthAndSubModelsAddUp() {
    OpGraph g = chain();
    SimGraph.Evaluation mixed = sim.evaluate(g, place(g, "CPU", "CPU", "GPU.1", "GPU.1"));
    // sub-models CPU{relu1}, GPU{relu2}; relu1's output enters GPU.1 (11), the result leaves it (11).
    assertEquals(100 + 10 + 20 + 9 + 5.8 + 11 + 11, mixed.micros(), EPS);
    assertEquals(2, mixed.subModels());
  }

  @Test
  void parametersAndResultsFollowTheirNeighbours() {
    OpGraph g = chain();
    double allCpu = sim.evaluate(g, place(g, "CPU", "CPU", "CPU", "CPU")).micros();
    SimGraph.Evaluation ioOnGpu = sim.evaluate(g, place(g, "GPU.1", "CPU", "CPU", "GPU.1"));
    assertEquals(allCpu, ioOnGpu.micros(), EPS);
    assertEquals(1, ioOnGpu.subModels());
  }

  @Test
  void constantsAndDecompressionConvertsRunOnTheirConsumersDevice() {
    TinyGraphs.Builder b = TinyGraphs.builder("weights");
    int x = b.parameter("x", 1, 100);
    int w = b.constant("w", ElementType.F16, 100, 100);
    int wf = b.decompress("w/decompress", w);
    int mm = b.op("mm", "MatMul", new long[] {1, 100}, x, wf);
    b.result("out", mm);
    OpGraph g = b.build();
    // MatMul: 2·100·100 = 20000 FLOP, 400 + 40000 + 400 B: CPU max(20, 40.8) + 1 = 41.8 µs.
    double expected = 100 + 10 + 41.8;
    assertEquals(expected, sim.evaluate(g, place(g, "CPU", "CPU", "CPU", "CPU", "CPU")).micros(), EPS);
    SimGraph.Evaluation weightsOnGpu = sim.evaluate(g, place(g, "CPU", "GPU.1", "GPU.1", "CPU", "CPU"));
    assertEquals(expected, weightsOnGpu.micros(), EPS);
    assertEquals(1, weightsOnGpu.subModels());
    assertFalse(sim.simGraph(g).isCompute(wf), "the decompression Convert is folded, not a kernel");
  }

  @Test
  void cycleBetweenSubModelsGetsAnExtraCut() {
    // a(CPU) → b(GPU.1) → c(CPU) and a → c: merging a and c would make {a,c} → b → {a,c}.
    TinyGraphs.Builder bld = TinyGraphs.builder("diamond");
    int x = bld.parameter("x", 1, 1000);
    int a = bld.op("a", "ReLU", new long[] {1, 1000}, x);
    int bb = bld.op("b", "ReLU", new long[] {1, 1000}, a);
    int c = bld.op("c", "Add", new long[] {1, 1000}, a, bb);
    bld.result("out", c);
    OpGraph g = bld.build();
    SimGraph.Evaluation ev = sim.evaluate(g, place(g, "CPU", "CPU", "GPU.1", "CPU", "CPU"));
    assertEquals(3, ev.subModels());
    // Add: 1000 FLOP, 12000 B → CPU 13 µs. a's output enters GPU.1 (11); b's output leaves it (11).
    assertEquals(100 + 10 + 20 + 10 + 9 + 5.8 + 13 + 11 + 11, ev.micros(), EPS);
    assertEquals(1, sim.evaluate(g, place(g, "CPU", "CPU", "CPU", "CPU", "CPU")).subModels());
  }

  @Test
  void aSameDeviceBranchRejoinedThroughAForeignOpIsCutAtTheJoin() {
    // a(CPU) and g(GPU.1) both read x (CPU, with its earliest consumer a); c(CPU) = a + g. HETERO
    // puts x in a's subgraph, which then feeds g and needs g: it cuts c off, {x, a}, {g}, {c} (3 on
    // the real runtime, HETERO:CPU,CPU2 with g on CPU2).
    TinyGraphs.Builder bld = TinyGraphs.builder("fork");
    int x = bld.parameter("x", 1, 1000);
    int a = bld.op("a", "ReLU", new long[] {1, 1000}, x);
    int gg = bld.op("g", "ReLU", new long[] {1, 1000}, x);
    int c = bld.op("c", "Add", new long[] {1, 1000}, a, gg);
    bld.result("out", c);
    OpGraph g = bld.build();
    SimGraph.Evaluation ev = sim.evaluate(g, place(g, "CPU", "CPU", "GPU.1", "CPU", "CPU"));
    assertEquals(3, ev.subModels());
    // Two CPU sub-models (10 each); x enters GPU.1 (11), g's output leaves it (11).
    assertEquals(100 + 10 + 10 + 20 + 9 + 5.8 + 13 + 11 + 11, ev.micros(), EPS);
  }

  @Test
  void smallOpOnTheGpuCarriesLaunchAndLinkCostWhileFusedOnTheCpuItIsNearlyFree() {
    SimBackend fusing = new SimBackend(TestProfiles.handy(true), SimOptions.exact());
    TinyGraphs.Builder b = TinyGraphs.builder("bias");
    int x = b.parameter("x", 1, 100);
    int w = b.constant("w", ElementType.F32, 100, 100);
    int mm = b.op("mm", "MatMul", new long[] {1, 100}, x, w);
    int bias = b.constant("bias", ElementType.F32, 1, 100);
    int add = b.op("add", "Add", new long[] {1, 100}, mm, bias);
    b.result("out", add);
    OpGraph g = b.build();
    // Fused Add: 100 FLOP / 1000 = 0.1 µs, no launch, no memory traffic.
    assertEquals(100 + 10 + 41.8 + 0.1,
        fusing.evaluate(g, place(g, "CPU", "CPU", "CPU", "CPU", "CPU", "CPU")).micros(), EPS);
    // Add alone on GPU.1: max(0.01, 0.12) + 5 µs, plus 400 B in and out over the link (7.4 µs each).
    SimGraph.Evaluation split = fusing.evaluate(g, place(g, "CPU", "CPU", "CPU", "GPU.1", "GPU.1", "CPU"));
    assertEquals(100 + 10 + 20 + 41.8 + 5.12 + 7.4 + 7.4, split.micros(), EPS);
    assertEquals(2, split.subModels());
  }

  @Test
  void opOnADeviceThatCannotRunItFailsThePlacementWithAReason() {
    TinyGraphs.Builder b = TinyGraphs.builder("gelu");
    int x = b.parameter("x", 1, 1000);
    int gelu = b.op("the_gelu", "Gelu", new long[] {1, 1000}, x);
    b.result("out", gelu);
    OpGraph g = b.build();
    Measurement m = sim.measure(g, place(g, "CPU", "GPU.1", "CPU"), MeasurementProtocol.PAPER);
    assertFalse(m.ok());
    assertTrue(m.reason().contains("the_gelu") && m.reason().contains("Gelu") && m.reason().contains("GPU.1"),
        m.reason());
    assertEquals("sim", m.backend());
    assertEquals("handy", m.profile());
    assertTrue(sim.measure(g, place(g, "CPU", "CPU", "CPU"), MeasurementProtocol.PAPER).ok());
    SupportMatrix s = sim.supports(g, DEVICES);
    assertTrue(s.allowed(gelu, 0));
    assertFalse(s.allowed(gelu, 1));
    assertTrue(s.allowed(x, 1), "a Parameter follows its neighbour, so any device is fine");
  }

  @Test
  void dynamicShapesFailOnADeviceWithoutThem() {
    TinyGraphs.Builder b = TinyGraphs.builder("dyn");
    int x = b.parameter("x", 1, -1);
    int r = b.op("relu", "ReLU", new long[] {1, -1}, x);
    b.result("out", r);
    OpGraph g = b.build();
    Measurement m = sim.measure(g, place(g, "GPU.1", "GPU.1", "GPU.1"), MeasurementProtocol.PAPER);
    assertFalse(m.ok());
    assertTrue(m.reason().contains("dynamic"), m.reason());
  }

  @Test
  void deviceMissingFromTheProfileIsAFailedMeasurementNotAnException() {
    OpGraph g = chain();
    DeviceSet withNpu = DeviceSet.of("CPU", "NPU");
    Placement p = new Placement(withNpu, new int[] {0, 1, 0, 0});
    Measurement m = sim.measure(g, p, MeasurementProtocol.PAPER);
    assertFalse(m.ok());
    assertTrue(m.reason().contains("NPU"), m.reason());
    // Naming an unknown device that no node uses is fine.
    assertTrue(sim.measure(g, new Placement(withNpu, new int[] {0, 0, 0, 0}), MeasurementProtocol.PAPER).ok());
  }

  @Test
  void zeroNoiseMeasurementIsExactAndNamesBackendProfileAndSubModels() {
    OpGraph g = chain();
    Measurement m = sim.measure(g, place(g, "CPU", "CPU", "GPU.1", "GPU.1"), MeasurementProtocol.PAPER);
    assertTrue(m.ok());
    assertEquals(10, m.samplesMillis().length);
    for (double s : m.samplesMillis()) {
      assertEquals(0.1668, s, 1e-12);
    }
    assertEquals(0.1668, m.latencyMillis(), 1e-12);
    assertEquals(2, m.subModels());
  }
}
