package org.hsdag.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.hsdag.search.Candidate;

/** apply's throughput figures: what was measured per inference, as inferences per second. */
final class ApplyThroughput {
  private ApplyThroughput() {}

  /** One line per candidate that ran: 1000 / its time per inference at steady state. */
  static void print(PrintWriter out, List<Candidate> results, String numbers) {
    out.println("throughput (1000 / the time per inference above, " + numbers + "):");
    for (Candidate c : results) {
      if (c.ok() && c.finalMs() > 0) {
        out.printf(Locale.ROOT, "  %-12s %10.1f inferences/s%n", c.label(), 1000.0 / c.finalMs());
      }
    }
  }
}
