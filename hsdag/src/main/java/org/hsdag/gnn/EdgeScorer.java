package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;

/**
 * HSDAG eq. 7: the score of edge (u, v) is {@code sigmoid(φ(z_u ⊙ z_v))} in [0, 1], with φ(h) =
 * MLP(h) + s·Σ_j h_j: an MLP plus a learnable-scale skip of the plain dot product (s starts at 1).
 * The skip gives a random initial MLP a sensible prior — similar embeddings score higher, so
 * parsing starts by merging alike nodes — which the REINFORCE gradient through the pooling gate
 * alone would find only slowly. The element-wise product makes the score symmetric in u and v.
 * One score per directed input edge of the graph, in input order.
 */
public final class EdgeScorer {
  private final Mlp mlp;
  private final NDArray skipScale;

  public EdgeScorer(ParameterStore store, String name, int width) {
    this.mlp = new Mlp(store, name, width, width, 1);
    this.skipScale = store.add(name + ".skip", new float[] {1f}, new ai.djl.ndarray.types.Shape(1));
  }

  /** The learnable scale s of the dot-product skip. */
  public NDArray skipScale() {
    return skipScale;
  }

  /** Scores (vector of length edgeCount) of {@code g}'s edges from node embeddings {@code z}. */
  public NDArray forward(GraphTensors g, NDArray z) {
    NDArray product = Rows.gather(z, g.edgeSource()).mul(Rows.gather(z, g.edgeTarget()));
    NDArray logit = mlp.forward(product).add(product.sum(new int[] {1}, true).mul(skipScale));
    return Activation.sigmoid(logit).reshape(-1);
  }

  public Mlp mlp() {
    return mlp;
  }
}
