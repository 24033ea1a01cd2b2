package org.hsdag.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;

/** The report's section on what the run was tuned for, with both figures of its final candidates. */
final class ObjectiveSection {
  private ObjectiveSection() {}

  static void add(ReportDoc doc, Path runDir, int devices, String numbers) throws IOException {
    RunObjective o = RunObjective.read(runDir);
    if (o.objective() == Objective.LATENCY && o.figures().isEmpty()) {
      return;
    }
    doc.heading(2, "Objective: " + o.objective().label());
    int n = o.requested() > 0 ? o.requested() : devices + 1;
    if (o.objective() == Objective.THROUGHPUT) {
      doc.para("Tuned for **throughput** with " + n + " requests in flight: HETERO's asynchronous requests run each "
          + "sub-model on its own device, so one device works on a request while another finishes the previous one. Every "
          + "millisecond figure of the search and of the tables below (\"latency ms\", \"search ms\") is the time per "
          + "inference at steady state, 1000 / inferences per second (" + numbers + ").");
    } else {
      doc.para("Tuned for **latency** (one inference at a time). Throughput with " + n + " requests in flight is shown "
          + "for comparison (" + numbers + ").");
    }
    if (o.figures().isEmpty()) {
      doc.para(
          "Both noise-free figures side by side are given only by the simulator; on a real runtime the run measured "
              + "the figure of its objective only (docs/real-throughput.md).");
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (RunObjective.Row r : o.figures()) {
      rows.add(List.of(r.best() ? "**" + r.label() + "** (best)" : r.label(),
          String.format(Locale.ROOT, "%.3f", r.latencyMillis()),
          String.format(Locale.ROOT, "%.1f", r.inferencesPerSecond()),
          String.valueOf(r.requests())));
    }
    doc.para("Both figures of the final candidates, noise-free:");
    doc.table(List.of("candidate", "latency ms (one inference)", "inferences/s", "requests in flight"), rows);
  }
}
