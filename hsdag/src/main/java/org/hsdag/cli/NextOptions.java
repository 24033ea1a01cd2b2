package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.RunOptions;
import picocli.CommandLine.Model.CommandSpec;

/** The options a {@code next:} line after a tune keeps, so the suggested command measures what the run measured. */
final class NextOptions {
  private NextOptions() {}

  /** What the run's manifest gives ({@link RunOptions#measuredAs}), what apply shares of the user's own options, and the objective. */
  static List<String> forApply(CommandSpec spec, RunManifest mf, RunObjective objective) {
    List<String> args = new ArrayList<>(RunOptions.measuredAs(mf));
    List<String> carried = CommandName.carried(spec, "apply", Set.of("--out", "--json", "--quiet", "--resume",
        "--backend", "--profile", "--mismatch", "--mismatch-seed", "--test-device", "--input-shape",
        "--sequence-length", "--past-length", "--objective", "--requests", "--seed"));
    args.addAll(carried);
    if (objective.objective() == Objective.THROUGHPUT) {
      args.addAll(List.of("--objective", "throughput"));
      if (objective.requested() > 0) {
        args.addAll(List.of("--requests", Integer.toString(objective.requested())));
      }
    }
    return args;
  }
}
