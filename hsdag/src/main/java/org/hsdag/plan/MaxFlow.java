package org.hsdag.plan;

import java.util.Arrays;

/**
 * s-t maximum flow / minimum cut by Dinic's algorithm on primitive arrays, with integer
 * capacities (no rounding drift) and an iterative blocking-flow search (graphs of 10^5 nodes are
 * long chains; recursion would overflow the stack). Add nodes and edges, call {@link #solve} once,
 * then ask {@link #sourceSide} for the minimum cut. Not thread-safe; one use per instance.
 */
final class MaxFlow {
  /** A capacity no finite cut reaches; a cut that would need it means an infeasible problem. */
  static final long INF = Long.MAX_VALUE / 4;

  private final int source;
  private final int sink;
  private int nodes;
  private int[] from = new int[16];
  private int[] to = new int[16];
  private long[] capacity = new long[16];
  private int edges;
  private int[] level;
  private boolean solved;
  // The residual network, built by solve().
  private int[] start;
  private int[] head;
  private int[] pair;
  private long[] cap;

  /** A network with {@code nodes} inner nodes 0..nodes-1 plus a source and a sink. */
  MaxFlow(int nodes, int expectedEdges) {
    this.nodes = nodes + 2;
    this.source = nodes;
    this.sink = nodes + 1;
    int cap = Math.max(16, expectedEdges);
    from = new int[cap];
    to = new int[cap];
    capacity = new long[cap];
  }

  int source() {
    return source;
  }

  int sink() {
    return sink;
  }

  /** Adds an inner node (after the initial ones, e.g. an auxiliary node of a higher-order term). */
  int addNode() {
    return nodes++;
  }

  /** A directed edge {@code u → v} of capacity {@code cap} (ignored when not positive). */
  void addEdge(int u, int v, long cap) {
    if (cap <= 0) {
      return;
    }
    if (edges == from.length) {
      int n = edges * 2;
      from = Arrays.copyOf(from, n);
      to = Arrays.copyOf(to, n);
      capacity = Arrays.copyOf(capacity, n);
    }
    from[edges] = u;
    to[edges] = v;
    capacity[edges] = cap;
    edges++;
  }

  /**
   * The maximum flow value (= the minimum cut's capacity).
   *
   * @throws IllegalStateException when the cut would have to cross an {@link #INF} path
   */
  long solve() {
    if (solved) {
      throw new IllegalStateException("already solved");
    }
    solved = true;
    buildResidual();
    int n = nodes;
    level = new int[n];
    int[] queue = new int[n];
    int[] next = new int[n];
    int[] path = new int[n];
    long total = 0;
    while (bfs(queue)) {
      System.arraycopy(start, 0, next, 0, n);
      total += blockingFlow(next, path, total);
    }
    return total;
  }

  /** Residual arcs in CSR by tail: arc 2k is edge k forward, its pair the reverse arc. */
  private void buildResidual() {
    int n = nodes;
    start = new int[n + 1];
    for (int k = 0; k < edges; k++) {
      start[from[k] + 1]++;
      start[to[k] + 1]++;
    }
    for (int u = 0; u < n; u++) {
      start[u + 1] += start[u];
    }
    int arcs = 2 * edges;
    head = new int[arcs];
    cap = new long[arcs];
    pair = new int[arcs];
    int[] fill = Arrays.copyOf(start, n);
    for (int k = 0; k < edges; k++) {
      int a = fill[from[k]]++;
      int b = fill[to[k]]++;
      head[a] = to[k];
      cap[a] = capacity[k];
      head[b] = from[k];
      cap[b] = 0;
      pair[a] = b;
      pair[b] = a;
    }
    from = null;
    to = null;
    capacity = null;
  }

  /**
   * One phase's blocking flow: advance along level arcs, retreat from dead ends, augment at the
   * sink. {@code flowSoFar} only guards against reaching {@link #INF}.
   */
  private long blockingFlow(int[] next, int[] path, long flowSoFar) {
    long added = 0;
    int depth = 0;
    int u = source;
    while (true) {
      if (u == sink) {
        long bottleneck = augment(path, depth);
        added += bottleneck;
        if (flowSoFar + added >= INF) {
          throw new IllegalStateException("infeasible cut: flow reached the infinite capacity");
        }
        // Resume from the tail of the first saturated arc.
        depth = firstSaturated(path, depth);
        u = depth == 0 ? source : head[path[depth - 1]];
        continue;
      }
      int a = next[u];
      int end = start[u + 1];
      while (a < end && (cap[a] == 0 || level[head[a]] != level[u] + 1)) {
        a++;
      }
      next[u] = a;
      if (a < end) {
        path[depth++] = a;
        u = head[a];
      } else {
        // Dead end: never enter u again in this phase.
        level[u] = -1;
        if (depth == 0) {
          return added;
        }
        depth--;
        u = depth == 0 ? source : head[path[depth - 1]];
        next[u]++;
      }
    }
  }

  /** Pushes the bottleneck of the first {@code depth} arcs of {@code path} along it. */
  private long augment(int[] path, int depth) {
    long bottleneck = INF;
    for (int k = 0; k < depth; k++) {
      bottleneck = Math.min(bottleneck, cap[path[k]]);
    }
    if (bottleneck >= INF) {
      throw new IllegalStateException("infeasible cut: an infinite path joins source and sink");
    }
    for (int k = 0; k < depth; k++) {
      int a = path[k];
      cap[a] -= bottleneck;
      cap[pair[a]] += bottleneck;
    }
    return bottleneck;
  }

  private int firstSaturated(int[] path, int depth) {
    for (int k = 0; k < depth; k++) {
      if (cap[path[k]] == 0) {
        return k;
      }
    }
    return depth;
  }

  private boolean bfs(int[] queue) {
    Arrays.fill(level, -1);
    level[source] = 0;
    int qh = 0;
    int qt = 0;
    queue[qt++] = source;
    while (qh < qt) {
      int u = queue[qh++];
      for (int a = start[u]; a < start[u + 1]; a++) {
        int v = head[a];
        if (cap[a] > 0 && level[v] < 0) {
          level[v] = level[u] + 1;
          queue[qt++] = v;
        }
      }
    }
    return level[sink] >= 0;
  }

  /** After {@link #solve}: whether node {@code u} is on the source side of the minimum cut. */
  boolean sourceSide(int u) {
    if (!solved) {
      throw new IllegalStateException("solve first");
    }
    return level[u] >= 0;
  }
}
