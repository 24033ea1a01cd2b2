package org.hsdag.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hsdag.tune.ReportWriter;
import org.hsdag.tune.RunManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag report runs/<name>}: (re)writes a run's report.md, report.html and plots from its folder. */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class,
    description = {"Write report.md and a self-contained report.html (with latency.png/.svg and, when Graphviz is "
        + "installed, placement.svg) for a run folder; works for unfinished runs too."})
public final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run folder written by 'hsdag tune'.")
  Path runDir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(runDir)) {
      throw new UserInputException(runDir + ": no such run folder");
    }
    if (!Files.isRegularFile(runDir.resolve(RunManifest.FILE))) {
      throw new UserInputException(runDir + " is not a run folder (no " + RunManifest.FILE + ")");
    }
    ReportWriter.Written w = new ReportWriter(runDir, "dot", CommandName.current()).write();
    PrintWriter out = spec.commandLine().getOut();
    for (Path p : w.files()) {
      out.println("wrote " + p);
    }
    if (!w.graphRendered()) {
      out.println("note: " + w.graphNote().replace("`", ""));
    }
    out.flush();
    return ExitCodes.OK;
  }
}
