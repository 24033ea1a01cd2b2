package org.hsdag.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.ir.OpGraph;
import org.hsdag.tune.RunOptions;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunStart;
import org.hsdag.tune.Tuner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag export RUN --step N}: any measured search step of a run as a placement file, not only the best. */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class,
    sortOptions = false,
    description = {"Write the placement a run measured at one search step to a placement file, "
        + "{friendly_name: device} like best.json, e.g. to apply a runner-up."},
    footerHeading = "%nExamples:%n",
    footer = {
        "  hsdag export runs/resnet50-20260101-120000 --step 98 -o step98.json",
        "  hsdag export runs/mine --step 3              # prints the JSON"})
public final class ExportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RUN", description = "Run folder (holds manifest.json and log.jsonl).")
  Path run;

  @Option(names = "--step", paramLabel = "N", required = true,
      description = "Search step to export (as in log.jsonl and the report).")
  int step;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE",
      description = "Placement file to write (default: print to stdout).")
  Path out;

  @Option(names = "--model", paramLabel = "FILE",
      description = "The run's model where it is now, if it moved (checked by its SHA-256).")
  Path model;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    RunManifest mf = RunStart.manifestOf(run);
    Path model = this.model != null ? this.model : mf.modelFile(run);
    if (!Files.isRegularFile(model)) {
      throw new UserInputException(model + ": the run's model is not there any more, and the placement file names "
          + "its ops; give its new path with --model FILE");
    }
    if (this.model != null && !RunManifest.sha256(model).equals(mf.modelSha256())) {
      throw new UserInputException(model + " is not the model this run tuned (its SHA-256 differs)");
    }
    OpGraph graph = ModelArgument.read(model);
    List<LogRecord> records = RunLog.read(run.resolve(Tuner.LOG_FILE)).records();
    LogRecord found = null;
    int last = -1;
    for (LogRecord r : records) {
      if (r.hasMeasurement() && LogRecord.PHASE_SEARCH.equals(r.phase()) && r.step() != null) {
        last = Math.max(last, r.step());
        if (r.step() == step) {
          found = r;
        }
      }
    }
    if (found == null) {
      throw new UserInputException(run + " has no search step " + step
          + (last < 0 ? " (no search step was measured yet)" : " (steps 0-" + last + ")"));
    }
    Placement p = found.toPlacement(mf.config().devices());
    if (p.size() != graph.nodeCount()) {
      throw new UserInputException(model + " has " + graph.nodeCount() + " ops but step " + step + " placed " + p.size()
          + "; the model changed since the run");
    }
    PrintWriter stdout = spec.commandLine().getOut();
    if (out == null) {
      stdout.println(PlacementFiles.toJson(graph, p));
    } else {
      if (Files.isDirectory(out)) {
        throw new UserInputException("-o " + out + " is a folder; give a file name");
      }
      PlacementFiles.write(out, graph, p);
      String measured = found.succeeded() ? String.format(Locale.ROOT, "%.3f ms during the search (%s%s/%s)",
          found.latencyMs(), mf.simulated() ? "simulated, " : "", mf.backend(), mf.profile())
          : "failed: " + found.reason();
      stdout.println("wrote " + out + " (step " + step + ", " + measured + "); measure it: "
          + CommandName.line(RunOptions.with(RunOptions.measuredAs(mf), "apply",
              CommandName.here(model.toAbsolutePath().normalize().toString()), out)));
    }
    stdout.flush();
    return ExitCodes.OK;
  }
}
