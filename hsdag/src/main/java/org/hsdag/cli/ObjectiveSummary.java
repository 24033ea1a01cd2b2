package org.hsdag.cli;

import java.io.PrintWriter;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;

/** The lines tune and apply print about the objective: what the figures mean, and both figures. */
final class ObjectiveSummary {
  private ObjectiveSummary() {}

  /** Under throughput: the "latency" columns are the time per inference with the requests in flight. */
  static void printHeader(PrintWriter out, RunObjective objective, int devices) {
    out.println("objective: " + objective.describe(devices) + (objective.objective() == Objective.THROUGHPUT
        ? "; every ms figure of the search and the table is the time per inference at steady state (1000 / inferences per second)"
        : ""));
  }

  /** Both figures of the final candidates, when the backend gave them. */
  static void printFigures(PrintWriter out, RunObjective objective, String numbers) {
    if (objective.figures().isEmpty()) {
      if (objective.objective() == Objective.LATENCY) {
        out.println("throughput: not measured (only the simulator measures throughput so far)");
      }
      return;
    }
    out.println("both figures (noise-free, tuned for " + objective.objective().label() + "):");
    objective.lines(numbers).forEach(out::println);
  }
}
