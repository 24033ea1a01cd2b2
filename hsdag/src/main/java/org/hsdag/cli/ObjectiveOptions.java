package org.hsdag.cli;

import org.hsdag.backend.LatencyBackend;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.Proxies;
import org.hsdag.throughput.Objective;
import org.hsdag.throughput.ThroughputMeasuring;
import org.hsdag.tune.RunObjective;
import picocli.CommandLine.Option;

/** {@code --objective latency|throughput} and {@code --requests N}: what tune, plan, bench and apply optimise or report. */
public final class ObjectiveOptions {
  @Option(names = "--objective", paramLabel = "latency|throughput", defaultValue = "latency",
      description = "What to optimise: the latency of one inference, or inferences per second with --requests in "
          + "flight (HETERO pipelines sub-models across devices; on the simulator and the openvino backend). Default: ${DEFAULT-VALUE}.")
  String objective = "latency";

  @Option(names = "--requests", paramLabel = "N",
      description = "Inferences in flight when measuring throughput. Default: the number of devices + 1.")
  Integer requests;

  /** The objective and requests asked for (requests 0: the default), checked. */
  public RunObjective choice() {
    Objective o;
    try {
      o = Objective.parse(objective);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
    if (requests != null) {
      OptionRules.requireAtLeast("--requests", requests, 1);
      if (o != Objective.THROUGHPUT) {
        throw new UserInputException("--requests applies to --objective throughput only");
      }
    }
    return RunObjective.of(o, requests == null ? 0 : requests);
  }

  /** The backend that measures {@code choice}'s figure: {@code backend} itself, or its throughput decorator. */
  public static LatencyBackend measuring(RunObjective choice, LatencyBackend backend) {
    if (choice.objective() != Objective.THROUGHPUT) {
      return backend;
    }
    try {
      return ThroughputMeasuring.measuring(backend, choice.requested());
    } catch (UnsupportedOperationException e) {
      throw new UserInputException(e.getMessage());
    }
  }

  /** {@code resolved}'s proxy under {@code choice} (null stays null: a cold search), for a plan on any cost model. */
  public static Proxies.Resolved proxy(RunObjective choice, Proxies.Resolved resolved, DeviceSet devices) {
    return resolved == null || choice.objective() != Objective.THROUGHPUT ? resolved
        : Proxies.forThroughput(resolved, choice.requested(), devices);
  }
}
