package org.hsdag.cli;

import java.util.Locale;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;

/**
 * How a run's measured figure reads under its objective: milliseconds per inference for latency,
 * inferences per second for throughput (the measured ms there are 1000 / inferences per second).
 *
 * @param throughput whether the objective is throughput
 */
record Figure(boolean throughput) {
  static Figure of(RunObjective objective) {
    return new Figure(objective.objective() == Objective.THROUGHPUT);
  }

  /** The column header of the figure. */
  String header() {
    return throughput ? "inferences/s" : "latency ms";
  }

  /** The unit after an interval's header. */
  String unit() {
    return throughput ? "inf/s" : "ms";
  }

  /** {@code 6.044} or {@code 165.5}. */
  String number(double ms) {
    return throughput ? String.format(Locale.ROOT, "%.1f", 1000 / ms) : String.format(Locale.ROOT, "%.3f", ms);
  }

  /** {@code 6.044 ms} or {@code 165.5 inferences/s}. */
  String text(double ms) {
    return number(ms) + (throughput ? " inferences/s" : " ms");
  }

  /** The interval, low to high in the figure's own order (a shorter time is more inferences per second). */
  String interval(double lowMs, double highMs) {
    return throughput ? number(highMs) + " – " + number(lowMs) : number(lowMs) + " – " + number(highMs);
  }
}
