package org.hsdag.strategy;

import java.util.Arrays;
import java.util.Locale;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;

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
   * Constant subgraphs (weights and their decompression chains) join their earliest consumer
   * ({@link HeteroRules}); every
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
      HeteroRules rules = new HeteroRules(graph);
      int[] g = new int[n];
      int[] order = graph.topologicalOrder();
      // Reverse topological order: a constant's consumer (its leader) already has its final group.
      for (int i = n - 1; i >= 0; i--) {
        int v = order[i];
        g[v] = rules.isConstantOnly(v) && rules.leader(v) >= 0 ? g[rules.leader(v)] : v;
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
