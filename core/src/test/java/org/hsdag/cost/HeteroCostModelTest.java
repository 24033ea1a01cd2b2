package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The additive cost model: other time sources, device subsets, the reusable evaluator, hand-built models. */
class HeteroCostModelTest {
  private static final double EPS = 1e-9;
  private static final List<HeteroDevice> TWO = List.of(new HeteroDevice("A", 0, 0, 10),
      new HeteroDevice("B", 7, 0.001, 20));

  @Test
  void perNodeTimesGiveTheSameModelAsTheProfileFormula() {
    OpGraph g = TinyGraphs.randomDag(120, 8, 3);
    DeviceProfile paper = DeviceProfile.load("paper");
    CostModel cm = new CostModel(ShapeAssumption.DEFAULT);
    HeteroCostModel fromProfile = HeteroCostModel.forProfile(g, paper, cm);
    int devices = paper.devices().size();
    double[][] micros = new double[devices][g.nodeCount()];
    double[][] fused = new double[devices][g.nodeCount()];
    boolean[][] supported = new boolean[devices][g.nodeCount()];
    for (int i = 0; i < fromProfile.opCount(); i++) {
      for (int d = 0; d < devices; d++) {
        micros[d][fromProfile.node(i)] = fromProfile.micros(i, d);
        fused[d][fromProfile.node(i)] = fromProfile.fusedMicros(i, d);
        supported[d][fromProfile.node(i)] = fromProfile.supported(i, d);
      }
    }
    HeteroCostModel fromTimes = HeteroCostModel.forGraph(g, cm.costs(g), cm.shapes(), HeteroDevice.of(paper),
        paper.requestOverheadUs(), KernelTimes.byNode(micros, fused, supported));
    SplittableRandom rnd = new SplittableRandom(1);
    HeteroCostModel.Evaluator reused = fromTimes.evaluator();
    for (int k = 0; k < 50; k++) {
      int[] dc = randomPlacement(fromProfile.opCount(), devices, rnd);
      HeteroCostModel.Evaluation a = fromProfile.evaluate(dc);
      assertEquals(a, fromTimes.evaluate(dc));
      assertEquals(a, reused.evaluate(dc), "a reused evaluator matches a fresh one");
    }
  }

  @Test
  void aDeviceSubsetEvaluatesLikeTheFullModel() {
    OpGraph g = TinyGraphs.randomDag(80, 6, 9);
    HeteroCostModel full = HeteroCostModel.forProfile(g, DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT));
    HeteroCostModel pair = full.withDevices(List.of("GPU.1", "CPU"));
    assertEquals(List.of("GPU.1", "CPU"), pair.deviceNames());
    int[] map = {full.indexOf("GPU.1"), full.indexOf("CPU")};
    SplittableRandom rnd = new SplittableRandom(2);
    for (int k = 0; k < 30; k++) {
      int[] dc = randomPlacement(pair.opCount(), 2, rnd);
      int[] mapped = new int[dc.length];
      for (int i = 0; i < dc.length; i++) {
        mapped[i] = map[dc[i]];
      }
      assertEquals(full.evaluate(mapped), pair.evaluate(dc));
    }
    assertThrows(IllegalArgumentException.class, () -> full.withDevices(List.of("NPU")));
  }

  /**
   * a → b (b fuses into a) and a → c; a's output is one tensor with consumers b and c. Times: a 10/1,
   * b 4/2 (fused 1/1), c 3/30. A copy of the 1000-byte tensor costs 0 on A and 7 + 1 = 8 on B.
   */
  @Test
  void fusionStaysInsideASubModelAndATensorLeavesOnceAndEntersOncePerSubModel() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(TWO, 100);
    int a = b.op(0, new double[] {10, 1});
    int x = b.op(1, new double[] {4, 2}, a);
    int c = b.op(2, new double[] {3, 30}, a);
    b.fuse(x, a, new double[] {1, 1});
    b.tensor(a, 1000, 0, x, c);
    b.tensor(x, 1000, 1);
    b.tensor(c, 1000, 1);
    HeteroCostModel m = b.build();
    // All on A: one sub-model, b fused, outputs leave A for free.
    assertEquals(100 + 10 + 10 + 1 + 3, m.evaluate(new int[] {0, 0, 0}).micros(), EPS);
    // a, b on B, c on A: two sub-models; a's tensor leaves B once (8) and enters A (0); b's output leaves B (8).
    HeteroCostModel.Evaluation split = m.evaluate(new int[] {1, 1, 0});
    assertEquals(2, split.subModels());
    assertEquals(100 + 20 + 10 + 1 + 1 + 3 + 8 + 8, split.micros(), EPS);
    // b alone on A: not fused; a's tensor leaves B once (8), enters A for free; c's output leaves B (8).
    assertEquals(100 + 20 + 10 + 1 + 4 + 30 + 8 + 8, m.evaluate(new int[] {1, 0, 1}).micros(), EPS);
    b.unsupported(c, 1);
    HeteroCostModel.Evaluation failed = b.build().evaluate(new int[] {0, 0, 1});
    assertFalse(failed.ok());
    assertEquals(c, failed.failedOp());
  }

  @Test
  void opsMustComeInTopologicalOrder() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(TWO, 0);
    assertThrows(IllegalArgumentException.class, () -> b.op(0, new double[] {1, 1}, 0));
  }

  private static int[] randomPlacement(int ops, int devices, SplittableRandom rnd) {
    int[] dc = new int[ops];
    int block = 1 + rnd.nextInt(20);
    int cur = 0;
    for (int i = 0; i < ops; i++) {
      if (i % block == 0) {
        cur = rnd.nextInt(devices);
      }
      dc[i] = cur;
    }
    return dc;
  }
}
