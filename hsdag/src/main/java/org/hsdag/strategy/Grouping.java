package org.hsdag.strategy;

import java.util.Arrays;
import java.util.Locale;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.ir.OpGraph;

/**
 * How a baseline groups ops into units before searching (see {@link PlacementSpace}). Returns a
 * group id per node; ids need not be dense.
 */
public interface Grouping {
  String name();

  int[] groupOf(OpGraph graph);

  /** Every op alone. */
  Grouping PER_OP = new Grouping() {
    @Override
    public String name() {
      return "per-op";
    }

    @Override
    public int[] groupOf(OpGraph graph) {
      int[] g = new int[graph.nodeCount()];
      Arrays.setAll(g, i -> i);
      return g;
    }
  };

  /**
   * Constant subgraphs (weights and their decompression chains) join their first consumer; every
   * other op is alone. HETERO places constants with their consumer anyway, so searching their
   * device separately only wastes measurements.
   */
  Grouping CONSTANTS_WITH_CONSUMER = new Grouping() {
    @Override
    public String name() {
      return "constants-with-consumer";
    }

    @Override
    public int[] groupOf(OpGraph graph) {
      int n = graph.nodeCount();
      boolean[] constLike = new boolean[n];
      for (int v : graph.topologicalOrder()) {
        if (graph.node(v).isConstant()) {
          constLike[v] = true;
        } else if (!graph.node(v).isParameter() && graph.inDegree(v) > 0) {
          boolean all = true;
          for (int p : graph.predecessors(v)) {
            all &= constLike[p];
          }
          constLike[v] = all;
        }
      }
      int[] g = new int[n];
      int[] order = graph.topologicalOrder();
      // Reverse topological order: a constant's consumer already has its final group.
      for (int i = n - 1; i >= 0; i--) {
        int v = order[i];
        g[v] = v;
        if (constLike[v] && graph.outDegree(v) > 0) {
          g[v] = g[graph.successor(v, 0)];
        }
      }
      return g;
    }
  };

  /**
   * The project's co-location coarsening ({@link ColocationCoarsener}): {@code MIRHOSEINI} (an op
   * with a single consumer joins it), {@code HSDAG} (an op with a single producer joins it) or
   * {@code NONE}; in every mode constants and Parameters follow their consumer.
   */
  static Grouping colocation(CoarseningMode mode) {
    ColocationCoarsener coarsener = new ColocationCoarsener(mode);
    String name = "colocation-" + mode.name().toLowerCase(Locale.ROOT);
    return new Grouping() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public int[] groupOf(OpGraph graph) {
        return coarsener.coarsen(graph).clusterOf();
      }
    };
  }
}
