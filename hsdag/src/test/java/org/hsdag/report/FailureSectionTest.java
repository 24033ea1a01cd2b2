package org.hsdag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.tune.RunFailures;
import org.junit.jupiter.api.Test;

/** The report lists failed measurements by reason, and says when no split placement ran. */
class FailureSectionTest {
  @Test
  void listsFailuresByReasonAndSaysNoSplitRan() {
    Map<String, Integer> by = new LinkedHashMap<>();
    by.put("predicted refused by HETERO, not run", 7);
    by.put("HETERO refuses this split (infer request)", 4);
    ReportDoc doc = new ReportDoc("t");
    FailureSection.add(doc, new RunFailures(by, false, 11));
    String md = doc.toMarkdown();
    assertTrue(md.contains("No split placement ran: every split proposed failed or was turned down before running."),
        md);
    assertTrue(md.contains("predicted refused by HETERO, not run: 7"), md);
    assertTrue(md.contains("HETERO refuses this split (infer request): 4"), md);
  }

  @Test
  void addsNothingWhenNothingFailed() {
    ReportDoc doc = new ReportDoc("t");
    String before = doc.toMarkdown();
    FailureSection.add(doc, RunFailures.NONE);
    assertEquals(before, doc.toMarkdown());
  }
}
