package org.hsdag.coarsen;

import java.util.Arrays;

/**
 * A minimal immutable directed graph over dense ints, the currency between coarsening, features,
 * graph parsing and the GNN: {@code src[k] -> dst[k]} for edge k. Parallel edges are allowed.
 */
public final class IntGraph {
  private final int nodeCount;
  private final int[] src;
  private final int[] dst;

  public IntGraph(int nodeCount, int[] src, int[] dst) {
    if (src.length != dst.length) {
      throw new IllegalArgumentException(
          "Expected src and dst of equal length (got " + src.length + ", " + dst.length + ")");
    }
    src = src.clone();
    dst = dst.clone();
    for (int k = 0; k < src.length; k++) {
      if (src[k] < 0 || src[k] >= nodeCount || dst[k] < 0 || dst[k] >= nodeCount) {
        throw new IllegalArgumentException(
            "edge " + k + " (" + src[k] + "->" + dst[k] + ") outside 0.." + (nodeCount - 1));
      }
    }
    this.nodeCount = nodeCount;
    this.src = src;
    this.dst = dst;
  }

  /** The node and edge structure of an {@link org.hsdag.ir.OpGraph}. */
  public static IntGraph of(org.hsdag.ir.OpGraph g) {
    int m = g.edgeCount();
    int[] s = new int[m];
    int[] d = new int[m];
    for (int k = 0; k < m; k++) {
      s[k] = g.edge(k).source();
      d[k] = g.edge(k).target();
    }
    return new IntGraph(g.nodeCount(), s, d);
  }

  public int edgeCount() {
    return src.length;
  }

  public int[] src() {
    return src.clone();
  }

  public int[] dst() {
    return dst.clone();
  }

  public int src(int k) {
    return src[k];
  }

  public int dst(int k) {
    return dst[k];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IntGraph g && nodeCount == g.nodeCount && Arrays.equals(src, g.src)
        && Arrays.equals(dst, g.dst);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * nodeCount + Arrays.hashCode(src)) + Arrays.hashCode(dst);
  }

  @Override
  public String toString() {
    return "IntGraph[" + nodeCount + " nodes, " + src.length + " edges]";
  }

  public int nodeCount() {
    return nodeCount;
  }
}
