package org.hsdag.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.tune.RunStatus;
import org.hsdag.tune.Tuner;
import picocli.CommandLine.ParseResult;

/** What {@code tune --resume} says about the options a run keeps and about a run with nothing left to do. */
final class ResumeNotes {
  /** Options a resumed run takes from its manifest: given again, they are ignored (and named). */
  private static final List<String> KEPT_BY_THE_RUN = List.of("--devices", "--strategy", "--seed", "--protocol",
      "--episodes", "--steps", "--top-k", "--final-rounds", "--coarsen", "--no-output-shape", "--no-node-id",
      "--no-structural-features", "--strategy-option", "--checkpoint-every", "--patience", "--mismatch",
      "--mismatch-seed", "--objective", "--requests", "--memory");

  private ResumeNotes() {}

  /**
   * The options given again that the resumed run ignores; refuses {@code --fresh-profile}, which cannot be ignored
   * quietly: a resume plans on the cost model the run was built on, so profiling again would change the run.
   */
  static List<String> ignoredOptions(ParseResult parsed) {
    if (parsed.hasMatchedOption("--fresh-profile")) {
      throw new UserInputException("--fresh-profile cannot be used with --resume: a resumed run plans on the cost "
          + "model it was built on (" + CostModelMeasurements.FILE + " in the run folder); start a new run to profile "
          + "again");
    }
    List<String> ignored = new ArrayList<>();
    for (String o : KEPT_BY_THE_RUN) {
      if (parsed.hasMatchedOption(o)) {
        ignored.add(o);
      }
    }
    return ignored;
  }

  /** A completed run resumed without a larger budget or a time: nothing changed, and how to search further. */
  static void nothingChanged(PrintWriter stdout, boolean json, Path out, List<String> ignored, int measured)
      throws JsonProcessingException {
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("run_dir", out.toString());
      m.put("status", RunStatus.COMPLETED.label());
      m.put("changed", false);
      m.put("ignored", ignored);
      stdout.println(new ObjectMapper().writeValueAsString(m));
    } else {
      stdout.println("hsdag: " + out + " is a completed run; nothing changed (best placement: "
          + out.resolve(Tuner.BEST_FILE) + "). To search further: " + CommandName.line("tune", "--resume", "--out", out)
          + " --budget N (more than " + measured + ")"
          + (ignored.isEmpty() ? ""
              : "; ignored: " + String.join(" ", ignored) + " (a run keeps its own; only --budget and --time "
                  + "can change)"));
    }
    stdout.flush();
  }
}
