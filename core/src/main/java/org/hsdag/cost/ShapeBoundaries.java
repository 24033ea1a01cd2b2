package org.hsdag.cost;

import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.OpShapes;

/**
 * Which HETERO sub-model boundaries the runtime refuses (see {@code docs/hetero-rules.md}): a
 * boundary tensor whose shape, inferred inside its producer's sub-model, is not static.
 *
 * <p>HETERO cuts the model into sub-models and gives every sub-model input a Parameter with the
 * tensor's original static shape and an unknown value ({@code src/plugins/hetero/src/subgraph_collector.cpp}).
 * Shape inference inside a sub-model then loses every shape that depends on the <em>value</em> of a
 * tensor that came in from another sub-model (a PriorBox fed a layer size, a Reshape fed its target
 * shape, ...): the op's output becomes dynamic ([2,?]), and so does everything computed from it in
 * that sub-model. When such a tensor leaves its sub-model, the producer's infer request holds a
 * zero-sized tensor for it, and HETERO's infer request fails linking it to the next sub-model's
 * static input ("Can't set the input tensor ... (shape=(1.2.0)) are incompatible",
 * {@code src/inference/src/dev/isync_infer_request.cpp}). Runs: {@code docs/hetero-rules.md}.
 *
 * <p>Inside a sub-model a value is known when it comes from a Constant, from a ShapeOf of a static
 * tensor (a sub-model input included: its shape is static), from a chain of ShapeOf of the model's
 * Parameters (known everywhere), or from an op all of whose inputs are known in the same sub-model.
 * The sub-models are {@link HeteroSplit}'s, on the model as OpenVINO reads it ({@code
 * ir.ReadMerges}): on 100 random contiguous placements of ssd-inception-v2 the rule on them agreed
 * with the runtime on every refusal, and their count on every placement that ran (docs/hetero-rules.md).
 * Immutable.
 */
final class ShapeBoundaries {
  /** Per node position: bit j set when input port j's value shapes the output. */
  private final int[] valuePorts;
  private final boolean[] shapeOf;
  /**
   * Per position: the value is known in every sub-model whatever the split — computed only from
   * Constants and ShapeOf of the model's own Parameters (static shapes). Such a value crosses
   * sub-models as a known value (run: a PriorBox fed the image size from another sub-model keeps
   * its static shape, docs/hetero-rules.md).
   */
  private final boolean[] global;
  /** The graph node at each position, to name a refused boundary. */
  private final int[] nodeAt;

  private ShapeBoundaries(int[] valuePorts, boolean[] shapeOf, boolean[] global, int[] nodeAt) {
    this.valuePorts = valuePorts;
    this.shapeOf = shapeOf;
    this.global = global;
    this.nodeAt = nodeAt;
  }

  /** The tables of {@code g} with its nodes at positions {@code topo} (position → node). */
  static ShapeBoundaries of(OpGraph g, int[] topo) {
    int n = topo.length;
    int[] valuePorts = new int[n];
    boolean[] shapeOf = new boolean[n];
    boolean[] global = new boolean[g.nodeCount()];
    for (int r = 0; r < n; r++) {
      String type = g.node(topo[r]).type();
      valuePorts[r] = OpShapes.valueInputs(type);
      shapeOf[r] = type.equals("ShapeOf");
    }
    // In the file's own order: positions put the nodes OpenVINO's reader merges away last.
    for (int v : g.topologicalOrder()) {
      OpNode node = g.node(v);
      if (node.isConstant()) {
        global[v] = true;
      } else if (node.type().equals("ShapeOf")) {
        global[v] = g.inDegree(v) == 1 && g.node(g.predecessor(v, 0)).isParameter();
      } else if (!node.isParameter() && !node.isResult() && g.inDegree(v) > 0) {
        boolean all = true;
        for (int p : g.predecessors(v)) {
          all &= global[p];
        }
        global[v] = all;
      }
    }
    boolean[] globalAt = new boolean[n];
    for (int r = 0; r < n; r++) {
      globalAt[r] = global[topo[r]];
    }
    return new ShapeBoundaries(valuePorts, shapeOf, globalAt, topo.clone());
  }

  /** The graph node at position {@code p}. */
  int nodeAt(int p) {
    return nodeAt[p];
  }

  /**
   * The first input edge (index into {@code inSrc}) that crosses sub-models carrying a tensor whose
   * shape is dynamic inside its producer's sub-model, or -1 when the runtime takes every boundary.
   *
   * @param kind {@link HeteroSplit}'s kind of every position (positions are topologically ordered)
   * @param comp the sub-model of every position
   */
  int refusedEdge(byte[] kind, int[] inStart, int[] inSrc, int[] comp) {
    int n = kind.length;
    boolean[] known = new boolean[n];
    boolean[] dynamic = new boolean[n];
    for (int p = 0; p < n; p++) {
      if (kind[p] == HeteroSplit.CONSTANT || global[p]) {
        known[p] = true;
        continue;
      }
      if (kind[p] != HeteroSplit.OP) {
        continue;
      }
      boolean allKnown = true;
      boolean dyn = false;
      for (int k = inStart[p], j = 0; k < inStart[p + 1]; k++, j++) {
        int s = inSrc[k];
        boolean inside = comp[s] == comp[p];
        boolean valueKnown = kind[s] == HeteroSplit.CONSTANT || global[s] || (inside && known[s]);
        boolean shapeDynamic = inside && dynamic[s];
        allKnown &= valueKnown;
        dyn |= shapeDynamic || (((valuePorts[p] >>> j) & 1) != 0 && !valueKnown);
      }
      if (shapeOf[p]) {
        // A ShapeOf's output has the input's rank: static; its value is known when the input's shape is static.
        known[p] = !dyn;
        dynamic[p] = false;
      } else {
        dynamic[p] = dyn;
        known[p] = allKnown && !dyn;
      }
    }
    for (int p = 0; p < n; p++) {
      for (int k = inStart[p]; k < inStart[p + 1]; k++) {
        int s = inSrc[k];
        if (dynamic[s] && comp[s] != comp[p]) {
          return k;
        }
      }
    }
    return -1;
  }
}
