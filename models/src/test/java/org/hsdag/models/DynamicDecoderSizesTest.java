package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.backend.InputShapes;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

/**
 * A T5-decoder-like model whose {@code encoder_hidden_states} is {@code [?,?,?]}: hsdag compiles it
 * at 1x8x1024 (the hidden axis sized by the model), so the simulator and the cost model must size
 * it, and every tensor it feeds, at 1x8x1024 too, not at the batch/sequence guess 1x8x8.
 */
class DynamicDecoderSizesTest {
  private static final long HIDDEN = DynamicDecoderIr.ENCODER_HIDDEN;

  @Test
  void theDefaultResolutionSizesTheHiddenStatesByTheModel() {
    OpGraph g = DynamicDecoderIr.build().graph();
    InputShapes.Resolution r = InputShapes.NONE.resolve(g);
    assertEquals(List.of("input_ids=1x8", "encoder_hidden_states=1x8x" + HIDDEN), r.inputs());
    assertTrue(r.notice().contains("encoder_hidden_states=1x8x1024"), r.notice());
  }

  @Test
  void everyTensorTheHiddenStatesFeedHasTheCompiledSize() {
    OpGraph g = DynamicDecoderIr.build().graph();
    TensorShapes sized = TensorShapes.of(g, InputShapes.NONE.resolve(g).shapes());
    assertArrayEquals(new long[] {1, 8, HIDDEN}, sized.output(g.indexOf("encoder_hidden_states"), 0));
    assertArrayEquals(new long[] {1, 8, HIDDEN}, sized.output(g.indexOf("/cross/scale/Mul"), 0));
    assertArrayEquals(new long[] {1, 8, HIDDEN}, sized.input(g.indexOf("/cross.k/MatMul"), 0));
    assertArrayEquals(new long[] {1, 4, 8, 8}, sized.output(g.indexOf("/cross/scores/MatMul"), 0));
    assertArrayEquals(new long[] {1, 8, 100}, sized.output(g.indexOf("/lm_head/MatMul"), 0));
    assertEquals(List.of(), sized.assumed(), "every dynamic tensor is sized by a rule");
  }

  @Test
  void theSimulatorCopiesAndComputesTheHiddenStatesAt1x8x1024() {
    OpGraph g = DynamicDecoderIr.build().graph();
    ShapeAssumption compiled = InputShapes.NONE.resolve(g).shapes();
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact().withShapes(compiled));
    HeteroCostModel model = sim.costModel(g);
    int scale = g.indexOf("/cross/scale/Mul");
    double bytes = -1;
    for (int t = 0; t < model.tensorCount(); t++) {
      if (model.tensorProducer(t) >= 0 && model.node(model.tensorProducer(t)) == scale) {
        bytes = model.tensorBytes(t);
      }
    }
    assertEquals(1 * 8 * HIDDEN * 4.0, bytes, "the scaled hidden states cross a boundary as f32 1x8x1024");
    long live = sim.memoryCheck(g, DeviceSet.of("CPU")).model().outputBytes(scale);
    assertEquals(1 * 8 * HIDDEN * 4, live, "and are live in device memory at that size");
  }

  @Test
  void theDynamicModelCostsExactlyAsTheStaticModelCompiledAtItsSizes() {
    OpGraph dynamic = DynamicDecoderIr.build().graph();
    OpGraph fixed = DynamicDecoderIr.fixed(1, 8, 8).graph();
    ShapeAssumption compiled = InputShapes.NONE.resolve(dynamic).shapes();
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact().withShapes(compiled));
    DeviceSet ds = DeviceSet.of("CPU", "GPU.1");
    int n = dynamic.nodeCount();
    int[] split = new int[n];
    for (int v = dynamic.indexOf("/cross/scale/Mul"); v < n; v++) {
      split[v] = 1; // the cross-attention and the head on the GPU: the hidden states cross the boundary
    }
    for (Placement p : List.of(Placement.allOn(ds, n, "CPU"), Placement.allOn(ds, n, "GPU.1"),
        new Placement(ds, split))) {
      assertEquals(sim.latencyMillis(fixed, p), sim.latencyMillis(dynamic, p), 1e-9,
          "the dynamic model at 1x8 / 1x8x1024 against the static one");
    }
  }
}
