package org.hsdag.features;

import java.util.Arrays;
import org.hsdag.coarsen.IntGraph;

/**
 * The fractal dimension D(v) of every node (paper eq. 4): the least-squares slope of log N(v, r) against
 * log r, where N(v, r) counts the nodes (v included) within undirected hop distance r of v and r runs over
 * the BFS shell distances 1, 2, … found from v.
 *
 * <p>Bound: a BFS stops after radius {@link #maxRadius} or as soon as a shell would push the number of
 * scanned adjacency entries past {@link #edgeBudget}; only completed shells enter the fit, so the result
 * does not depend on visiting order. This keeps the cost O(n · edgeBudget) on 100k-node graphs with hubs
 * (a shared constant feeding thousands of ops) or expander-like wiring instead of O(n²); on the nine
 * shared IR samples the default budget changes no value (only the radius bound does). With fewer than two shells (an isolated
 * node, or a hub whose first shell already is the whole budget) D(v) = 0, as the slope is undefined.
 * Parallel edges and self-loops are ignored (neighbours are sets).
 */
public final class FractalDimension {
  /** Default radius bound: IR neighbourhoods beyond 8 hops say more about model length than local shape. */
  public static final int DEFAULT_MAX_RADIUS = 8;

  /** Default bound on adjacency entries scanned per BFS. */
  public static final int DEFAULT_EDGE_BUDGET = 1024;

  private final int maxRadius;
  private final int edgeBudget;

  public FractalDimension(int maxRadius, int edgeBudget) {
    if (maxRadius < 2) {
      throw new IllegalArgumentException("maxRadius must be >= 2 for a slope (got " + maxRadius + ")");
    }
    if (edgeBudget < 1) {
      throw new IllegalArgumentException("edgeBudget must be >= 1 (got " + edgeBudget + ")");
    }
    this.maxRadius = maxRadius;
    this.edgeBudget = edgeBudget;
  }

  public static FractalDimension withDefaults() {
    return new FractalDimension(DEFAULT_MAX_RADIUS, DEFAULT_EDGE_BUDGET);
  }

  /** D(v) for every node of g, over the undirected version of g. */
  public double[] compute(IntGraph g) {
    int n = g.nodeCount();
    int[][] csr = undirectedNeighbours(g);
    int[] start = csr[0];
    int[] adj = csr[1];
    int[] seen = new int[n]; // stamp v+1 marks nodes reached from v
    int[] queue = new int[n];
    double[] shellCounts = new double[maxRadius];
    double[] out = new double[n];
    for (int v = 0; v < n; v++) {
      int stamp = v + 1;
      seen[v] = stamp;
      queue[0] = v;
      int head = 0;
      int tail = 1;
      int scanned = 0;
      int shells = 0;
      while (shells < maxRadius && head < tail) {
        int shellEnd = tail;
        int shellCost = 0;
        for (int i = head; i < shellEnd; i++) {
          int u = queue[i];
          shellCost += start[u + 1] - start[u];
        }
        if (scanned + shellCost > edgeBudget) {
          break;
        }
        scanned += shellCost;
        for (int i = head; i < shellEnd; i++) {
          int u = queue[i];
          for (int j = start[u]; j < start[u + 1]; j++) {
            int w = adj[j];
            if (seen[w] != stamp) {
              seen[w] = stamp;
              queue[tail++] = w;
            }
          }
        }
        head = shellEnd;
        if (tail == shellEnd) {
          break; // no node at this distance: v's component is exhausted
        }
        shellCounts[shells++] = tail; // N(v, r) for r = shells
      }
      out[v] = slope(shellCounts, shells);
    }
    return out;
  }

  /** Least-squares slope of ln N against ln r for r = 1..m (paper eq. 4); 0 when m < 2. */
  static double slope(double[] counts, int m) {
    if (m < 2) {
      return 0;
    }
    double meanX = 0;
    double meanY = 0;
    for (int k = 0; k < m; k++) {
      meanX += Math.log(k + 1);
      meanY += Math.log(counts[k]);
    }
    meanX /= m;
    meanY /= m;
    double num = 0;
    double den = 0;
    for (int k = 0; k < m; k++) {
      double dx = Math.log(k + 1) - meanX;
      num += dx * (Math.log(counts[k]) - meanY);
      den += dx * dx;
    }
    return num / den;
  }

  /** Compressed rows of distinct undirected neighbours, self-loops removed: {start, adj}. */
  static int[][] undirectedNeighbours(IntGraph g) {
    int n = g.nodeCount();
    int m = g.edgeCount();
    int[] start = new int[n + 1];
    for (int e = 0; e < m; e++) {
      if (g.src(e) != g.dst(e)) {
        start[g.src(e) + 1]++;
        start[g.dst(e) + 1]++;
      }
    }
    for (int i = 0; i < n; i++) {
      start[i + 1] += start[i];
    }
    int[] adj = new int[start[n]];
    int[] fill = Arrays.copyOf(start, n);
    for (int e = 0; e < m; e++) {
      int a = g.src(e);
      int b = g.dst(e);
      if (a != b) {
        adj[fill[a]++] = b;
        adj[fill[b]++] = a;
      }
    }
    // Deduplicate each row in place, compacting rows to the front.
    int[] newStart = new int[n + 1];
    int k = 0;
    for (int v = 0; v < n; v++) {
      Arrays.sort(adj, start[v], start[v + 1]);
      newStart[v] = k;
      for (int j = start[v]; j < start[v + 1]; j++) {
        if (j == start[v] || adj[j] != adj[j - 1]) {
          adj[k++] = adj[j];
        }
      }
    }
    newStart[n] = k;
    return new int[][] {newStart, Arrays.copyOf(adj, k)};
  }
}
