package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Adam (Kingma &amp; Ba) over a {@link ParameterStore}, written out instead of DJL's so that its
 * moment estimates can be checkpointed and restored exactly, with optional clipping by global
 * gradient norm (DJL's own clip is one-sided, notes/djl.md pitfall 5). Moments live on this
 * optimiser's manager, created before any per-step scope so a scope never frees them (pitfall 3);
 * gradients are zeroed after every update because the collector accumulates them (pitfall 4).
 */
public final class Adam implements AutoCloseable {
  private static final double BETA1 = 0.9;
  private static final double BETA2 = 0.999;
  private static final double EPS = 1e-8;

  private final NDManager manager;
  private final double learningRate;
  private final Map<String, NDArray> mean = new LinkedHashMap<>();
  private final Map<String, NDArray> variance = new LinkedHashMap<>();
  private long step;

  public Adam(NDManager parent, double learningRate) {
    this.manager = parent.newSubManager();
    this.learningRate = learningRate;
  }

  /** Updates done so far. */
  public long step() {
    return step;
  }

  /**
   * One update from the gradients accumulated on {@code store}'s parameters, then zeroes them.
   *
   * @param clipNorm rescale gradients whose global L2 norm exceeds this; {@code <= 0} disables
   * @return the global gradient norm before clipping
   */
  public double update(ParameterStore store, double clipNorm) {
    for (Map.Entry<String, NDArray> e : store.all().entrySet()) {
      mean.computeIfAbsent(e.getKey(), k -> manager.zeros(e.getValue().getShape()));
      variance.computeIfAbsent(e.getKey(), k -> manager.zeros(e.getValue().getShape()));
    }
    step++;
    double norm;
    try (NDScope scope = new NDScope()) {
      Map<String, NDArray> grads = new LinkedHashMap<>();
      ai.djl.ndarray.NDList squares = new ai.djl.ndarray.NDList();
      for (Map.Entry<String, NDArray> e : store.all().entrySet()) {
        NDArray g = e.getValue().getGradient();
        if (g == null) {
          g = e.getValue().getManager().zeros(e.getValue().getShape());
        }
        NDScope.register(g);
        grads.put(e.getKey(), g);
        squares.add(g.square().sum());
      }
      // One host sync for the global norm instead of one per parameter.
      norm = Math.sqrt(ai.djl.ndarray.NDArrays.stack(squares).sum().getFloat());
      float scale = clipNorm > 0 && norm > clipNorm ? (float) (clipNorm / norm) : 1f;
      float c1 = (float) (learningRate / (1 - Math.pow(BETA1, (double) step)));
      float c2 = (float) (1 / Math.sqrt(1 - Math.pow(BETA2, (double) step)));
      for (Map.Entry<String, NDArray> e : store.all().entrySet()) {
        NDArray g = scale == 1f ? grads.get(e.getKey()) : Scalars.mul(grads.get(e.getKey()), scale);
        NDArray m = mean.get(e.getKey());
        NDArray v = variance.get(e.getKey());
        Scalars.muli(m, BETA1).addi(Scalars.mul(g, 1 - BETA1));
        Scalars.muli(v, BETA2).addi(Scalars.mul(g.square(), 1 - BETA2));
        NDArray delta = Scalars.mul(m, c1).div(Scalars.add(Scalars.mul(v.sqrt(), c2), EPS));
        NDArray w = e.getValue().stopGradient();
        w.subi(delta);
      }
    }
    for (NDArray p : store.all().values()) {
      JniUtils.zeroGrad((PtNDArray) p);
    }
    return norm;
  }

  /** First-moment estimate of a parameter (zeros before the first update). */
  public float[] mean(String name, long size) {
    NDArray m = mean.get(name);
    return m == null ? new float[Math.toIntExact(size)] : m.toFloatArray();
  }

  /** Second-moment estimate of a parameter (zeros before the first update). */
  public float[] variance(String name, long size) {
    NDArray v = variance.get(name);
    return v == null ? new float[Math.toIntExact(size)] : v.toFloatArray();
  }

  /** Restores moments and the step counter for the parameters of {@code store}. */
  public void restore(ParameterStore store, Map<String, float[]> means, Map<String, float[]> variances, long step) {
    for (Map.Entry<String, NDArray> e : store.all().entrySet()) {
      NDArray old = mean.put(e.getKey(), manager.create(means.get(e.getKey()), e.getValue().getShape()));
      if (old != null) {
        old.close();
      }
      old = variance.put(e.getKey(), manager.create(variances.get(e.getKey()), e.getValue().getShape()));
      if (old != null) {
        old.close();
      }
    }
    this.step = step;
  }

  @Override
  public void close() {
    manager.close();
  }
}
