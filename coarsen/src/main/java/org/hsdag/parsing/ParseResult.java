package org.hsdag.parsing;

import java.util.Arrays;
import java.util.Objects;
import org.hsdag.coarsen.IntGraph;

/**
 * The discrete outcome of one graph-parsing step (GPN): the hard assignment X (node → cluster), the
 * pooled graph A' = XᵀAX without self-loops and with duplicate edges merged (direction kept), and for
 * every node the input-graph edge it kept and that was used to form the clusters. Arrays are copied in
 * and out.
 *
 */
public final class ParseResult {
  private final int[] clusterOf;
  private final int clusterCount;
  private final IntGraph pooled;
  private final int[] keptEdge;

  /**
   * @param clusterOf cluster of each input node, 0..clusterCount-1, numbered by lowest member index
   * @param clusterCount number of clusters
   * @param pooled graph over clusters
   * @param keptEdge per node: index in the input graph of its dominant edge when that edge is among the
   *     edges that formed the clusters, else -1 (no incident edge, or dropped by the minClusters bound)
   */
  public ParseResult(int[] clusterOf, int clusterCount, IntGraph pooled, int[] keptEdge) {
    Objects.requireNonNull(pooled, "pooled");
    clusterOf = clusterOf.clone();
    keptEdge = keptEdge.clone();
    if (clusterOf.length != keptEdge.length) {
      throw new IllegalArgumentException(
          "clusterOf and keptEdge must have one entry per node (got " + clusterOf.length + ", " + keptEdge.length
              + ")");
    }
    if (pooled.nodeCount() != clusterCount) {
      throw new IllegalArgumentException(
          "pooled graph has " + pooled.nodeCount() + " nodes but there are " + clusterCount + " clusters");
    }
    for (int c : clusterOf) {
      if (c < 0 || c >= clusterCount) {
        throw new IllegalArgumentException("cluster " + c + " outside 0.." + (clusterCount - 1));
      }
    }
    this.clusterOf = clusterOf;
    this.clusterCount = clusterCount;
    this.pooled = pooled;
    this.keptEdge = keptEdge;
  }

  public int[] clusterOf() {
    return clusterOf.clone();
  }

  public int[] keptEdge() {
    return keptEdge.clone();
  }

  public int clusterOf(int node) {
    return clusterOf[node];
  }

  public int keptEdge(int node) {
    return keptEdge[node];
  }

  public int nodeCount() {
    return clusterOf.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ParseResult r
        && clusterCount == r.clusterCount
        && Arrays.equals(clusterOf, r.clusterOf)
        && Arrays.equals(keptEdge, r.keptEdge)
        && pooled.equals(r.pooled);
  }

  @Override
  public int hashCode() {
    return Objects.hash(clusterCount, Arrays.hashCode(clusterOf), Arrays.hashCode(keptEdge), pooled);
  }

  @Override
  public String toString() {
    return "ParseResult[" + clusterOf.length + " nodes -> " + clusterCount + " clusters, " + pooled.edgeCount()
        + " edges]";
  }

  public int clusterCount() {
    return clusterCount;
  }

  public IntGraph pooled() {
    return pooled;
  }
}
