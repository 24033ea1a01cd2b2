package org.hsdag.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Proxies;
import org.hsdag.throughput.Objective;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputMeasuring;
import org.hsdag.tune.RunObjective;

/** The lines tune and apply print about the objective: what the figures mean, and both figures. */
final class ObjectiveSummary {
  private ObjectiveSummary() {}

  /** Under throughput: the "latency" columns are the time per inference with the requests in flight. */
  static void printHeader(PrintWriter out, RunObjective objective, int devices) {
    out.println("objective: " + objective.describe(devices) + (objective.objective() == Objective.THROUGHPUT
        ? "; the ms figures measured for it are the time per inference at steady state (1000 / inferences per second)"
        : ""));
  }

  /** Both figures of the final candidates, when the backend gave them. */
  static void printFigures(PrintWriter out, RunObjective objective, String numbers) {
    if (objective.figures().isEmpty()) {
      if (objective.objective() == Objective.LATENCY) {
        out.println(
            "throughput: not measured (--objective throughput measures it, on the simulator or the openvino backend)");
      }
      return;
    }
    out.println("both figures (noise-free, tuned for " + objective.objective().label() + "):");
    objective.lines(numbers).forEach(out::println);
  }

  /** Both figures of a plan candidate on the proxy's cost model (estimates). */
  static ObjectiveFigures figures(RunObjective objective, PlacementProxy proxy, PlanCandidate c) {
    int n = ThroughputMeasuring.requestsFor(objective.requested(), proxy.devices());
    return ObjectiveFigures.of(proxy.model(), proxy.opDevices(c.placement()), n);
  }

  /** The plan's objective and both figures of its best and best single device, for the JSON summary. */
  static Map<String, Object> planFigures(RunObjective objective, PlacementProxy proxy, Plan plan, PlanCandidate best) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("objective", objective.objective().label());
    m.put("best_figures", figures(objective, proxy, best));
    if (plan.bestSingleDevice() != null) {
      m.put("best_single_device_figures", figures(objective, proxy, plan.bestSingleDevice()));
    }
    return m;
  }

  static void printPlanFigures(PrintWriter o, RunObjective objective, Proxies.Resolved resolved, Plan plan,
      PlanCandidate best) {
    o.println("  objective: " + objective.describe(resolved.proxy().devices().size())
        + (objective.objective() == Objective.THROUGHPUT ? "; the ms above are the time per inference" : ""));
    printPlanLine(o, "plan", figures(objective, resolved.proxy(), best), resolved.source());
    if (plan.bestSingleDevice() != null) {
      printPlanLine(o, "best single device", figures(objective, resolved.proxy(), plan.bestSingleDevice()),
          resolved.source());
    }
  }

  private static void printPlanLine(PrintWriter o, String what, ObjectiveFigures f, String source) {
    o.printf(Locale.ROOT, "  %-19s latency %.3f ms, throughput %.1f inferences/s with %d in flight (estimate, %s)%n",
        what + ":", f.latencyMillis(), f.inferencesPerSecond(), f.requests(), source);
  }

  /**
   * apply's objective: the one asked for with --objective, else the one of the run the placement
   * file comes from ({@link RunObjective#FILE} beside it), else latency.
   */
  static RunObjective forPlacement(ObjectiveOptions options, boolean given, java.nio.file.Path placementFile)
      throws java.io.IOException {
    RunObjective asked = options.choice();
    java.nio.file.Path dir = placementFile.toAbsolutePath().getParent();
    if (given || dir == null || !java.nio.file.Files.isRegularFile(dir.resolve(RunObjective.FILE))) {
      return asked;
    }
    RunObjective run = RunObjective.read(dir);
    return RunObjective.of(run.objective(), run.requested());
  }
}
