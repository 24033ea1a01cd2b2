package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** An int8 kernel costs its int8 time only while the FakeQuantize that feeds it shares its sub-model. */
class QuantizedInputsTest {
  private static final long[] SHAPE = {1, 8, 16, 16};

  /** x -> relu -> FakeQuantize -> conv -> out; the conv's weights and the FakeQuantize's ranges are constants. */
  private static OpGraph int8Conv() {
    TinyGraphs.Builder b = TinyGraphs.builder("int8-conv");
    int x = b.parameter("x", SHAPE);
    int relu = b.op("relu", "ReLU", SHAPE, x);
    int lo = b.constant("lo", ElementType.F32, 1);
    int hi = b.constant("hi", ElementType.F32, 1);
    int fq = b.op("fq", "FakeQuantize", java.util.Map.of("levels", "256"), ElementType.F32, SHAPE, relu, lo, hi, lo,
        hi);
    int w = b.constant("w", ElementType.F32, 8, 8, 1, 1);
    int conv = b.op("conv", "Convolution", java.util.Map.of("strides", "1,1", "pads_begin", "0,0", "pads_end", "0,0",
        "dilations", "1,1"), ElementType.F32, SHAPE, fq, w);
    b.result("out", conv);
    return b.build();
  }

  @Test
  void theConvolutionIsQuantizedByTheFakeQuantizeOnItsDataInput() {
    OpGraph g = int8Conv();
    int[] quantizer = QuantizedInputs.quantizerOf(g, new CostModel(ShapeAssumption.DEFAULT).costs(g));
    int fq = nodeNamed(g, "fq");
    for (int v = 0; v < g.nodeCount(); v++) {
      assertEquals(g.node(v).name().equals("conv") ? fq : -1, quantizer[v], g.node(v).name());
    }
  }

  @Test
  void theConvolutionCostsItsUnquantizedTimeOnlyWhenItsFakeQuantizeRunsElsewhere() {
    OpGraph g = int8Conv();
    CostModel cm = new CostModel(ShapeAssumption.DEFAULT);
    int n = g.nodeCount();
    int conv = nodeNamed(g, "conv");
    double[][] int8 = new double[2][n];
    double[][] apart = new double[2][n];
    for (int d = 0; d < 2; d++) {
      for (int v = 0; v < n; v++) {
        int8[d][v] = 10;
        apart[d][v] = v == conv ? 25 : 10;
      }
    }
    double[][] alone = {apart[0].clone(), apart[1].clone()};
    List<HeteroDevice> devices = List.of(new HeteroDevice("A", 0, 0, 0), new HeteroDevice("B", 0, 0, 0));
    HeteroCostModel model = HeteroCostModel.forGraph(g, cm.costs(g), cm.shapes(), devices, 0,
        KernelTimes.byNode(alone, int8, null));
    int convOp = opOf(model, conv);
    int fqOp = opOf(model, nodeNamed(g, "fq"));
    assertEquals(fqOp, model.fuseInto(convOp), "the link the planners see as a pairwise saving");
    int[] together = new int[model.opCount()];
    int[] apartPlacement = together.clone();
    apartPlacement[fqOp] = 1;
    double kernelsTogether = 10.0 * model.opCount();
    assertEquals(kernelsTogether, model.evaluate(together).micros(), 1e-9);
    assertEquals(kernelsTogether + 15, model.evaluate(apartPlacement).micros(), 1e-9);
  }

  @Test
  void withoutUnquantizedTimesNothingIsLinked() {
    OpGraph g = int8Conv();
    HeteroCostModel sim = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT));
    int[] none = new int[sim.opCount()];
    java.util.Arrays.fill(none, -1);
    int[] links = new int[sim.opCount()];
    for (int i = 0; i < links.length; i++) {
      links[i] = g.node(sim.node(i)).type().equals("Convolution") ? sim.fuseInto(i) : -1;
    }
    assertArrayEquals(none, links, "the simulator's kernels keep their times: no link");
  }

  private static int nodeNamed(OpGraph g, String name) {
    for (int v = 0; v < g.nodeCount(); v++) {
      if (g.node(v).name().equals(name)) {
        return v;
      }
    }
    throw new AssertionError(name);
  }

  private static int opOf(HeteroCostModel m, int node) {
    for (int i = 0; i < m.opCount(); i++) {
      if (m.node(i) == node) {
        return i;
      }
    }
    throw new AssertionError("node " + node + " is not an op");
  }
}
