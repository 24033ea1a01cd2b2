package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class PipelineParallelSplitTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");
  private static final List<Integer> GPU_FIRST = List.of(1, 0);

  /** input → m0 … m9, each MatMul with its own 1000-byte f32 weight: 10,000 bytes of constants. */
  private static OpGraph chain() {
    TinyGraphs.Builder b = TinyGraphs.builder("chain");
    int x = b.parameter("x", 1, 250);
    for (int k = 0; k < 10; k++) {
      int w = b.constant("w" + k, ElementType.F32, 250, 1);
      x = b.op("m" + k, "MatMul", new long[] {1, 1}, x, w);
      x = b.op("r" + k, "ReLU", new long[] {1, 1}, x);
    }
    b.result("out", x);
    return b.build();
  }

  private static Placement split(OpGraph g, long gpuBytes, List<Integer> priority) {
    return PipelineParallelSplit.split(g, DEVICES, SupportMatrix.all(DEVICES, g.nodeCount()), priority,
        new long[] {Long.MAX_VALUE, gpuBytes});
  }

  @Test
  void aGpuThatHoldsLessThanTheModelTakesItsMemoryOverOnePointTwoTimesTheWeightsAsAPrefix() {
    OpGraph g = chain();
    // ratio = 6000 / (1.2 x 10,000) = 0.5: the prefix ends at the constant where the running sum reaches 5000 bytes
    Placement p = split(g, 6000, GPU_FIRST);
    for (int k = 0; k < 10; k++) {
      assertEquals(k < 5 ? "GPU.1" : "CPU", p.deviceName(g.indexOf("m" + k)), "m" + k);
      assertEquals(p.deviceName(g.indexOf("m" + k)), p.deviceName(g.indexOf("w" + k)), "a weight follows its MatMul");
    }
  }

  @Test
  void aGpuThatHoldsOnePointTwoTimesTheWeightsTakesEverythingAndACpuFirstTakesEverything() {
    OpGraph g = chain();
    Placement all = split(g, 12_000, GPU_FIRST);
    assertEquals(1, all.countsPerDevice()[1] == g.nodeCount() ? 1 : 0, "everything on GPU.1");
    Placement cpuFirst = split(g, 6000, List.of(0, 1));
    assertEquals(g.nodeCount(), cpuFirst.countsPerDevice()[0], "HETERO assumes the CPU holds anything");
  }
}
