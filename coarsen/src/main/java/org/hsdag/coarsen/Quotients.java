package org.hsdag.coarsen;

import java.util.Arrays;
import org.hsdag.ir.TopologicalOrder;

/**
 * Quotient graphs: A' = XᵀAX for a hard assignment X, as a plain {@link IntGraph} whose edges are the
 * distinct cluster pairs joined by some original edge, without self-loops, sorted by (source, target).
 */
public final class Quotients {
  private Quotients() {}

  /**
   * The quotient of {@code g} under {@code clusterOf}.
   *
   * @throws IllegalArgumentException when the assignment does not fit the graph
   */
  public static IntGraph of(IntGraph g, int[] clusterOf, int clusterCount) {
    if (clusterOf.length != g.nodeCount()) {
      throw new IllegalArgumentException(
          "assignment covers " + clusterOf.length + " nodes but the graph has " + g.nodeCount());
    }
    for (int c : clusterOf) {
      if (c < 0 || c >= clusterCount) {
        throw new IllegalArgumentException("cluster " + c + " outside 0.." + (clusterCount - 1));
      }
    }
    int m = g.edgeCount();
    long[] pairs = new long[m];
    int k = 0;
    for (int e = 0; e < m; e++) {
      int a = clusterOf[g.src(e)];
      int b = clusterOf[g.dst(e)];
      if (a != b) {
        pairs[k++] = ((long) a << 32) | b;
      }
    }
    Arrays.sort(pairs, 0, k);
    int distinct = 0;
    for (int i = 0; i < k; i++) {
      if (i == 0 || pairs[i] != pairs[i - 1]) {
        pairs[distinct++] = pairs[i];
      }
    }
    int[] src = new int[distinct];
    int[] dst = new int[distinct];
    for (int i = 0; i < distinct; i++) {
      src[i] = (int) (pairs[i] >>> 32);
      dst[i] = (int) pairs[i];
    }
    return new IntGraph(clusterCount, src, dst);
  }

  /**
   * A topological order of {@code g} (Kahn, ready nodes taken lowest index first), or null when g has a
   * cycle.
   */
  public static int[] topologicalOrder(IntGraph g) {
    int[] order = orderCyclesLast(g);
    return order.length == g.nodeCount() && isOrder(g, order) ? order : null;
  }

  /**
   * A topological order of {@code g} (Kahn, ready nodes taken lowest index first); nodes on or behind
   * a cycle, which no topological order has, follow in index order.
   */
  public static int[] orderCyclesLast(IntGraph g) {
    int n = g.nodeCount();
    int m = g.edgeCount();
    int[] start = new int[n + 1];
    for (int e = 0; e < m; e++) {
      start[g.src(e) + 1]++;
    }
    for (int i = 0; i < n; i++) {
      start[i + 1] += start[i];
    }
    int[] adj = new int[m];
    int[] fill = Arrays.copyOf(start, n);
    for (int e = 0; e < m; e++) {
      adj[fill[g.src(e)]++] = g.dst(e);
    }
    int[] sorted = TopologicalOrder.kahn(n, start, adj, TopologicalOrder.TieBreak.LOWEST_INDEX);
    int k = sorted.length;
    int[] order = Arrays.copyOf(sorted, n);
    if (k < n) {
      boolean[] placed = new boolean[n];
      for (int i = 0; i < k; i++) {
        placed[order[i]] = true;
      }
      for (int v = 0; v < n; v++) {
        if (!placed[v]) {
          order[k++] = v;
        }
      }
    }
    return order;
  }

  private static boolean isOrder(IntGraph g, int[] order) {
    int[] rank = new int[order.length];
    for (int i = 0; i < order.length; i++) {
      rank[order[i]] = i;
    }
    for (int e = 0; e < g.edgeCount(); e++) {
      if (rank[g.src(e)] >= rank[g.dst(e)]) {
        return false;
      }
    }
    return true;
  }

  public static boolean isAcyclic(IntGraph g) {
    return topologicalOrder(g) != null;
  }
}
