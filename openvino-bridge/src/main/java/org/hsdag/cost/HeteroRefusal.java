package org.hsdag.cost;

import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/** The one wording of a split HETERO refuses (docs/hetero-rules.md), shared by the simulator, apply and reports. */
public final class HeteroRefusal {
  /** What every refusal's reason starts with, so reports can group them. */
  public static final String PREFIX = "HETERO refuses this split";

  private HeteroRefusal() {}

  /** The reason for a refused boundary from graph node {@code producer} to graph node {@code consumer}. */
  public static String reason(OpGraph g, int producer, int consumer) {
    OpNode p = g.node(producer);
    OpNode c = g.node(consumer);
    return PREFIX + " (infer request): '" + p.name() + "' (" + p.type() + ") feeds '" + c.name() + "' ("
        + c.type() + ") in another sub-model, and its shape depends on a value that enters its own sub-model"
        + " from outside (a shape-computing chain cut by the split), so its tensor is zero-sized there";
  }
}
