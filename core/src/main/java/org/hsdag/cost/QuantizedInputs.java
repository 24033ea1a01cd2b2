package org.hsdag.cost;

import java.util.Arrays;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;

/**
 * Which kernels an int8 model quantizes: a convolution or MatMul whose data input a compute
 * FakeQuantize produces. The CPU plugin runs it as an int8 kernel only while both share a
 * sub-model; with the FakeQuantize in another sub-model its input arrives as plain floats and it
 * runs in bf16 or f32 (docs/hetero-rules.md has the run).
 */
public final class QuantizedInputs {
  private QuantizedInputs() {}

  /** Per graph node, the FakeQuantize node that quantizes its data input, or -1. */
  public static int[] quantizerOf(OpGraph g, OpCost[] costs) {
    int[] quantizer = new int[g.nodeCount()];
    Arrays.fill(quantizer, -1);
    for (int v = 0; v < g.nodeCount(); v++) {
      OpClass cls = costs[v].opClass();
      boolean kernel = cls == OpClass.CONVOLUTION || cls == OpClass.POINTWISE_CONVOLUTION
          || cls == OpClass.GROUP_CONVOLUTION || cls == OpClass.MATMUL;
      for (int j = 0; kernel && j < g.inDegree(v); j++) {
        Edge e = g.edge(g.inEdge(v, j));
        if (e.targetInput() == 0 && costs[e.source()].opClass() == OpClass.QUANTIZATION) {
          quantizer[v] = e.source();
        }
      }
    }
    return quantizer;
  }
}
