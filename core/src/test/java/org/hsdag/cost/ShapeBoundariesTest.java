package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/**
 * Which splits HETERO refuses, on a hand-made PriorBox graph. Every expectation was run on the real
 * runtime (OpenVINO 2026.4.1 wheel, {@code HETERO:CPU,CPU2}, the named ops on CPU2, the rest on CPU,
 * constants and Parameters on their earliest consumer's device): "refused" is {@code
 * create_infer_request} failing with "Can't set the input tensor ... (shape=(2.0)) are incompatible".
 */
class ShapeBoundariesTest {
  private static final long[] X = {1, 4, 8, 8};
  private static final long[] PRIORS = {2, 512};

  /**
   * x → a = ReLU → s = ShapeOf → ss = StridedSlice (the layer size), img → si = ShapeOf → ssi (the
   * image size), pb = PriorBoxClustered(ss, ssi) → t = Unsqueeze; x → b = ReLU → bb = ReduceSum → bbr
   * = Reshape; out = t + bbr.
   */
  static OpGraph priorBoxGraph() {
    TinyGraphs.Builder b = TinyGraphs.builder("priors");
    int x = b.parameter("x", X);
    int img = b.parameter("img", 1, 3, 64, 64);
    int a = b.op("a", "ReLU", X, x);
    int s = b.op("s", "ShapeOf", Map.of(), ElementType.I64, new long[] {4}, a);
    int ss = b.op("ss", "StridedSlice", Map.of(), ElementType.I64, new long[] {2}, s,
        b.constant("b0", ElementType.I64, 1), b.constant("e0", ElementType.I64, 1),
        b.constant("st0", ElementType.I64, 1));
    int si = b.op("si", "ShapeOf", Map.of(), ElementType.I64, new long[] {4}, img);
    int ssi = b.op("ssi", "StridedSlice", Map.of(), ElementType.I64, new long[] {2}, si,
        b.constant("b1", ElementType.I64, 1), b.constant("e1", ElementType.I64, 1),
        b.constant("st1", ElementType.I64, 1));
    int pb = b.op("pb", "PriorBoxClustered", PRIORS, ss, ssi);
    int t = b.op("t", "Unsqueeze", new long[] {1, 2, 512}, pb, b.constant("ax", ElementType.I64, 1));
    int r = b.op("b", "ReLU", X, x);
    int bb = b.op("bb", "ReduceSum", new long[] {1, 1, 1, 1}, r, b.constant("rax", ElementType.I64, 3));
    int bbr = b.op("bbr", "Reshape", new long[] {1, 1, 1}, bb, b.constant("rs", ElementType.I64, 3));
    int out = b.op("out", "Add", new long[] {1, 2, 512}, t, bbr);
    b.result("r", out);
    return b.build();
  }

  @Test
  void aPriorBoxFedALayerSizeFromAnotherSubModelIsRefusedWhenItsOutputLeaves() {
    OpGraph g = priorBoxGraph();
    // pb gets the layer size ss from CPU: its shape is [2,?] in its sub-model, and t on CPU reads it.
    assertRefused(g, Set.of("pb"), "pb", "t");
    assertRefused(g, Set.of("ss", "pb"), "pb", "t");
    // Where the image-size chain sits does not matter: ShapeOf of a model input is a constant.
    assertRefused(g, Set.of("ssi", "pb"), "pb", "t");
    assertRefused(g, Set.of("si", "ssi", "pb"), "pb", "t");
  }

  @Test
  void splitsThatKeepTheShapeChainWithItsConsumerRun() {
    OpGraph g = priorBoxGraph();
    assertRuns(g, Set.of());
    // The layer-size chain and the PriorBox together: a ShapeOf reads the static shape of its input.
    assertRuns(g, Set.of("s", "ss", "pb"));
    assertRuns(g, Set.of("a", "s", "ss", "pb"));
    assertRuns(g, Set.of("s", "ss", "pb", "t", "out", "b", "bb", "bbr"));
    // A shape vector or a static PriorBox output may cross sub-models.
    assertRuns(g, Set.of("ss"));
    assertRuns(g, Set.of("t"));
  }

  @Test
  void aDynamicTensorThatStaysInItsSubModelUpToTheModelOutputRuns() {
    // pb, t and out on CPU2 with ss from CPU: pb is [2,?] there, but only the model output leaves.
    assertRuns(priorBoxGraph(), Set.of("pb", "t", "out", "b", "bb", "bbr"));
  }

  @Test
  void theCostModelAnswersARefusedSplitAsFailedAndTheShapeOfAModelInputIsAConstant() {
    OpGraph g = priorBoxGraph();
    HeteroCostModel model = model(g);
    HeteroCostModel.Evaluation e = model.evaluate(deviceOfOp(g, model, Set.of("ss", "pb")));
    assertFalse(e.ok());
    assertTrue(e.isRefused());
    assertTrue(model.evaluate(deviceOfOp(g, model, Set.of("s", "ss", "pb"))).ok());
    assertTrue(new HeteroRules(g).isConstantOnly(g.indexOf("si")));
    assertTrue(new HeteroRules(g).isConstantOnly(g.indexOf("ssi")));
    assertFalse(new HeteroRules(g).isConstantOnly(g.indexOf("s")));
  }

  @Test
  void theReasonNamesTheBoundaryAndTheStage() {
    OpGraph g = priorBoxGraph();
    String reason = HeteroRefusal.reason(g, g.indexOf("pb"), g.indexOf("t"));
    assertTrue(reason.startsWith(HeteroRefusal.PREFIX + " (infer request)"), reason);
    assertTrue(reason.contains("'pb' (PriorBoxClustered) feeds 't' (Unsqueeze)"), reason);
  }

  @Test
  void theProfileFreeCheckThatApplyUsesAgrees() {
    OpGraph g = priorBoxGraph();
    assertTrue(HeteroRefusal.check(g, placed(g, Set.of("pb"))).orElseThrow().contains("'pb' (PriorBoxClustered)"));
    assertTrue(HeteroRefusal.check(g, placed(g, Set.of("s", "ss", "pb"))).isEmpty());
    assertTrue(HeteroRefusal.check(g, placed(g, Set.of("t"))).isEmpty());
  }

  private static int[] placed(OpGraph g, Set<String> foreign) {
    int[] placed = new int[g.nodeCount()];
    for (int v = 0; v < placed.length; v++) {
      placed[v] = foreign.contains(g.node(v).name()) ? 1 : 0;
    }
    return placed;
  }

  private static void assertRefused(OpGraph g, Set<String> foreign, String producer, String consumer) {
    HeteroCostModel model = model(g);
    int[] b = model.refusedBoundary(deviceOfOp(g, model, foreign));
    assertNotNull(b, foreign + " should be refused");
    assertEquals(producer + "->" + consumer, g.node(b[0]).name() + "->" + g.node(b[1]).name(), foreign.toString());
  }

  private static void assertRuns(OpGraph g, Set<String> foreign) {
    HeteroCostModel model = model(g);
    int[] b = model.refusedBoundary(deviceOfOp(g, model, foreign));
    assertNull(b, () -> foreign + " refused at " + g.node(b[0]).name() + "->" + g.node(b[1]).name());
  }

  private static HeteroCostModel model(OpGraph g) {
    return HeteroCostModel.forProfile(g, DeviceProfile.load("paper"), new CostModel(ShapeAssumption.DEFAULT));
  }

  private static int[] deviceOfOp(OpGraph g, HeteroCostModel model, Set<String> foreign) {
    int[] placed = new int[g.nodeCount()];
    for (int v = 0; v < placed.length; v++) {
      placed[v] = foreign.contains(g.node(v).name()) ? 1 : 0;
    }
    int[] resolved = new HeteroRules(g).resolve(placed);
    int[] deviceOfOp = new int[model.opCount()];
    for (int i = 0; i < deviceOfOp.length; i++) {
      deviceOfOp[i] = resolved[model.node(i)];
    }
    return deviceOfOp;
  }
}
