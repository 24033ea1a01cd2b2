package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;

/**
 * The device HETERO manual mode must see on every node for a placement (shared notes/openvino.md
 * §2.2), as a pure function of the graph. The rules, applied in this order:
 *
 * <ol>
 *   <li><b>Constant-only nodes</b> — {@code Const} and every non-Parameter node computed only from
 *       constants (the FP16 {@code Convert} decompression chain, INT8 weight dequantisation) — take
 *       the device of their earliest consumer (by topological rank), so no constant becomes a
 *       tiny sub-model of its own and no weight crosses a device boundary.
 *   <li><b>Parameters</b> take the device of their earliest consumer.
 *   <li><b>Results</b> take the device of their producer (HETERO would merge them anyway).
 *   <li>Every other node keeps the placement's device.
 * </ol>
 *
 * The result covers every node, as manual mode requires (all-or-nothing). The same rules are
 * implemented in the C++ shim ({@code hsdag_ov_model_set_affinities}) for nodes a caller leaves
 * out, and {@code org.hsdag.sim.SimGraph} applies the same constant-only rule when it splits
 * sub-models, so the simulator and hardware agree. Immutable and thread-safe.
 */
public final class HeteroAffinity {
  private final OpGraph graph;
  private final boolean[] constantOnly;

  /** Precomputes the constant-only nodes of {@code graph}. */
  public HeteroAffinity(OpGraph graph) {
    this.graph = graph;
    this.constantOnly = constantOnlyNodes(graph);
  }

  /** True when node {@code v} is a Const or computed only from constants. */
  public boolean isConstantOnly(int v) {
    return constantOnly[v];
  }

  /**
   * The effective device index of every node under the rules above.
   *
   * @throws InvalidPlacementException if the placement does not cover the graph
   */
  public int[] resolve(Placement placement) {
    if (placement.size() != graph.nodeCount()) {
      throw new InvalidPlacementException(
          "placement has " + placement.size() + " nodes but the model has " + graph.nodeCount());
    }
    int n = graph.nodeCount();
    int[] device = placement.deviceOf();
    int[] topo = graph.topologicalOrder();
    // Reverse topological order: every consumer is final before its producers are looked at.
    for (int r = n - 1; r >= 0; r--) {
      int v = topo[r];
      OpNode node = graph.node(v);
      if (!constantOnly[v] && !node.isParameter()) {
        continue;
      }
      int earliest = -1;
      for (int c : graph.successors(v)) {
        if (earliest < 0 || graph.topologicalRank(c) < graph.topologicalRank(earliest)) {
          earliest = c;
        }
      }
      if (earliest >= 0) {
        device[v] = device[earliest];
      }
    }
    for (int v = 0; v < n; v++) {
      if (graph.node(v).isResult() && graph.inDegree(v) == 1) {
        device[v] = device[graph.predecessor(v, 0)];
      }
    }
    return device;
  }

  /** The resolved placement as a new {@link Placement} on the same device set. */
  public Placement resolvedPlacement(Placement placement) {
    return new Placement(placement.devices(), resolve(placement));
  }

  /**
   * Friendly name → device for every node, in node order: the map the shim's {@code
   * set_affinities} takes and {@code best.json} holds. Nodes sharing a friendly name keep
   * the first one's device (HETERO keys by name).
   */
  public Map<String, String> nameMap(Placement placement) {
    int[] device = resolve(placement);
    Map<String, String> m = new LinkedHashMap<>();
    for (int v = 0; v < device.length; v++) {
      m.putIfAbsent(graph.node(v).name(), placement.devices().name(device[v]));
    }
    return m;
  }

  /**
   * Checks an affinity map against the op names OpenVINO read from the model file, before
   * compiling: every mapped name must exist in the runtime model.
   *
   * @return the problems found (empty when the map fits), at most a few named explicitly
   */
  public static List<String> checkAgainstModel(Map<String, String> affinities, List<String> runtimeOpNames) {
    Set<String> runtime = new LinkedHashSet<>(runtimeOpNames);
    List<String> missing = new ArrayList<>();
    for (String name : affinities.keySet()) {
      if (!runtime.contains(name)) {
        missing.add(name);
      }
    }
    List<String> problems = new ArrayList<>();
    if (!missing.isEmpty()) {
      problems.add(missing.size() + " placed node(s) are not in the model OpenVINO read (first: '" + missing.get(0)
          + "'); the graph and the model file differ");
    }
    return problems;
  }

  private static boolean[] constantOnlyNodes(OpGraph g) {
    boolean[] c = new boolean[g.nodeCount()];
    for (int v : g.topologicalOrder()) {
      OpNode node = g.node(v);
      if (node.isConstant()) {
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
