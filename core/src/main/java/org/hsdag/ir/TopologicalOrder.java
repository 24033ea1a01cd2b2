package org.hsdag.ir;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.Queue;

/** Kahn's topological sort, the one used for every graph in hsdag (IR graphs and their quotients). */
public final class TopologicalOrder {
  private TopologicalOrder() {}

  /** Which of several ready nodes goes next: the choice fixes the order, and every figure computed along it. */
  public enum TieBreak {
    /** First ready, first out (the queue seeded in index order): linear time; the order of {@link OpGraph}. */
    FIRST_READY,
    /** The lowest ready index: an input already in topological order comes back unchanged. */
    LOWEST_INDEX
  }

  /**
   * A topological order of the nodes {@code 0..n-1}, whose successors of {@code v} are {@code
   * adj[start[v]] .. adj[start[v+1]-1]}. Nodes on or behind a cycle are left out, so the result is
   * shorter than {@code n} exactly when the graph has a cycle.
   */
  public static int[] kahn(int n, int[] start, int[] adj, TieBreak tieBreak) {
    int[] indeg = new int[n];
    for (int j = 0; j < start[n]; j++) {
      indeg[adj[j]]++;
    }
    Queue<Integer> ready = tieBreak == TieBreak.FIRST_READY ? new ArrayDeque<>() : new PriorityQueue<>();
    for (int i = 0; i < n; i++) {
      if (indeg[i] == 0) {
        ready.add(i);
      }
    }
    int[] order = new int[n];
    int k = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[k++] = v;
      for (int j = start[v]; j < start[v + 1]; j++) {
        if (--indeg[adj[j]] == 0) {
          ready.add(adj[j]);
        }
      }
    }
    return k == n ? order : Arrays.copyOf(order, k);
  }
}
