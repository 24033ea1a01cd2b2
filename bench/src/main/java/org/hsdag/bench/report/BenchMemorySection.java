package org.hsdag.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.MemoryTable;
import org.hsdag.memory.MemoryUse;
import org.hsdag.report.ReportDoc;

/** The bench report's memory section: per model, what each method's best placements need on the capped devices. */
final class BenchMemorySection {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchMemorySection() {}

  /** Adds the section when some run had device capacities; nothing otherwise. */
  static void add(ReportDoc doc, BenchResults results) {
    boolean any = results.models().stream().flatMap(m -> m.methods().stream()).flatMap(r -> r.runs().stream())
        .anyMatch(r -> !r.bestPlacementMemory().isEmpty());
    if (!any) {
      return;
    }
    doc.heading(2, "Memory per device");
    doc.para(
        "What each method's best placement needs on each capped device by hsdag's memory model (weights, activation "
            + "peak with boundary copies, runtime overhead), the largest over seeds, against the device's capacity. No method "
            + "measured a placement that exceeds a capacity. Estimates, not measured memory.");
    for (ModelResult m : results.models()) {
      List<String> devices = new ArrayList<>();
      Map<String, List<String>> rows = new LinkedHashMap<>();
      for (MethodResult r : m.methods()) {
        Map<String, MemoryUse> worst = worstOverSeeds(r.runs());
        if (worst.isEmpty()) {
          continue;
        }
        worst.values().stream().filter(MemoryUse::limited).map(MemoryUse::device).filter(d -> !devices.contains(d))
            .forEach(devices::add);
        List<String> row = new ArrayList<>(List.of(r.label()));
        worst.values().stream().filter(MemoryUse::limited).forEach(u -> row.add(cell(u)));
        rows.put(r.label(), row);
      }
      if (!rows.isEmpty()) {
        List<String> header = new ArrayList<>(List.of(m.model() + ": method"));
        devices.forEach(d -> header.add(d + " needs of capacity"));
        doc.table(header, new ArrayList<>(rows.values()));
      }
    }
  }

  private static String cell(MemoryUse u) {
    return ByteSizes.format(u.totalBytes()) + " of " + ByteSizes.format(u.capacityBytes())
        + (u.fits() ? "" : " (OVER)");
  }

  /** Per device, the run whose best placement needs the most there. */
  private static Map<String, MemoryUse> worstOverSeeds(List<Run> runs) {
    Map<String, MemoryUse> worst = new LinkedHashMap<>();
    for (Run run : runs) {
      for (MemoryUse u : MemoryTable.read(JSON.valueToTree(run.bestPlacementMemory()))) {
        worst.merge(u.device(), u, (a, b) -> b.totalBytes() > a.totalBytes() ? b : a);
      }
    }
    return worst;
  }
}
