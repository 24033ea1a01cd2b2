package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.Strategies;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** Splits HETERO refused at run time are learned: no later placement with a refused cut is measured. */
class LearnedRefusalsTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /** x → a → b → c → d → out. */
  private static OpGraph chain() {
    TinyGraphs.Builder b = TinyGraphs.builder("chain");
    long[] dims = {1, 64, 32, 32};
    int h = b.parameter("x", dims);
    for (String n : new String[] {"a", "b", "c", "d"}) {
      h = b.op(n, "ReLU", dims, h);
    }
    b.result("out", h);
    return b.build();
  }

  /** The simulator, except that HETERO fails creating the infer request of any placement with b on CPU feeding c on GPU.1. */
  private static final class RefusesBc implements LatencyBackend {
    final SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    final List<Placement> measured = new ArrayList<>();
    final int b;
    final int c;

    RefusesBc(OpGraph g) {
      b = g.indexOf("b");
      c = g.indexOf("c");
    }

    boolean cuts(Placement p) {
      return p.deviceOf(b) == 0 && p.deviceOf(c) == 1;
    }

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public String profile() {
      return sim.profile();
    }

    @Override
    public boolean simulated() {
      return true;
    }

    @Override
    public List<DeviceInfo> devices() {
      return sim.devices();
    }

    @Override
    public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
      return sim.supports(graph, devices);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement p, MeasurementProtocol protocol) {
      measured.add(p);
      return cuts(p) ? Measurement.failed("infer request on HETERO:CPU,GPU.1 (compiled, then refused): zero-sized",
          name(), profile()) : sim.measure(graph, p, protocol);
    }
  }

  private static Placement of(OpGraph g, String... onGpu) {
    int[] d = new int[g.nodeCount()];
    for (String n : onGpu) {
      d[g.indexOf(n)] = 1;
    }
    return new Placement(DEVICES, d);
  }

  @Test
  void aCutThatFailedIsAnsweredWithoutMeasuringAfterwards() {
    OpGraph g = chain();
    RefusesBc fake = new RefusesBc(g);
    SearchEngine engine = SearchEngine.builder(fake, g, DEVICES).seed(1).build();
    assertFalse(engine.measure(of(g, "c", "d"), 0).ok());
    Measurement again = engine.measure(of(g, "c"), 0);
    assertTrue(again.reason().startsWith(LearnedRefusals.PREFIX), again.reason());
    assertTrue(again.reason().contains("'b' on CPU feeds 'c' on GPU.1"), again.reason());
    assertFalse(new SearchStep(0, of(g, "c"), again, false).spentMeasurement());
    assertEquals(1, fake.measured.size());
    assertEquals(1, engine.learnedRefusals().size());
    // The other direction is another cut, measured (and taken); so is one without the cut.
    assertTrue(engine.measure(of(g, "a", "b"), 0).ok());
    assertTrue(engine.measure(of(g, "d"), 0).ok());
    assertEquals(3, fake.measured.size());
  }

  @Test
  void aCutThatRanIsNeverLearnedAsRefused() {
    OpGraph g = chain();
    RefusesBc fake = new RefusesBc(g);
    SearchEngine engine = SearchEngine.builder(fake, g, DEVICES).seed(1).build();
    // c (GPU.1) → d (CPU) ran; then a placement with it and b (CPU) → c (GPU.1) fails: only b → c is learned.
    assertTrue(engine.measure(of(g, "a", "b", "c"), 0).ok());
    assertFalse(engine.measure(of(g, "c"), 0).ok());
    assertEquals(List.of("b"), engine.learnedRefusals().stream().map(LearnedRefusals.Learned::producer).toList());
    assertTrue(engine.measure(of(g, "b", "c"), 0).ok());
    assertEquals(3, fake.measured.size());
  }

  @Test
  void noStrategyMeasuresARefusedCutTwice() throws IOException {
    OpGraph g = chain();
    for (String name : List.of("random", Strategies.DEFAULT)) {
      RefusesBc fake = new RefusesBc(g);
      SearchEngine engine = SearchEngine.builder(fake, g, DEVICES).seed(3).build();
      SearchOutcome o = engine.run(Strategies.create(name), SearchLimits.of(12), 3, SearchListener.NONE);
      long withCut = fake.measured.stream().filter(fake::cuts).count();
      assertTrue(withCut <= 1, name + " measured " + withCut + " placements cutting b → c");
      assertTrue(withCut == 1 || !name.equals("random"), name + " never proposed a placement cutting b → c");
      long answered = o.steps().stream().filter(s -> !s.cached() && !s.measurement().ok()
          && s.measurement().reason().startsWith(LearnedRefusals.PREFIX)).count();
      assertEquals(o.steps().stream().filter(s -> !s.cached() && fake.cuts(s.placement())).count(),
          withCut + answered, name);
    }
  }
}
