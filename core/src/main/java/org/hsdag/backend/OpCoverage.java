package org.hsdag.backend;

import java.util.Map;
import org.hsdag.ir.OpGraph;

/** A backend capability: which op types of a graph its numbers come from no formula for (a model's guess). */
public interface OpCoverage {
  /** Op types of {@code graph} costed by a fallback rather than a formula, with their node counts. */
  Map<String, Integer> unknownOpTypes(OpGraph graph);
}
