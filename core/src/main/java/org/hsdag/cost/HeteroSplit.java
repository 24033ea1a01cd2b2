// size: HETERO's subgraph collector, steps 1-5 in the order OpenVINO runs them, reads best as one class
package org.hsdag.cost;

import static org.hsdag.cost.Bitsets.any;
import static org.hsdag.cost.Bitsets.intersects;
import static org.hsdag.cost.Bitsets.or;
import static org.hsdag.cost.Bitsets.set;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;

/**
 * HETERO's split of a placement into sub-models, over every node of the model as OpenVINO sees it
 * (Parameters, Constants, the constant chains and Results included, not only the kernels, and the
 * shape chains its reader merges, {@code ir.ReadMerges}, merged): the one place hsdag decides
 * sub-models. Immutable but for a bounded memo of the last splits ({@link SplitMemo}, which changes
 * no result); {@link #split} allocates its own work arrays.
 *
 * <p>The rules are those of OpenVINO's HETERO subgraph collector ({@code
 * src/plugins/hetero/src/subgraph_collector.cpp}, the version with the subgraph-level SCC fallback
 * whose assertion messages the 2026.4.1 wheel's {@code libopenvino_hetero_plugin.so} carries),
 * re-implemented here and checked against that wheel's {@code HETERO_NUMBER_OF_SUBMODELS} on the
 * bundled models and on random DAGs:
 *
 * <ol>
 *   <li>Every node has a device: ops their placement's, other nodes by {@link HeteroRules}. An
 *       input edge whose source is on another device is a boundary, except into a Result, which
 *       takes its producer's device instead. Parameters and Constants are boundaries of their own.
 *   <li>Subgraphs are the connected components over non-boundary edges (so a Constant shared by
 *       two same-device consumers joins them, even across a foreign region).
 *   <li>Cycle splitting, repeated until no edge is added: with D(v) the boundaries upstream of v,
 *       S(v) those of D(v) owned by v's subgraph and Y(v) those of D(v) produced in v's subgraph
 *       (data that left v's subgraph and came back), every v with Y(v) non-empty makes an input
 *       edge from s a boundary when Y(v) and Y(s) are disjoint and S(s) meets the boundaries that
 *       the returning data and the re-entry points depend on (unless s is a lone single-consumer
 *       op fed only by Parameters/Constants). Skip connections make this cut long same-device
 *       runs into many pieces (a resnet50 placement of a few runs compiles to 23 sub-models).
 *   <li>While the subgraph graph still has a cycle: in one of its non-trivial strongly connected
 *       components, the best-ranked node (a cycle re-entry, then a shared source, …) has all its
 *       same-subgraph inputs made boundaries.
 *   <li>A subgraph is a sub-model when it holds a Parameter, a Result, or an end of an edge
 *       between subgraphs whose source is not a Constant. So a Result cut from its producer is a
 *       sub-model of its own, and a Constant-only subgraph is none.
 * </ol>
 */
final class HeteroSplit {
  static final byte OP = 0;
  static final byte PARAMETER = 1;
  static final byte CONSTANT = 2;
  static final byte RESULT = 3;

  /** Nodes are positions in a topological order. */
  private final int n;
  private final byte[] kind;
  /** Model op (kernel) index at each position, or -1. */
  private final int[] opAt;
  /** Position whose device a non-op takes (by {@link HeteroRules}), or -1 (device 0). */
  private final int[] leader;
  private final int[] followOrder;
  /** Input edges of each position, in port order: source position, and consumers of that source port. */
  private final int[] inStart;
  private final int[] inSrc;
  private final int[] inSrcPortConsumers;
  private final int[] nonResultConsumers;
  private final int opCount;
  /** The boundaries the runtime refuses, when the split knows its graph's op types (else null). */
  private final ShapeBoundaries shapes;
  /** The runtime's judge of the boundaries, or null: then {@link #shapes} (hsdag's rules) judges. */
  private final BoundaryOracle oracle;
  private final SplitMemo memo;

  HeteroSplit(byte[] kind, int[] opAt, int[] leader, int[] followOrder, int[] inStart, int[] inSrc,
      int[] inSrcPortConsumers, int opCount, ShapeBoundaries shapes) {
    this(kind, opAt, leader, followOrder, inStart, inSrc, inSrcPortConsumers, opCount, shapes, null);
  }

  private HeteroSplit(byte[] kind, int[] opAt, int[] leader, int[] followOrder, int[] inStart, int[] inSrc,
      int[] inSrcPortConsumers, int opCount, ShapeBoundaries shapes, BoundaryOracle oracle) {
    this.shapes = shapes;
    this.oracle = shapes == null ? null : oracle;
    this.n = kind.length;
    this.kind = kind;
    this.opAt = opAt;
    this.leader = leader;
    this.followOrder = followOrder;
    this.inStart = inStart;
    this.inSrc = inSrc;
    this.inSrcPortConsumers = inSrcPortConsumers;
    this.opCount = opCount;
    this.memo = SplitMemo.forOps(opCount);
    nonResultConsumers = new int[n];
    for (int p = 0; p < n; p++) {
      if (kind[p] != RESULT) {
        for (int k = inStart[p]; k < inStart[p + 1]; k++) {
          nonResultConsumers[inSrc[k]]++;
        }
      }
    }
  }

  /** The split of {@code g} whose kernels are the nodes with {@code opOfNode[v] >= 0}. */
  static HeteroSplit ofGraph(OpGraph g, int[] opOfNode, int opCount) {
    return SplitNodeTables.ofGraph(g, opOfNode, opCount);
  }

  /** The split of a model given op by op (no graph); see {@link SplitNodeTables#ofOps}. */
  static HeteroSplit ofOps(int[] predStart, int[] pred, int[] tensorProducer, int[] tensorConsumerStart,
      int[] tensorConsumer, int[] tensorResults) {
    return SplitNodeTables.ofOps(predStart, pred, tensorProducer, tensorConsumerStart, tensorConsumer, tensorResults);
  }

  /**
   * This split with {@code oracle} judging its boundaries instead of hsdag's rules (a fresh memo);
   * a split built without a graph keeps no judge.
   */
  HeteroSplit withOracle(BoundaryOracle oracle) {
    return new HeteroSplit(kind, opAt, leader, followOrder, inStart, inSrc, inSrcPortConsumers, opCount, shapes,
        oracle);
  }

  /** Who judges the boundaries: the oracle's source, or {@link BoundaryOracle#RULES}. */
  String refusalSource() {
    return oracle == null ? BoundaryOracle.RULES : oracle.source();
  }

  private boolean graphInput(int p) {
    return kind[p] == PARAMETER || kind[p] == CONSTANT;
  }

  /**
   * Splits a placement (a model device per op) into sub-models.
   *
   * @param rootOfOp filled with the first op of each op's sub-model
   * @param subModelsByDevice when not null (one entry per device, zeroed), gets the sub-models per device
   * @return the number of sub-models
   */
  int split(int[] deviceOfOp, int[] rootOfOp, int[] subModelsByDevice) {
    return memo.computeIfAbsent(deviceOfOp, this::compute).copyTo(rootOfOp, subModelsByDevice);
  }

  /** {@link #split}, or -1 when HETERO refuses the placement ({@link #refusedBoundary} says why). */
  int splitUnlessRefused(int[] deviceOfOp, int[] rootOfOp, int[] subModelsByDevice) {
    SplitMemo.Entry e = memo.computeIfAbsent(deviceOfOp, this::compute);
    return e.refused() ? -1 : e.copyTo(rootOfOp, subModelsByDevice);
  }

  /** Lookups of the memo answered from it so far, and those computed. */
  long[] memoHitsAndMisses() {
    return memo.hitsAndMisses();
  }

  /** Steps 1–5 and the refusal check of one placement, as the memo keeps them. */
  private SplitMemo.Entry compute(int[] deviceOfOp) {
    int[] dev = new int[n];
    int[] comp = subgraphs(deviceOfOp, dev);
    int[] root = new int[opCount];
    Arrays.fill(root, -1);
    int[] subs = new int[Arrays.stream(deviceOfOp).max().orElse(0) + 1];
    int count = collect(comp, dev, root, subs);
    return new SplitMemo.Entry(root, subs, count, shapes != null && judge(comp).edge() >= 0);
  }

  /** The first refused input edge ({@code inSrc} index, -1 for none) and the shape the runtime gave it. */
  private record Judged(int edge, String shape) {}

  private Judged judge(int[] comp) {
    if (oracle == null) {
      return new Judged(shapes.refusedEdge(kind, inStart, inSrc, comp), "");
    }
    List<Integer> edges = new ArrayList<>();
    BoundaryOracle.Verdict v = oracle.judge(cuts(comp, edges));
    return v.refused() ? new Judged(edges.get(v.firstDynamic()), v.shape()) : new Judged(-1, "");
  }

  /**
   * The sub-models the oracle counts for a placement (-1 without an oracle or when it cannot say), to
   * compare with {@link #split}'s.
   */
  int oracleSubModels(int[] deviceOfOp) {
    if (oracle == null) {
      return -1;
    }
    return oracle.judge(cuts(subgraphs(deviceOfOp, new int[n]), new ArrayList<>())).subModels();
  }

  /** The input edges between different subgraphs as cuts of graph nodes, their indices added to {@code edges}. */
  private List<BoundaryOracle.Cut> cuts(int[] comp, List<Integer> edges) {
    List<BoundaryOracle.Cut> cuts = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        if (comp[inSrc[k]] != comp[p]) {
          cuts.add(new BoundaryOracle.Cut(shapes.nodeAt(p), k - inStart[p]));
          edges.add(k);
        }
      }
    }
    return cuts;
  }

  /** Graph nodes {producer, consumer} of the first boundary HETERO refuses ({@link ShapeBoundaries}), or null. */
  int[] refusedBoundary(int[] deviceOfOp) {
    Refused r = refusal(deviceOfOp);
    return r == null ? null : new int[] {r.producer(), r.consumer()};
  }

  /**
   * A refused boundary: graph nodes {@code producer} → {@code consumer}, who judged it ({@link
   * #refusalSource}) and the shape the runtime inferred for it (empty when hsdag's rules judged).
   */
  record Refused(int producer, int consumer, String source, String shape) {}

  /** The first boundary HETERO refuses under a device per op, or null. */
  Refused refusal(int[] deviceOfOp) {
    if (shapes == null) {
      return null;
    }
    Judged j = judge(subgraphs(deviceOfOp, new int[n]));
    int k = j.edge();
    int p = 0;
    while (k >= 0 && inStart[p + 1] <= k) {
      p++;
    }
    return k < 0 ? null : new Refused(shapes.nodeAt(inSrc[k]), shapes.nodeAt(p), refusalSource(), j.shape());
  }

  /** Steps 1–4: the device ({@code dev}, filled) and subgraph of every position. */
  private int[] subgraphs(int[] deviceOfOp, int[] dev) {
    for (int p = 0; p < n; p++) {
      dev[p] = opAt[p] >= 0 ? deviceOfOp[opAt[p]] : 0;
    }
    for (int p : followOrder) {
      dev[p] = dev[leader[p]];
    }
    boolean[] boundary = new boolean[inSrc.length];
    boolean crossing = false;
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        if (dev[inSrc[k]] != dev[p]) {
          if (kind[p] == RESULT) {
            dev[p] = dev[inSrc[k]];
          } else {
            boundary[k] = true;
            crossing = true;
          }
        }
      }
    }
    int[] comp = components(boundary);
    // Without a cycle between subgraphs neither the cycle splitting nor the SCC fallback adds a boundary.
    if (crossing && !acyclic(comp, boundary)) {
      splitCycles(boundary);
      comp = components(boundary);
      while (isolateOneSccNode(comp, boundary)) {
        comp = components(boundary);
      }
    }
    return comp;
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

  /** Step 5: the subgraphs that become sub-models; roots per op and counts per device. */
  private int collect(int[] comp, int[] dev, int[] rootOfOp, int[] subModelsByDevice) {
    boolean[] sub = new boolean[n];
    for (int p = 0; p < n; p++) {
      if (kind[p] == PARAMETER || kind[p] == RESULT) {
        sub[comp[p]] = true;
      }
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        int src = inSrc[k];
        if (kind[src] != CONSTANT && comp[src] != comp[p]) {
          sub[comp[src]] = true;
          sub[comp[p]] = true;
        }
      }
    }
    int[] firstOp = new int[n];
    Arrays.fill(firstOp, -1);
    for (int p = 0; p < n; p++) {
      int i = opAt[p];
      if (i >= 0) {
        int c = comp[p];
        if (firstOp[c] < 0 || i < firstOp[c]) {
          firstOp[c] = i;
        }
      }
    }
    for (int p = 0; p < n; p++) {
      if (opAt[p] >= 0) {
        rootOfOp[opAt[p]] = firstOp[comp[p]];
      }
    }
    int count = 0;
    for (int c = 0; c < n; c++) {
      if (sub[c]) {
        count++;
        if (subModelsByDevice != null) {
          subModelsByDevice[dev[c]]++;
        }
      }
    }
    return count;
  }

  int opCount() {
    return opCount;
  }
}
