package org.hsdag.placement;

import java.util.Arrays;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * The one definition of which nodes follow another node's device when hsdag hands a placement to
 * HETERO (manual affinity on every node), as a pure function of the graph:
 *
 * <ul>
 *   <li><b>Constant-only nodes</b> — {@code Const} and every non-Parameter, non-Result node computed
 *       only from constants (the FP16 {@code Convert} decompression chain, INT8 dequantisation) —
 *       take the device of their earliest consumer (by topological rank): no weight crosses a
 *       device boundary and no constant is left on a device of its own.
 *   <li><b>Parameters</b> take the device of their earliest consumer.
 *   <li><b>Results</b> take the device of their producer (HETERO's subgraph collector gives a
 *       Result its producer's affinity anyway).
 * </ul>
 *
 * Every other node keeps its own device. Used by {@code HeteroAffinity} (what OpenVINO is given),
 * the simulator's sub-model split, constant folding in the cost model, the coarseners and the
 * search strategies, so they all agree. Immutable.
 */
public final class HeteroRules {
  private final boolean[] constantOnly;
  /** The node whose device each node takes, or -1 when it keeps its own. */
  private final int[] leader;
  /** Followers in an order in which every leader is final before its followers are read. */
  private final int[] order;

  public HeteroRules(OpGraph g) {
    int n = g.nodeCount();
    constantOnly = constantOnlyNodes(g);
    leader = new int[n];
    Arrays.fill(leader, -1);
    int[] topo = g.topologicalOrder();
    int[] ord = new int[n];
    int k = 0;
    // Consumer-followers in reverse topological order: every consumer is final before its producers.
    for (int r = n - 1; r >= 0; r--) {
      int v = topo[r];
      if (!constantOnly[v] && !g.node(v).isParameter()) {
        continue;
      }
      int earliest = -1;
      for (int c : g.successors(v)) {
        if (earliest < 0 || g.topologicalRank(c) < g.topologicalRank(earliest)) {
          earliest = c;
        }
      }
      if (earliest >= 0) {
        leader[v] = earliest;
        ord[k++] = v;
      }
    }
    // Results last: their producer (a constant or Parameter included) is final by then.
    for (int v : topo) {
      if (g.node(v).isResult() && g.inDegree(v) == 1) {
        leader[v] = g.predecessor(v, 0);
        ord[k++] = v;
      }
    }
    order = Arrays.copyOf(ord, k);
  }

  /** True when node {@code v} is a Const or computed only from constants (folded at compile time). */
  public boolean isConstantOnly(int v) {
    return constantOnly[v];
  }

  /** The node whose device {@code v} takes under the rules, or -1 when {@code v} keeps its own. */
  public int leader(int v) {
    return leader[v];
  }

  /** Followers in resolution order (each one's leader is resolved before it). */
  public int[] followers() {
    return order.clone();
  }

  /** A copy of {@code deviceOf} (one device per node) with every follower on its leader's device. */
  public int[] resolve(int[] deviceOf) {
    if (deviceOf.length != leader.length) {
      throw new InvalidPlacementException(
          "placement has " + deviceOf.length + " nodes but the model has " + leader.length);
    }
    int[] device = deviceOf.clone();
    for (int v : order) {
      device[v] = device[leader[v]];
    }
    return device;
  }

  /**
   * Const nodes, ShapeOf of a Parameter, and every non-Parameter, non-Result node whose inputs are
   * all constant-only. A ShapeOf of a model input is a constant of the compiled model (the input
   * shapes are static when compiled): OpenVINO folds such chains and merges identical ones while
   * reading the model (ssd-inception-v2: six ShapeOf(image)→StridedSlice chains read as one), so
   * they follow their consumer like any constant (docs/hetero-rules.md).
   */
  public static boolean[] constantOnlyNodes(OpGraph g) {
    boolean[] c = new boolean[g.nodeCount()];
    for (int v : g.topologicalOrder()) {
      OpNode node = g.node(v);
      if (node.isConstant()) {
        c[v] = true;
      } else if (node.type().equals("ShapeOf") && g.inDegree(v) == 1 && g.node(g.predecessor(v, 0)).isParameter()) {
        c[v] = true;
      } else if (!node.isParameter() && !node.isResult() && g.inDegree(v) > 0) {
        boolean all = true;
        for (int p : g.predecessors(v)) {
          all &= c[p];
        }
        c[v] = all;
      }
    }
    return c;
  }
}
