package org.hsdag.parsing;

import java.util.Arrays;
import org.hsdag.coarsen.DisjointSets;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.coarsen.Quotients;

/**
 * The discrete step of a Graph Parsing Network pooling level (Song et al. 2024; HSDAG §2.4, eqs. 9–11):
 * given a score per edge, each node keeps its dominant (highest-scoring) incident edge and the clusters are
 * the connected components of the kept edges. Pure Java; the policy adds the differentiable part (the
 * scores and the score gate).
 *
 * <p>Unlike the reference code, whose repeated parsing collapses a connected graph into one cluster (one
 * device for the whole model), a {@code minClusters} bound keeps at least that many clusters (see notes
 * §1.4 pitfall 1).
 */
public final class GraphParsing {
  private GraphParsing() {}

  /**
   * GPN discrete step: each node keeps its highest-scoring incident edge (either direction; self-loops
   * ignored); clusters are the connected components of the kept edges (union–find; ties in score go to the
   * lower edge index). If that leaves fewer than {@code minClusters} components, kept edges are dropped
   * from the lowest score upward (ties: higher edge index first) until there are at least
   * {@code minClusters}, or none is left, so the policy never collapses to one cluster.
   *
   * @param g the graph to parse (direction does not matter)
   * @param edgeScores one finite score per edge of g
   * @param minClusters lower bound on the number of clusters, ≥ 1 (a bound above the node count keeps
   *     every node alone)
   * @throws IllegalArgumentException on a score count mismatch, a non-finite score or minClusters < 1
   */
  public static ParseResult parse(IntGraph g, float[] edgeScores, int minClusters) {
    int n = g.nodeCount();
    int m = g.edgeCount();
    if (edgeScores.length != m) {
      throw new IllegalArgumentException("expected " + m + " edge scores (got " + edgeScores.length + ")");
    }
    if (minClusters < 1) {
      throw new IllegalArgumentException("minClusters must be >= 1 (got " + minClusters + ")");
    }
    for (int e = 0; e < m; e++) {
      if (!Float.isFinite(edgeScores[e])) {
        throw new IllegalArgumentException("edge " + e + " has a non-finite score " + edgeScores[e]);
      }
    }
    int[] dominant = new int[n];
    Arrays.fill(dominant, -1);
    for (int e = 0; e < m; e++) {
      int a = g.src(e);
      int b = g.dst(e);
      if (a == b) {
        continue;
      }
      offer(dominant, a, e, edgeScores);
      offer(dominant, b, e, edgeScores);
    }
    // Distinct kept edges, best first; the cut keeps the longest prefix that leaves >= minClusters.
    boolean[] isKept = new boolean[m];
    int keptCount = 0;
    for (int v = 0; v < n; v++) {
      if (dominant[v] >= 0 && !isKept[dominant[v]]) {
        isKept[dominant[v]] = true;
        keptCount++;
      }
    }
    int[] kept = bestFirst(isKept, keptCount, edgeScores);
    DisjointSets sets = new DisjointSets(n);
    boolean[] used = new boolean[m];
    for (int e : kept) {
      boolean merges = sets.find(g.src(e)) != sets.find(g.dst(e));
      if (merges && sets.setCount() - 1 < minClusters) {
        break; // this edge and every lower one are dropped
      }
      sets.union(g.src(e), g.dst(e));
      used[e] = true;
    }
    int[] keptEdge = new int[n];
    for (int v = 0; v < n; v++) {
      keptEdge[v] = dominant[v] >= 0 && used[dominant[v]] ? dominant[v] : -1;
    }
    int[] clusterOf = sets.labels();
    int clusterCount = sets.setCount();
    return new ParseResult(clusterOf, clusterCount, Quotients.of(g, clusterOf, clusterCount), keptEdge);
  }

  /**
   * The kept edges ordered by score descending (as {@link Float#compare}), ties by lower edge index.
   * Primitive keys instead of a boxed comparator sort: this is a hot path at 50k nodes.
   */
  static int[] bestFirst(boolean[] isKept, int keptCount, float[] scores) {
    long[] order = new long[keptCount];
    int k = 0;
    for (int e = 0; e < isKept.length; e++) {
      if (isKept[e]) {
        int bits = Float.floatToIntBits(scores[e]);
        int ascending = bits ^ ((bits >> 31) & 0x7fffffff); // int order == Float.compare order
        order[k++] = ((long) ~ascending << 32) | e;
      }
    }
    Arrays.sort(order);
    int[] kept = new int[keptCount];
    for (int i = 0; i < keptCount; i++) {
      kept[i] = (int) order[i];
    }
    return kept;
  }

  private static void offer(int[] dominant, int node, int edge, float[] scores) {
    int cur = dominant[node];
    // Edges arrive in increasing index, so a strictly higher score is needed to replace: lower index wins ties.
    if (cur < 0 || scores[edge] > scores[cur]) {
      dominant[node] = edge;
    }
  }
}
