package org.hsdag.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.tune.RunNotes;

/** The report's section on why the result is what it is, where the time went and how loaded the machine was. */
final class NotesSection {
  private NotesSection() {}

  /** Adds the section from the run's {@link RunNotes}; nothing for a run without them (older runs, the simulator's time). */
  static void add(ReportDoc doc, Path runDir) throws IOException {
    RunNotes n = RunNotes.read(runDir);
    List<String> items = new ArrayList<>();
    if (n.why() != null) {
      items.add("Why a single device: " + n.why() + ".");
    }
    if (n.trust() != null) {
      items.add("How far the cost model's figures can be trusted (each of the run's search measurements predicted by "
          + "the model corrected on the others): " + n.trust() + ".");
    }
    if (n.load() != null) {
      items.add("Measurement conditions: " + n.load() + (n.loadPolicy() != null ? "; a measurement is " + n.loadPolicy()
          : "") + ". A flagged measurement's latency is an upper bound of the uncontended one, not to be trusted "
          + "alone; `log.jsonl` has each measurement's figure (`load`).");
    }
    if (n.time() != null) {
      items.add("Where the time went: " + n.time() + ".");
    }
    if (n.compiles() != null) {
      items.add("Compiles, measured on the real runtime (each distinct placement compiled once while it is kept): "
          + n.compiles() + ".");
    }
    if (items.isEmpty()) {
      return;
    }
    doc.heading(2, "Why, load and time");
    doc.bullets(items);
  }
}
