package org.hsdag.cost;

import static org.hsdag.cost.Bitsets.any;
import static org.hsdag.cost.Bitsets.intersects;
import static org.hsdag.cost.Bitsets.or;
import static org.hsdag.cost.Bitsets.set;

import java.util.Arrays;

/**
 * Steps 2–4 of {@link HeteroSplit}: the subgraphs that a placement's boundary edges leave, with the
 * boundaries HETERO's cycle splitting and its SCC fallback add until the graph of subgraphs is
 * acyclic. Works on {@link HeteroSplit}'s node tables (positions in a topological order, input
 * edges in port order); immutable, every call allocates its own work arrays.
 */
final class HeteroSubgraphs {
  private final int n;
  private final byte[] kind;
  /** Input edges of each position, in port order: source position, and consumers of that source port. */
  private final int[] inStart;
  private final int[] inSrc;
  private final int[] inSrcPortConsumers;
  private final int[] nonResultConsumers;

  HeteroSubgraphs(byte[] kind, int[] inStart, int[] inSrc, int[] inSrcPortConsumers) {
    this.n = kind.length;
    this.kind = kind;
    this.inStart = inStart;
    this.inSrc = inSrc;
    this.inSrcPortConsumers = inSrcPortConsumers;
    nonResultConsumers = new int[n];
    for (int p = 0; p < n; p++) {
      if (kind[p] != HeteroSplit.RESULT) {
        for (int k = inStart[p]; k < inStart[p + 1]; k++) {
          nonResultConsumers[inSrc[k]]++;
        }
      }
    }
  }

  /**
   * Steps 2–4: the subgraph of every position, {@code boundary} (one entry per input edge) getting
   * the edges the cycle splitting and the SCC fallback make boundaries.
   *
   * @param anyBoundary whether step 1 made some edge a boundary (without one there is no cycle)
   */
  int[] of(boolean[] boundary, boolean anyBoundary) {
    int[] comp = components(boundary);
    // Without a cycle between subgraphs neither the cycle splitting nor the SCC fallback adds a boundary.
    if (anyBoundary && !acyclic(comp, boundary)) {
      splitCycles(boundary);
      comp = components(boundary);
      while (isolateOneSccNode(comp, boundary)) {
        comp = components(boundary);
      }
    }
    return comp;
  }

  private boolean graphInput(int p) {
    return kind[p] == HeteroSplit.PARAMETER || kind[p] == HeteroSplit.CONSTANT;
  }

  /** Subgraph of each position: the smallest position connected to it over non-boundary edges. */
  private int[] components(boolean[] boundary) {
    int[] parent = new int[n];
    for (int p = 0; p < n; p++) {
      parent[p] = p;
    }
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        if (!boundary[k]) {
          int a = find(parent, inSrc[k]);
          int b = find(parent, p);
          if (a != b) {
            parent[Math.max(a, b)] = Math.min(a, b);
          }
        }
      }
    }
    for (int p = 0; p < n; p++) {
      parent[p] = find(parent, p);
    }
    return parent;
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  /** Whether the graph of subgraphs (edges: boundaries between different subgraphs) is acyclic. */
  private boolean acyclic(int[] comp, boolean[] boundary) {
    int[] start = new int[n + 1];
    int[] to = subgraphAdjacency(comp, boundary, start);
    return SubgraphGraph.acyclic(comp, start, to);
  }

  /**
   * Successor subgraphs of every subgraph root, one entry per boundary edge between two subgraphs:
   * those of root c are {@code to[start[c] .. start[c + 1])} ({@code start} has n + 1 entries, filled here).
   */
  private int[] subgraphAdjacency(int[] comp, boolean[] boundary, int[] start) {
    Arrays.fill(start, 0);
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        if (boundary[k] && comp[inSrc[k]] != comp[p]) {
          start[comp[inSrc[k]] + 1]++;
        }
      }
    }
    for (int c = 0; c < n; c++) {
      start[c + 1] += start[c];
    }
    int[] to = new int[start[n]];
    int[] fill = Arrays.copyOf(start, n);
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        int a = comp[inSrc[k]];
        if (boundary[k] && a != comp[p]) {
          to[fill[a]++] = comp[p];
        }
      }
    }
    return to;
  }

  private SplitDeps dependencies(int[] comp, boolean[] boundary, boolean[] inputsOf) {
    int[] bitOfInput = new int[inSrc.length];
    int[] bitOfNode = new int[n];
    int[] owner = new int[n + inSrc.length];
    int[] source = new int[owner.length];
    int s = 0;
    for (int p = 0; p < n; p++) {
      bitOfNode[p] = -1;
      if (graphInput(p) && inputsOf[comp[p]]) {
        bitOfNode[p] = s;
        owner[s] = p;
        source[s++] = -1;
      }
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        bitOfInput[k] = -1;
        if (boundary[k]) {
          bitOfInput[k] = s;
          owner[s] = p;
          source[s++] = inSrc[k];
        }
      }
    }
    int w = Math.max(1, (s + 63) >>> 6);
    int[] producerSg = new int[s];
    // Entries: boundary edges into a subgraph from another one. Traced: boundary edges whose source is no graph input.
    long[] entry = new long[w];
    long[] traced = new long[w];
    // Per subgraph root: the bits it owns and the boundary edges it produces, so that a node's
    // own/cyclic dependencies are two word-wise ANDs.
    long[] ownedBy = new long[n * w];
    long[] producedBy = new long[n * w];
    for (int b = 0; b < s; b++) {
      producerSg[b] = source[b] < 0 ? -1 : comp[source[b]];
      set(ownedBy, comp[owner[b]] * w, b);
      if (source[b] >= 0) {
        set(producedBy, producerSg[b] * w, b);
        if (producerSg[b] != comp[owner[b]]) {
          set(entry, 0, b);
        }
        if (!graphInput(source[b])) {
          set(traced, 0, b);
        }
      }
    }
    long[] deps = new long[n * w];
    for (int p = 0; p < n; p++) {
      if (bitOfNode[p] >= 0) {
        set(deps, p * w, bitOfNode[p]);
      }
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        if (bitOfInput[k] >= 0) {
          set(deps, p * w, bitOfInput[k]);
        }
        or(deps, p * w, deps, inSrc[k] * w, w);
      }
    }
    long[] own = new long[n * w];
    long[] cyc = new long[n * w];
    for (int p = 0; p < n; p++) {
      int c = comp[p] * w;
      for (int i = 0; i < w; i++) {
        own[p * w + i] = deps[p * w + i] & ownedBy[c + i];
        cyc[p * w + i] = deps[p * w + i] & producedBy[c + i];
      }
    }
    return new SplitDeps(w, owner, source, entry, traced, own, cyc);
  }

  /**
   * Step 3, repeated to a fixed point. Only nodes with cyclic dependencies cut, and only inputs from
   * their own subgraph, so a first pass over the boundary edges alone finds the subgraphs that can
   * cut; the Parameter/Constant bits of the other subgraphs could never meet and are left out.
   */
  private void splitCycles(boolean[] boundary) {
    for (int step = 0;; step++) {
      if (step >= n) {
        throw new IllegalStateException("HETERO split: cycles not resolved after " + n + " steps");
      }
      int[] comp = components(boundary);
      SplitDeps edgesOnly = dependencies(comp, boundary, new boolean[n]);
      boolean[] cutting = new boolean[n];
      boolean anyCutting = false;
      for (int p = 0; p < n; p++) {
        if (any(edgesOnly.cyc, p * edgesOnly.w, edgesOnly.w)) {
          cutting[comp[p]] = true;
          anyCutting = true;
        }
      }
      if (!anyCutting) {
        return;
      }
      SplitDeps d = dependencies(comp, boundary, cutting);
      int w = d.w;
      int[] owner = d.owner;
      int[] source = d.source;
      long[] entry = d.entry;
      long[] traced = d.traced;
      long[] own = d.own;
      long[] cyc = d.cyc;
      boolean added = false;
      long[] reach = new long[w];
      for (int p = 0; p < n; p++) {
        if (!any(cyc, p * w, w)) {
          continue;
        }
        // What the data that left p's subgraph depends on, and what its re-entry points depend on.
        Arrays.fill(reach, 0);
        for (int i = 0; i < w; i++) {
          for (long word = cyc[p * w + i]; word != 0; word &= word - 1) {
            int b = (i << 6) + Long.numberOfTrailingZeros(word);
            or(reach, 0, own, source[b] * w, w);
          }
          for (long word = own[p * w + i] & entry[i]; word != 0; word &= word - 1) {
            int b = (i << 6) + Long.numberOfTrailingZeros(word);
            or(reach, 0, own, owner[b] * w, w);
          }
        }
        for (int k = inStart[p]; k < inStart[p + 1]; k++) {
          int src = inSrc[k];
          if (!intersects(cyc, p * w, cyc, src * w, w) && intersects(reach, 0, own, src * w, w)
              && !singleConsumerLeaf(k, src, own, cyc, w, traced) && !boundary[k]) {
            boundary[k] = true;
            added = true;
          }
        }
      }
      if (!added) {
        return;
      }
    }
  }

  /** A single-consumer op whose own-subgraph dependencies all come straight from Parameters/Constants: never cut. */
  private boolean singleConsumerLeaf(int k, int src, long[] own, long[] cyc, int w, long[] traced) {
    return inSrcPortConsumers[k] == 1 && !graphInput(src) && !any(cyc, src * w, w)
        && !intersects(own, src * w, traced, 0, w);
  }

  /**
   * Step 4: when the subgraph graph has a non-trivial strongly connected component, cuts every
   * same-subgraph input of its best-ranked node. Returns false when there is no such component.
   */
  private boolean isolateOneSccNode(int[] comp, boolean[] boundary) {
    int[] start = new int[n + 1];
    int[] to = subgraphAdjacency(comp, boundary, start);
    boolean[] member = SubgraphGraph.cyclicSubgraphs(comp, start, to);
    int target = -1;
    long targetRank = Long.MAX_VALUE;
    for (int p = 0; p < n; p++) {
      if (!member[comp[p]]) {
        continue;
      }
      int same = 0;
      boolean reentry = false;
      boolean shared = false;
      boolean leafInput = false;
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        int src = inSrc[k];
        if (boundary[k]) {
          reentry |= comp[src] != comp[p] && member[comp[src]];
        } else if (comp[src] == comp[p]) {
          same++;
          shared |= nonResultConsumers[src] > 1;
          leafInput |= graphInputLeaf(src);
        }
      }
      if (same == 0) {
        continue;
      }
      boolean linear = same == 1 && nonResultConsumers[p] <= 1;
      // Lexicographic: re-entry first, then shared source, no leaf input, not linear, fewer inputs, earlier.
      long rank = ((long) (reentry ? 0 : 1) << 62) | ((long) (shared ? 0 : 1) << 61)
          | ((long) (leafInput ? 1 : 0) << 60)
          | ((long) (linear ? 1 : 0) << 59) | ((long) Math.min(same, 0xFFFF) << 32) | p;
      if (rank < targetRank) {
        targetRank = rank;
        target = p;
      }
    }
    if (target < 0) {
      return false;
    }
    for (int k = inStart[target]; k < inStart[target + 1]; k++) {
      if (!boundary[k] && comp[inSrc[k]] == comp[target]) {
        boundary[k] = true;
      }
    }
    return true;
  }

  /** An op with one non-Result consumer fed only by Parameters/Constants. */
  private boolean graphInputLeaf(int p) {
    if (graphInput(p) || nonResultConsumers[p] != 1) {
      return false;
    }
    for (int k = inStart[p]; k < inStart[p + 1]; k++) {
      if (!graphInput(inSrc[k])) {
        return false;
      }
    }
    return true;
  }
}
