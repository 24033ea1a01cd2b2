package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/** A dense layer {@code x W + b} with Glorot weights and zero bias (bias optional). */
public final class Linear {
  private final NDArray weight;
  private final NDArray bias;
  private final int in;
  private final int out;

  public Linear(ParameterStore store, String name, int in, int out, boolean bias) {
    this.in = in;
    this.out = out;
    this.weight = store.glorot(name + ".weight", in, out);
    this.bias = bias ? store.zeros(name + ".bias", new Shape(out)) : null;
  }

  public NDArray forward(NDArray x) {
    NDArray y = x.matMul(weight);
    return bias == null ? y : y.add(bias);
  }

  public NDArray weight() {
    return weight;
  }

  /** The bias, or null when built without. */
  public NDArray bias() {
    return bias;
  }

  public int in() {
    return in;
  }

  public int out() {
    return out;
  }
}
