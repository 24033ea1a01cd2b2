package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;

/**
 * Kipf &amp; Welling graph convolution {@code D̂^-1/2 (A+I) D̂^-1/2 X W + b} (HSDAG eq. 6 without
 * the activation), the normalised adjacency coming from {@link GraphTensors}. Multiplies by W
 * first, so the sparse product runs on the narrower side when out ≤ in.
 */
public final class GCNConv {
  private final Linear linear;
  private final NDArray bias;

  public GCNConv(ParameterStore store, String name, int in, int out) {
    this.linear = new Linear(store, name + ".lin", in, out, false);
    this.bias = store.zeros(name + ".bias", new ai.djl.ndarray.types.Shape(out));
  }

  public NDArray forward(GraphTensors g, NDArray x) {
    return g.gcnAdjacency().matMul(linear.forward(x)).add(bias);
  }

  /**
   * The same layer when {@code ax} = D̂^-1/2 (A+I) D̂^-1/2 X was computed once beforehand (constant
   * input features): saves the sparse product on the widest input.
   */
  public NDArray forwardPreAggregated(NDArray ax) {
    return linear.forward(ax).add(bias);
  }

  public NDArray weight() {
    return linear.weight();
  }

  public NDArray bias() {
    return bias;
  }
}
