package org.hsdag.backend;

import org.hsdag.ir.OpGraph;
import org.hsdag.sim.HeteroCostModel;

/**
 * A backend capability: an additive HETERO cost model of a graph (per-op kernel times per device,
 * fusion savings, boundary copies, sub-model start costs), which the planner solves and the search
 * uses to rank placements before measuring them. The simulator serves its own tables; the
 * OpenVINO backend serves per-op times from the profiling records of single-device runs.
 */
public interface CostModelSource {
  /** The cost model of {@code graph} on every device the backend has. */
  HeteroCostModel costModel(OpGraph graph);
}
