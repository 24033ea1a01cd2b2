package org.hsdag.cost;

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
 *
 * <p>Steps 1 and 5 and the judging of boundaries are here; steps 2–4 are {@link HeteroSubgraphs}'s.
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
  /** Input edges of each position, in port order: source positions. */
  private final int[] inStart;
  private final int[] inSrc;
  /** Steps 2–4, on the same node tables. */
  private final HeteroSubgraphs subgraphs;
  private final int opCount;
  /** The boundaries the runtime refuses, when the split knows its graph's op types (else null). */
  private final ShapeBoundaries shapes;
  /** The runtime's judge of the boundaries, or null: then {@link #shapes} (hsdag's rules) judges. */
  private final BoundaryOracle oracle;
  private final SplitMemo memo;

  HeteroSplit(byte[] kind, int[] opAt, int[] leader, int[] followOrder, int[] inStart, int[] inSrc,
      int[] inSrcPortConsumers, int opCount, ShapeBoundaries shapes) {
    this(kind, opAt, leader, followOrder, inStart, inSrc, new HeteroSubgraphs(kind, inStart, inSrc, inSrcPortConsumers),
        opCount, shapes, null);
  }

  private HeteroSplit(byte[] kind, int[] opAt, int[] leader, int[] followOrder, int[] inStart, int[] inSrc,
      HeteroSubgraphs subgraphs, int opCount, ShapeBoundaries shapes, BoundaryOracle oracle) {
    this.shapes = shapes;
    this.oracle = shapes == null ? null : oracle;
    this.n = kind.length;
    this.kind = kind;
    this.opAt = opAt;
    this.leader = leader;
    this.followOrder = followOrder;
    this.inStart = inStart;
    this.inSrc = inSrc;
    this.subgraphs = subgraphs;
    this.opCount = opCount;
    this.memo = SplitMemo.forOps(opCount);
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
    return new HeteroSplit(kind, opAt, leader, followOrder, inStart, inSrc, subgraphs, opCount, shapes, oracle);
  }

  /** Who judges the boundaries: the oracle's source, or {@link BoundaryOracle#RULES}. */
  String refusalSource() {
    return oracle == null ? BoundaryOracle.RULES : oracle.source();
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

  /** Steps 1–4: the device ({@code dev}, filled) and subgraph of every position; 2–4 are {@link HeteroSubgraphs}'s. */
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
    return subgraphs.of(boundary, crossing);
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
