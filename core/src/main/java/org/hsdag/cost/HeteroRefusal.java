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
    return check(g, deviceOfNode, null);
  }

  /** {@link #check(OpGraph, int[])} with {@code oracle} (the runtime) judging the boundaries; null: hsdag's rules. */
  public static Optional<String> check(OpGraph g, int[] deviceOfNode, BoundaryOracle oracle) {
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
    HeteroSplit split = HeteroSplit.ofGraph(g, opOf, ops);
    HeteroSplit.Refused r = (oracle == null ? split : split.withOracle(oracle)).refusal(device);
    return r == null ? Optional.empty() : Optional.of(reason(g, r.producer(), r.consumer(), r.source(), r.shape()));
  }

  /** The reason for a refused boundary from graph node {@code producer} to graph node {@code consumer}, by hsdag's rules. */
  public static String reason(OpGraph g, int producer, int consumer) {
    return reason(g, producer, consumer, BoundaryOracle.RULES, "");
  }

  /**
   * The reason for a refused boundary, saying who judged it ({@code source}: the runtime's shape
   * inference or {@link BoundaryOracle#RULES}) and the shape the runtime inferred ({@code shape}, may be empty).
   */
  public static String reason(OpGraph g, int producer, int consumer, String source, String shape) {
    OpNode p = g.node(producer);
    OpNode c = g.node(consumer);
    return PREFIX + " (infer request): '" + p.name() + "' (" + p.type() + ") feeds '" + c.name() + "' ("
        + c.type() + ") in another sub-model, and its shape depends on a value that enters its own sub-model"
        + " from outside (a shape-computing chain cut by the split), so its tensor is zero-sized there"
        + (shape.isEmpty() ? "" : " (shape " + shape + ")") + "; judged by " + source;
  }
}
