package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/**
 * HETERO's sub-model split on small hand-made graphs. Every expected count was compiled on the real
 * runtime (OpenVINO 2026.4.1 wheel, {@code HETERO:CPU,CPU2} with the CPU plugin registered again as
 * CPU2, manual affinities: the named ops on CPU2, the rest on CPU, Parameters on their earliest
 * consumer's device, Results on their producer's) and read back as {@code HETERO_NUMBER_OF_SUBMODELS}.
 */
class HeteroSplitTest {
  private static final long[] DIMS = {1, 16};

  @Test
  void aForeignOpOnOneBranchOfADiamondCutsTheJoinOff() {
    // x -> a -> {b, c} -> d = b + c. The CPU ops a, c, d are connected without b, but d needs b
    // which needs a: one CPU sub-model would feed CPU2 and wait for it.
    assertEquals(3, subModels(diamond(), Set.of("b")));
    // x follows a (its earliest consumer) to CPU2: {x, a} and {b, c, d} without a cycle.
    assertEquals(2, subModels(diamond(), Set.of("a")));
    assertEquals(1, subModels(diamond(), Set.of()));
  }

  @Test
  void aForeignOpInAResidualChainSplitsTheChainBelowIt() {
    assertEquals(3, subModels(residual(4, false), Set.of("y1")));
    assertEquals(3, subModels(residual(4, false), Set.of("y2")));
    assertEquals(3, subModels(residual(4, false), Set.of("z3")));
    assertEquals(3, subModels(residual(4, false), Set.of("h1")));
    assertEquals(1, subModels(residual(4, false), Set.of()));
  }

  @Test
  void aResidualChainWithASideOutput() {
    assertEquals(3, subModels(residual(4, true), Set.of("y1")));
  }

  @Test
  void aConstantSharedByTwoBranchesJoinsThemIntoOneSubgraphThatMustBeCut() {
    // m1 = b * k and m2 = tanh(x) * k share the Constant k: HETERO's subgraph {x, a, k, m1, c, m2, d}
    // feeds b (CPU2) and needs it back, so it is cut into more pieces than the ops' own components.
    assertEquals(4, subModels(sharedConstant(), Set.of("b")));
    assertEquals(4, subModels(sharedConstant(), Set.of("b", "m1")));
    assertEquals(3, subModels(sharedConstant(), Set.of("c")));
  }

  @Test
  void theParameterJoinsItsEarliestConsumersSubgraph() {
    // x -> {a, g}, c = a + g, Results on c and a. With g foreign, x sits in a's subgraph, which feeds g.
    assertEquals(3, subModels(forkWithSideOutput(), Set.of("g")));
    // With a foreign, x follows a: {x, a} feeds both g and c, no cycle.
    assertEquals(2, subModels(forkWithSideOutput(), Set.of("a")));
  }

  /** x -> a -> b(sigmoid) -> m1 = b * k; x -> c(tanh) -> m2 = c * k; d = m1 + m2, one Constant k. */
  static OpGraph sharedConstant() {
    TinyGraphs.Builder b = TinyGraphs.builder("shared_const");
    int x = b.parameter("x", DIMS);
    int k = b.constant("k", ElementType.F32, DIMS);
    int a = b.op("a", "ReLU", DIMS, x);
    int s = b.op("b", "Sigmoid", DIMS, a);
    int m1 = b.op("m1", "Multiply", DIMS, s, k);
    int c = b.op("c", "Tanh", DIMS, x);
    int m2 = b.op("m2", "Multiply", DIMS, c, k);
    int d = b.op("d", "Add", DIMS, m1, m2);
    b.result("out", d);
    return b.build();
  }

  /** x -> {a, g} -> c = a + g; Results on c and a. */
  static OpGraph forkWithSideOutput() {
    TinyGraphs.Builder b = TinyGraphs.builder("fork_side");
    int x = b.parameter("x", DIMS);
    int a = b.op("a", "ReLU", DIMS, x);
    int g = b.op("g", "ReLU", DIMS, x);
    int c = b.op("c", "Add", DIMS, a, g);
    b.result("out", c);
    b.result("side", a);
    return b.build();
  }

  /** x -> a -> {b = sigmoid(a), c = tanh(a)} -> d = b + c -> Result. */
  static OpGraph diamond() {
    TinyGraphs.Builder b = TinyGraphs.builder("diamond");
    int x = b.parameter("x", DIMS);
    int a = b.op("a", "ReLU", DIMS, x);
    int s = b.op("b", "Sigmoid", DIMS, a);
    int t = b.op("c", "Tanh", DIMS, a);
    int d = b.op("d", "Add", DIMS, s, t);
    b.result("out", d);
    return b.build();
  }

  /** x -> h0 = relu(x); per block i: y_i = sigmoid(h), z_i = tanh(y_i), h_i = h + z_i; Result(h_n) (and h_2). */
  static OpGraph residual(int blocks, boolean sideOutput) {
    TinyGraphs.Builder b = TinyGraphs.builder("residual");
    int x = b.parameter("x", DIMS);
    int h = b.op("h0", "ReLU", DIMS, x);
    for (int i = 1; i <= blocks; i++) {
      int y = b.op("y" + i, "Sigmoid", DIMS, h);
      int z = b.op("z" + i, "Tanh", DIMS, y);
      h = b.op("h" + i, "Add", DIMS, h, z);
      if (sideOutput && i == 2) {
        b.result("side", h);
      }
    }
    b.result("out", h);
    return b.build();
  }

  /** The predicted count with the named ops on device 1 and every other node resolved by {@link HeteroRules}. */
  static int subModels(OpGraph g, Set<String> foreign) {
    HeteroCostModel model = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT));
    int[] placed = new int[g.nodeCount()];
    for (int v = 0; v < placed.length; v++) {
      placed[v] = foreign.contains(g.node(v).name()) ? 1 : 0;
    }
    int[] resolved = new HeteroRules(g).resolve(placed);
    int[] deviceOfOp = new int[model.opCount()];
    for (int i = 0; i < deviceOfOp.length; i++) {
      deviceOfOp[i] = resolved[model.node(i)];
    }
    return model.subModels(deviceOfOp, new int[deviceOfOp.length]);
  }

  /**
   * An IR v10 file with two identical ShapeOf → StridedSlice chains on a data tensor: the reader
   * merges them, but the chains' ops are costed, so each keeps its position and its constants.
   */
  @Test
  void mergedShapeChainsOfCostedOpsKeepTheirConstants() {
    TinyGraphs.Builder b = TinyGraphs.builder("twinsOnData").irVersion(10);
    int x = b.parameter("x", 1, 3, 8, 8);
    int r = b.op("r", "ReLU", new long[] {1, 3, 8, 8}, x);
    for (int k = 0; k < 2; k++) {
      int s = b.op("s" + k, "ShapeOf", Map.of("output_type", "i64"), ElementType.I64, new long[] {4}, r);
      int ss = b.op("ss" + k, "StridedSlice", Map.of("end_mask", "1"), ElementType.I64, new long[] {2}, s,
          b.constant("begin" + k, ElementType.I64, 1), b.constant("end" + k, ElementType.I64, 1),
          b.constant("stride" + k, ElementType.I64, 1));
      b.result("out" + k, b.op("rs" + k, "Reshape", new long[] {1, 192}, r, ss));
    }
    OpGraph g = b.build();
    HeteroCostModel model = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT));
    int[] allCpu = new int[model.opCount()];
    java.util.Arrays.fill(allCpu, model.indexOf("CPU"));
    assertEquals(1, model.subModels(allCpu, new int[allCpu.length]));
    int[] split = allCpu.clone();
    split[split.length - 1] = model.indexOf("GPU.1");
    assertTrue(model.subModels(split, new int[split.length]) >= 2);
  }
}
