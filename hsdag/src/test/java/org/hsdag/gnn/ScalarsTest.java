package org.hsdag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.training.GradientCollector;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Arithmetic with numbers whose operand autograd keeps must survive garbage collection. */
class ScalarsTest {
  @Test
  void productWithANumberKeepsItsGradientThroughACollection() throws Exception {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1, 2, 3});
      x.setRequiresGradient(true);
      try (NDScope scope = new NDScope();
          GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        // x·0.75 + x·(−0.5): the backward pass reads both saved scalars after the collection.
        NDArray loss = Scalars.mul(x, 0.75).add(Scalars.mul(x, -0.5)).sum();
        List<ByteBuffer> junk = GcPressure.apply();
        try {
          gc.backward(loss);
        } finally {
          Reference.reachabilityFence(junk);
        }
      }
      assertArrayEquals(new float[] {0.25f, 0.25f, 0.25f}, x.getGradient().toFloatArray());
    }
  }

  @Test
  void arithmeticMatchesPlainNumbers() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1.5f, -2f});
      assertArrayEquals(x.mul(3f).toFloatArray(), Scalars.mul(x, 3).toFloatArray());
      assertArrayEquals(x.add(0.25f).toFloatArray(), Scalars.add(x, 0.25).toFloatArray());
      NDArray y = x.duplicate();
      Scalars.muli(y, -1);
      assertArrayEquals(new float[] {-1.5f, 2f}, y.toFloatArray());
    }
  }
}
