package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hsdag.report.ReportWriter;
import org.hsdag.tune.Tuner;
import org.hsdag.tune.RunManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag report runs/<name>}: (re)writes a run's report.md, report.html and plots from its folder. */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class,
    description = {"Write report.md, a self-contained report.html and the latency plot (PNG and SVG; the placement "
        + "graph too when Graphviz is installed) for a run folder, finished or not."})
public final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run folder written by 'hsdag tune'.")
  Path runDir;

  @Option(names = "--json", description = "Also print the run's result (result.json, or the status of an "
      + "unfinished run) and the files written, as JSON on stdout.")
  boolean json;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  /** Refuses (exit 2) what is not a folder holding a run's manifest. */
  static void requireRunFolder(Path runDir) {
    if (!Files.isDirectory(runDir)) {
      throw new UserInputException(runDir + ": no such run folder");
    }
    if (!Files.isRegularFile(runDir.resolve(RunManifest.FILE))) {
      throw new UserInputException(runDir + " is not a run folder (no " + RunManifest.FILE + ")");
    }
  }

  @Override
  public Integer call() throws Exception {
    requireRunFolder(runDir);
    ReportWriter.Written w = new ReportWriter(runDir, "dot", CommandName.current()).write();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode o = mapper.createObjectNode();
      o.put("run_dir", runDir.toString());
      Path result = runDir.resolve(Tuner.RESULT_FILE);
      if (Files.isRegularFile(result)) {
        o.set("result", mapper.readTree(result.toFile()));
      } else {
        o.put("status", "not completed");
      }
      ArrayNode files = o.putArray("files");
      w.files().forEach(p -> files.add(p.toString()));
      out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(o));
      out.flush();
      return ExitCodes.OK;
    }
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
