package org.hsdag.cost;

import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.HeteroRules;

/** The one wording of a split HETERO refuses (docs/hetero-rules.md), shared by the simulator, apply and reports. */
public final class HeteroRefusal {
  /** What every refusal's reason starts with, so reports can group them. */
  public static final String PREFIX = "HETERO refuses this split";

  private HeteroRefusal() {}

  /**
   * Why HETERO refuses a placement given as a device index per graph node (followers are resolved by
   * {@link HeteroRules}), or empty when the runtime takes it. Needs no profile: only the graph.
   */
  public static Optional<String> check(OpGraph g, int[] deviceOfNode) {
    HeteroRules rules = new HeteroRules(g);
    int n = g.nodeCount();
    int[] opOf = new int[n];
    int ops = 0;
    for (int v = 0; v < n; v++) {
      OpNode node = g.node(v);
      opOf[v] = rules.isConstantOnly(v) || node.isParameter() || node.isResult() ? -1 : ops++;
    }
    int[] device = new int[ops];
    for (int v = 0; v < n; v++) {
      if (opOf[v] >= 0) {
        device[opOf[v]] = deviceOfNode[v];
      }
    }
    int[] b = HeteroSplit.ofGraph(g, opOf, ops).refusedBoundary(device);
    return b == null ? Optional.empty() : Optional.of(reason(g, b[0], b[1]));
  }

  /** The reason for a refused boundary from graph node {@code producer} to graph node {@code consumer}. */
  public static String reason(OpGraph g, int producer, int consumer) {
    OpNode p = g.node(producer);
    OpNode c = g.node(consumer);
    return PREFIX + " (infer request): '" + p.name() + "' (" + p.type() + ") feeds '" + c.name() + "' ("
        + c.type() + ") in another sub-model, and its shape depends on a value that enters its own sub-model"
        + " from outside (a shape-computing chain cut by the split), so its tensor is zero-sized there";
  }
}
