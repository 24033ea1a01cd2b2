package org.hsdag.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryUse;
import org.hsdag.placement.Placement;

/** A placement's memory per device, as {@code plan}, {@code tune} and {@code apply} report it. */
final class PlanMemory {
  private PlanMemory() {}

  /** Per device: bytes of weights, activation peak, runtime overhead, total and capacity (null when unlimited). */
  static Map<String, Object> json(MemoryCheck check, Placement placement) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (MemoryUse u : check.use(placement)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("weights_bytes", u.weightBytes());
      m.put("activation_peak_bytes", u.activationPeakBytes());
      m.put("boundary_bytes", u.boundaryBytes());
      m.put("runtime_bytes", u.overheadBytes());
      m.put("total_bytes", u.totalBytes());
      m.put("capacity_bytes", u.limited() ? u.capacityBytes() : null);
      out.put(u.device(), m);
    }
    return out;
  }

  /** One line per device, e.g. {@code   memory GPU.1: 15.98 GiB of 16.00 GiB (weights ..., ...)}. */
  static void print(PrintWriter o, MemoryCheck check, Placement placement) {
    for (MemoryUse u : check.use(placement)) {
      o.printf("  memory %s%n", u.describe());
    }
    o.printf(
        "  (memory model: the IR's constant sizes and tensor shapes; capacities from the sim profile or --memory)%n");
  }
}
