package org.hsdag.cost;

import java.util.Arrays;

/**
 * Cycles in the graph of a {@link HeteroSplit}'s subgraphs: nodes are the subgraph roots ({@code
 * comp[c] == c}), the successors of root c are {@code to[start[c] .. start[c + 1])}.
 */
final class SubgraphGraph {
  private SubgraphGraph() {}

  /** Whether the graph of subgraphs is acyclic (Kahn). */
  static boolean acyclic(int[] comp, int[] start, int[] to) {
    int n = comp.length;
    int[] indeg = new int[n];
    for (int d : to) {
      indeg[d]++;
    }
    int nodes = 0;
    int[] queue = new int[n];
    int tail = 0;
    for (int c = 0; c < n; c++) {
      if (comp[c] == c) {
        nodes++;
        if (indeg[c] == 0) {
          queue[tail++] = c;
        }
      }
    }
    for (int head = 0; head < tail; head++) {
      int c = queue[head];
      for (int j = start[c]; j < start[c + 1]; j++) {
        if (--indeg[to[j]] == 0) {
          queue[tail++] = to[j];
        }
      }
    }
    return tail == nodes;
  }

  /** Subgraph roots in a strongly connected component of more than one subgraph (iterative Tarjan). */
  static boolean[] cyclicSubgraphs(int[] comp, int[] start, int[] to) {
    int n = comp.length;
    boolean[] member = new boolean[n];
    int[] index = new int[n];
    int[] low = new int[n];
    Arrays.fill(index, -1);
    boolean[] onStack = new boolean[n];
    int[] stack = new int[n];
    int sp = 0;
    int[] callNode = new int[n];
    int[] callNext = new int[n];
    int next = 0;
    for (int root = 0; root < n; root++) {
      if (comp[root] != root || index[root] >= 0) {
        continue;
      }
      int depth = 0;
      callNode[0] = root;
      callNext[0] = 0;
      index[root] = low[root] = next++;
      stack[sp++] = root;
      onStack[root] = true;
      while (depth >= 0) {
        int v = callNode[depth];
        if (start[v] + callNext[depth] < start[v + 1]) {
          int u = to[start[v] + callNext[depth]++];
          if (index[u] < 0) {
            index[u] = low[u] = next++;
            stack[sp++] = u;
            onStack[u] = true;
            depth++;
            callNode[depth] = u;
            callNext[depth] = 0;
          } else if (onStack[u]) {
            low[v] = Math.min(low[v], index[u]);
          }
        } else {
          if (low[v] == index[v]) {
            int size = 0;
            int top = sp;
            do {
              onStack[stack[--sp]] = false;
              size++;
            } while (stack[sp] != v);
            if (size > 1) {
              for (int i = sp; i < top; i++) {
                member[stack[i]] = true;
              }
            }
          }
          depth--;
          if (depth >= 0) {
            low[callNode[depth]] = Math.min(low[callNode[depth]], low[v]);
          }
        }
      }
    }
    return member;
  }
}
