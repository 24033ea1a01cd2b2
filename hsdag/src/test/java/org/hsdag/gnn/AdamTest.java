package org.hsdag.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Adam against the textbook update computed by hand, with and without global-norm clipping. */
class AdamTest {
  /** Two steps on loss = Σ c ⊙ w; gradient c each step (zeroed in between by the optimiser). */
  static float[] twoSteps(double clip, float[] c) {
    try (NDManager m = NDManager.newBaseManager(); ParameterStore store = new ParameterStore(m, 1)) {
      NDArray w = store.add("w", new float[] {0.5f, -1f}, new Shape(2));
      Adam adam = new Adam(m, 0.1);
      double norm = 0;
      for (int step = 0; step < 2; step++) {
        try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
          gc.backward(w.mul(m.create(c)).sum());
        }
        norm = adam.update(store, clip);
      }
      assertEquals(Math.hypot(c[0], c[1]), norm, 1e-5, "norm of one step's gradient (no accumulation)");
      assertEquals(2, adam.step());
      return w.toFloatArray();
    }
  }

  static double[] expected(double clip, double[] g) {
    double norm = Math.hypot(g[0], g[1]);
    double scale = clip > 0 && norm > clip ? clip / norm : 1;
    double[] w = {0.5, -1};
    double[] m = new double[2];
    double[] v = new double[2];
    for (int t = 1; t <= 2; t++) {
      for (int i = 0; i < 2; i++) {
        double gi = g[i] * scale;
        m[i] = 0.9 * m[i] + 0.1 * gi;
        v[i] = 0.999 * v[i] + 0.001 * gi * gi;
        double mh = m[i] / (1 - Math.pow(0.9, t));
        double vh = v[i] / (1 - Math.pow(0.999, t));
        w[i] -= 0.1 * mh / (Math.sqrt(vh) + 1e-8);
      }
    }
    return w;
  }

  @Test
  void matchesTextbookAdam() {
    float[] c = {3f, -0.5f};
    Ref.assertClose(expected(0, new double[] {3, -0.5}), twoSteps(0, c), 1e-5, "no clip");
    Ref.assertClose(expected(1, new double[] {3, -0.5}), twoSteps(1, c), 1e-5, "clip to norm 1");
  }

  @Test
  void restoredMomentsContinueIdentically() {
    try (NDManager m = NDManager.newBaseManager();
        ParameterStore a = new ParameterStore(m, 1);
        ParameterStore b = new ParameterStore(m, 1)) {
      NDArray wa = a.add("w", new float[] {1f, 2f}, new Shape(2));
      NDArray wb = b.add("w", new float[] {1f, 2f}, new Shape(2));
      Adam adamA = new Adam(m, 0.05);
      Adam adamB = new Adam(m, 0.05);
      NDArray c = m.create(new float[] {0.3f, -2f});
      try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        gc.backward(wa.mul(c).sum());
      }
      adamA.update(a, 0);
      b.load("w", wa.toFloatArray());
      adamB.restore(b, Map.of("w", adamA.mean("w", 2)), Map.of("w", adamA.variance("w", 2)), adamA.step());
      for (ParameterStore s : new ParameterStore[] {a, b}) {
        try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
          gc.backward(s.get("w").mul(c).sum());
        }
      }
      adamA.update(a, 0);
      adamB.update(b, 0);
      org.junit.jupiter.api.Assertions.assertArrayEquals(wa.toFloatArray(), wb.toFloatArray());
    }
  }
}
