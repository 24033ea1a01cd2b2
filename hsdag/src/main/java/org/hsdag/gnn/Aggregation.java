package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * Neighbourhood reduction over the symmetrised graph (PyG's {@code aggr}). Sum and mean are
 * constant sparse matrices times the features because DJL has no scatter-add; max gathers a
 * padded neighbour table and reduces it. Nodes without neighbours aggregate to zero, as in PyG.
 */
public enum Aggregation {
  SUM,
  MEAN,
  MAX;

  /** Per node, the reduction of its neighbours' rows of {@code x} (n × c). */
  public NDArray aggregate(GraphTensors g, NDArray x) {
    return switch (this) {
      case SUM -> g.sumAdjacency().matMul(x);
      case MEAN -> g.meanAdjacency().matMul(x);
      case MAX -> max(g, x);
    };
  }

  private static NDArray max(GraphTensors g, NDArray x) {
    long n = x.getShape().get(0);
    long c = x.getShape().get(1);
    // The padding row is very negative so it never wins a max; lonely nodes are zeroed after.
    NDArray pad = x.getManager().full(new Shape(1, c), -1e30f);
    NDArray padded = x.concat(pad, 0);
    NDArray table = Rows.gather(padded, g.maxIndex()).reshape(n, g.maxDegreeWidth(), c);
    return table.max(new int[] {1}).mul(g.hasNeighbour());
  }
}
