package org.hsdag.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.hsdag.memory.MemoryTable;
import org.hsdag.memory.MemoryUse;

/** The report's section on the best placement's memory per device, when device capacities applied to the run. */
final class MemorySection {
  private MemorySection() {}

  /** Adds the section from {@code result.json}'s {@code best}; nothing when the run had no capacities. */
  static void add(ReportDoc doc, JsonNode best) {
    List<MemoryUse> uses = MemoryTable.read(best.path("memory_per_device"));
    if (uses.isEmpty()) {
      return;
    }
    doc.heading(2, "Memory per device (best placement)");
    doc.table(MemoryTable.HEADERS, MemoryTable.rows(uses));
    doc.para("What the best placement needs on each device by hsdag's memory model (weights from the IR's constant "
        + "sizes, the activation peak in execution order with boundary copies, the runtime overhead a device states), "
        + "against its capacity (" + best.path("memory_capacities").asText("--memory") + "). No measured placement "
        + "exceeded a capacity: the search does not measure one that would. These are estimates, not measured memory.");
  }
}
