package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;

/**
 * GraphSAGE convolution as in PyG: {@code lin_l(aggr_{u∈N(v)} x_u) + lin_r(x_v)}, with the
 * neighbour transform carrying the bias and a choice of {@link Aggregation} (mean by default).
 */
public final class SAGEConv {
  private final Linear neighbour;
  private final Linear root;
  private final Aggregation aggregation;

  public SAGEConv(ParameterStore store, String name, int in, int out, Aggregation aggregation) {
    this.neighbour = new Linear(store, name + ".lin_l", in, out, true);
    this.root = new Linear(store, name + ".lin_r", in, out, false);
    this.aggregation = aggregation;
  }

  public NDArray forward(GraphTensors g, NDArray x) {
    return neighbour.forward(aggregation.aggregate(g, x)).add(root.forward(x));
  }

  public Linear neighbourLinear() {
    return neighbour;
  }

  public Linear rootLinear() {
    return root;
  }
}
