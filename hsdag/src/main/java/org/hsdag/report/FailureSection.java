package org.hsdag.report;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.tune.RunFailures;

/** The report's section listing the run's failed measurements by reason ({@link RunFailures}). */
final class FailureSection {
  private FailureSection() {}

  /** Adds the section; nothing when no measurement failed. */
  static void add(ReportDoc doc, RunFailures f) {
    if (f.byReason().isEmpty()) {
      return;
    }
    doc.heading(2, "Failed measurements");
    if (f.noSplitRan()) {
      doc.para("No split placement ran: every split proposed failed or was turned down before running.");
    }
    List<String> items = new ArrayList<>();
    f.byReason().forEach((reason, n) -> items.add(reason + ": " + n));
    doc.bullets(items);
    doc.para("Each failure's full reason is in `log.jsonl`; placements answered \"not run\" cost no measurement.");
  }
}
