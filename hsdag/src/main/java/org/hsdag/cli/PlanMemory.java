package org.hsdag.cli;

import java.io.PrintWriter;
import java.util.Map;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryTable;
import org.hsdag.memory.MemoryUse;
import org.hsdag.placement.Placement;

/** A placement's memory per device, as {@code plan} and {@code apply} print it. */
final class PlanMemory {
  private PlanMemory() {}

  /** Per device: bytes of weights, activation peak, runtime overhead, total and capacity (null when unlimited). */
  static Map<String, Object> json(MemoryCheck check, Placement placement) {
    return MemoryTable.json(check.use(placement));
  }

  /**
   * One line per device, e.g. {@code   memory GPU.1: 15.98 GiB of 16.00 GiB (weights ..., ...)}, then
   * where the capacities come from.
   */
  static void print(PrintWriter o, MemoryCheck check, Placement placement, String capacities) {
    for (MemoryUse u : check.use(placement)) {
      o.printf("  memory %s%n", u.describe());
    }
    o.printf("  (memory model: the IR's constant sizes and tensor shapes; capacities: %s)%n", capacities);
  }
}
