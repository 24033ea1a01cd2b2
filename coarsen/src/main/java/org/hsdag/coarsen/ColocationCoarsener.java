package org.hsdag.coarsen;

import java.util.Arrays;
import java.util.Objects;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;

/**
 * Co-location coarsening of an {@link OpGraph} into a {@link Coarsening} with an acyclic quotient.
 *
 * <p>Two phases, both linear-time (union–find):
 *
 * <ol>
 *   <li>The mode rule, applied to every op of the original graph. {@code MIRHOSEINI}: an op all of whose
 *       outgoing edges go to one consumer op joins that consumer. {@code HSDAG}: an op all of whose
 *       incoming edges come from one producer op joins that producer. Union–find makes the closure, so
 *       one pass reaches the rule's fixed point. Groups are then in-trees (resp. out-trees) whose edges
 *       leave (resp. enter) only at the root, so any path between groups is a path between ops: the
 *       quotient is acyclic by construction and no merge has to be skipped.
 *   <li>Followers: constants (Const ops and every op computed only from constants, such as the
 *       decompression {@code Convert} of FP16 weights or a weight {@code FakeQuantize}) and Parameters
 *       follow their consumer. Every group made only of followers, visited in reverse topological order π
 *       of the phase-1 quotient, joins its π-first consumer group. This cannot create a cycle: the merged
 *       group takes the joined group's position in π; the follower group's producers come earlier in π
 *       than itself, and its other consumers later than the one it joins, so π stays a topological order
 *       of the merged quotient. A shared constant thus joins its earliest consumer, a chain
 *       Const → Convert → Convolution ends in the convolution's group, and a follower without consumer
 *       stays alone.
 * </ol>
 *
 * Clusters are numbered in a deterministic topological order of the quotient (Kahn, ties by lowest member
 * index). The final quotient is checked to be acyclic; a failure there is a bug, not bad input.
 */
public final class ColocationCoarsener {
  private final CoarseningMode mode;

  public ColocationCoarsener(CoarseningMode mode) {
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  public CoarseningMode mode() {
    return mode;
  }

  public Coarsening coarsen(OpGraph g) {
    int n = g.nodeCount();
    IntGraph graph = IntGraph.of(g);
    DisjointSets ops = new DisjointSets(n);
    switch (mode) {
      case MIRHOSEINI -> {
        for (int v = 0; v < n; v++) {
          int only = onlyNeighbour(g.successors(v));
          if (only >= 0) {
            ops.union(v, only);
          }
        }
      }
      case HSDAG -> {
        for (int v = 0; v < n; v++) {
          int only = onlyNeighbour(g.predecessors(v));
          if (only >= 0) {
            ops.union(v, only);
          }
        }
      }
      case NONE -> {
        // no rule; only followers below
      }
    }
    int[] group = ops.labels();
    int groupCount = ops.setCount();
    int[] finalGroup = foldFollowers(g, graph, group, groupCount);
    return numberTopologically(graph, finalGroup);
  }

  /** The single distinct entry of a neighbour list, or -1 when it is empty or has two distinct entries. */
  private static int onlyNeighbour(int[] neighbours) {
    if (neighbours.length == 0) {
      return -1;
    }
    for (int u : neighbours) {
      if (u != neighbours[0]) {
        return -1;
      }
    }
    return neighbours[0];
  }

  /** Constants, ops computed only from constants ({@link HeteroRules}), and Parameters. */
  static boolean[] followers(OpGraph g) {
    boolean[] follower = HeteroRules.constantOnlyNodes(g);
    for (int v = 0; v < follower.length; v++) {
      follower[v] |= g.node(v).isParameter();
    }
    return follower;
  }

  /**
   * Phase 2: returns a group label per node (not dense). Followers join their π-first consumer
   * <em>group</em>, not {@link HeteroRules#leader}'s earliest consumer node: only the group order keeps the quotient acyclic.
   */
  private static int[] foldFollowers(OpGraph g, IntGraph graph, int[] group, int groupCount) {
    IntGraph q0 = Quotients.of(graph, group, groupCount);
    int[] order = Quotients.topologicalOrder(q0);
    if (order == null) {
      throw new IllegalStateException("internal error: co-location rule produced a cyclic quotient");
    }
    int[] pos = new int[groupCount];
    for (int r = 0; r < groupCount; r++) {
      pos[order[r]] = r;
    }
    boolean[] follower = followers(g);
    boolean[] allFollowers = new boolean[groupCount];
    Arrays.fill(allFollowers, true);
    for (int v = 0; v < follower.length; v++) {
      if (!follower[v]) {
        allFollowers[group[v]] = false;
      }
    }
    int[] succStart = new int[groupCount + 1];
    for (int e = 0; e < q0.edgeCount(); e++) {
      succStart[q0.src(e) + 1]++; // q0 edges are sorted by source
    }
    for (int c = 0; c < groupCount; c++) {
      succStart[c + 1] += succStart[c];
    }
    DisjointSets groups = new DisjointSets(groupCount);
    for (int r = groupCount - 1; r >= 0; r--) {
      int c = order[r];
      if (!allFollowers[c]) {
        continue;
      }
      // c is still untouched here: merges only go to later groups in pi.
      int target = -1;
      for (int e = succStart[c]; e < succStart[c + 1]; e++) {
        int t = groups.find(q0.dst(e));
        if (target < 0 || pos[t] < pos[target]) {
          target = t;
        }
      }
      if (target >= 0) {
        // The target keeps its identity and position, so pos[] stays a topological order.
        groups.unionInto(c, target);
      }
    }
    int[] result = new int[group.length];
    for (int v = 0; v < group.length; v++) {
      result[v] = groups.find(group[v]);
    }
    return result;
  }

  /** Renumbers arbitrary group labels densely in a topological order of the quotient. */
  private Coarsening numberTopologically(IntGraph graph, int[] label) {
    int n = label.length;
    int[] dense = new int[n];
    int[] byLabel = new int[n];
    Arrays.fill(byLabel, -1);
    int k = 0;
    for (int v = 0; v < n; v++) {
      if (byLabel[label[v]] < 0) {
        byLabel[label[v]] = k++;
      }
      dense[v] = byLabel[label[v]];
    }
    int[] order = Quotients.topologicalOrder(Quotients.of(graph, dense, k));
    if (order == null) {
      throw new IllegalStateException("internal error: coarsening produced a cyclic quotient");
    }
    int[] rank = new int[k];
    for (int r = 0; r < k; r++) {
      rank[order[r]] = r;
    }
    int[] clusterOf = new int[n];
    for (int v = 0; v < n; v++) {
      clusterOf[v] = rank[dense[v]];
    }
    return new Coarsening(mode, clusterOf, k, Quotients.of(graph, clusterOf, k));
  }
}
