package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadWatch;
import org.hsdag.backend.MeasureTimeout;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.OpGraph;
import org.hsdag.plan.Proxies;
import org.hsdag.report.ReportWriter;
import org.hsdag.search.ResumeMismatchException;
import org.hsdag.search.SearchStrategy;
import org.hsdag.tune.RunFolder;
import org.hsdag.tune.RunClock;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.RunStatus;
import org.hsdag.tune.TuneConfig;
import org.hsdag.tune.TuneJob;
import org.hsdag.tune.TuneResult;
import org.hsdag.tune.Tuner;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs a prepared {@code tune} (a new run or a resumed one): the search on the backend, or on a
 * fleet with {@code --cluster}, a stop hook for Ctrl-C, the objective's figures, the report, and the
 * summary or JSON on stdout.
 */
final class TuneExecution {
  private final CommandSpec spec;
  private final boolean json;
  private final boolean quiet;
  private final boolean noReport;
  /** A backend given by the caller (tests): no progress bar. */
  private final boolean injectedBackend;
  private final ClusterOptions clusterOptions;
  private final MemoryOptions memoryOptions;
  private final Consumer<String> notice;
  /** When the command started ({@link System#nanoTime}): --time covers everything since, the cost model's build too. */
  private final long startNanos;

  TuneExecution(CommandSpec spec, boolean json, boolean quiet, boolean noReport, boolean injectedBackend,
      ClusterOptions clusterOptions, MemoryOptions memoryOptions, Consumer<String> notice, long startNanos) {
    this.startNanos = startNanos;
    this.spec = spec;
    this.json = json;
    this.quiet = quiet;
    this.noReport = noReport;
    this.injectedBackend = injectedBackend;
    this.clusterOptions = clusterOptions;
    this.memoryOptions = memoryOptions;
    this.notice = notice;
  }

  /** Tunes the run of {@code folder} (new or resumed) on {@code backend}, then reports; returns the exit code. */
  Integer run(RunFolder folder, RunManifest mf, OpGraph graph, LatencyBackend backend, boolean isResume,
      SearchStrategy strategyImpl, Proxies.Resolved runProxy) throws Exception {
    TuneProgressPrinter.Mode mode = json || quiet ? TuneProgressPrinter.Mode.NONE
        : Terminal.isInteractive() && !injectedBackend ? TuneProgressPrinter.Mode.BAR
        : TuneProgressPrinter.Mode.LINES;
    TuneProgressPrinter printer = new TuneProgressPrinter(mode, spec.commandLine().getErr(), System.err);
    backend.capability(LoadWatch.class).ifPresent(printer::watchLoad);
    // With --cluster the workers measure; everything else (devices, support, cost model) stays local.
    LatencyBackend measuring;
    try {
      measuring = clusterOptions.attach(backend, graph, mf.modelSha256(), mf.config().seed(),
          InputShapeOptions.explicit(mf.inputShape(), mf.sequenceLength(), mf.pastLength(), graph), notice,
          folder.dir().resolve(ReportWriter.WORKERS_FILE));
    } catch (UserInputException e) {
      if (!isResume) {
        unstart(folder.dir()); // nothing ran: leave the folder as it was, so the same command can be retried
      }
      throw e;
    }
    // The machine's turn was taken before the cost model's build (TuneTurn); lost runtimes are said by the progress now.
    backend.capability(MeasureTimeout.class).ifPresent(t -> t.onRuntimeLost(printer::note));
    try {
      return execute(folder, mf, graph, measuring, isResume, strategyImpl, runProxy, printer, mode);
    } finally {
      if (measuring != backend) {
        measuring.close();
      }
    }
  }

  /** Whether a completed run measured nothing successfully (then it says so: such a run is a failure). */
  private static boolean everyMeasurementFailed(TuneResult result, Path dir, PrintWriter err) {
    if (result.status() != RunStatus.COMPLETED || result.measurements() == 0
        || result.failures() < result.measurements()) {
      return false;
    }
    err.println("hsdag: every one of the run's " + result.measurements() + " measurements failed (their reasons: "
        + "the failed measurement records in " + dir.resolve(Tuner.LOG_FILE) + ")");
    err.flush();
    return true;
  }

  /** Removes what starting a new run wrote into its (new or empty) folder, the lock file aside. */
  private static void unstart(Path dir) throws IOException {
    if (Files.exists(dir.resolve(Tuner.LOG_FILE))) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!f.equals(dir) && !f.getFileName().toString().equals(RunFolder.LOCK_FILE)) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  private Integer execute(RunFolder folder, RunManifest mf, OpGraph graph, LatencyBackend backend, boolean isResume,
      SearchStrategy strategyImpl, Proxies.Resolved runProxy, TuneProgressPrinter printer,
      TuneProgressPrinter.Mode mode)
      throws Exception {
    Path dir = folder.dir();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TuneConfig config = mf.config();
    Tuner tuner = new Tuner(new TuneJob(backend, graph, config, strategyImpl, dir, printer,
        runProxy == null ? null : runProxy.proxy(), memoryOptions.check(backend, graph, config.devices())))
        .clock(new RunClock(System::nanoTime, startNanos));
    if (mode != TuneProgressPrinter.Mode.NONE) {
      err.println(
          "hsdag: tuning " + TuneSummary.label(mf) + " on " + String.join(",", config.devices().names())
              + " with strategy "
              + config.strategy() + ", backend " + backend.name() + "/" + backend.profile()
              + (backend.simulated() ? " (simulated numbers)" : "") + "; run folder " + dir);
      err.flush();
    }
    CountDownLatch done = new CountDownLatch(1);
    String resumeLine = CommandName.line("tune", "--resume", "--out", dir);
    Thread hook = stopHook(tuner, err, resumeLine, done);
    Runtime.getRuntime().addShutdownHook(hook);
    TuneResult result;
    try {
      try {
        result = tuner.run(folder, isResume);
      } catch (ResumeMismatchException e) {
        throw new UserInputException(e.getMessage());
      } catch (IOException e) {
        // Disk full, folder gone read-only: what was logged stays; say how to go on once it is fixed.
        throw new IOException(IoErrors.describe(e) + "; what was measured is kept, continue with: " + resumeLine, e);
      } finally {
        printer.closeBar();
        if (strategyImpl instanceof AutoCloseable c) {
          c.close();
        }
      }
      RunObjective objective = RunObjective.read(dir);
      if (result.status() == RunStatus.COMPLETED) {
        objective = objective.withFigures(backend, graph, result.candidates(), result.best());
        objective.write(dir);
        RunNotesLines.of(backend, runProxy, result, dir, graph).write(dir);
      }
      ReportWriter.Written report = null;
      String reportProblem = null;
      // An interrupted run gets its report when it completes; writing one now would race the JVM's shutdown.
      if (!noReport && result.status() == RunStatus.COMPLETED) {
        try {
          report = new ReportWriter(dir, "dot", CommandName.current()).write();
        } catch (IOException | RuntimeException e) {
          reportProblem = "could not write the report (" + e.getMessage() + "); the run is complete, retry with: "
              + CommandName.line("report", dir);
        }
      }
      PlannerEstimate estimate = result.status() == RunStatus.COMPLETED && runProxy != null
          ? PlannerEstimate.of(runProxy, result) : null;
      TuneSummary.print(out, json, quiet, dir, mf, result, report, estimate, objective,
          NextOptions.forApply(spec, mf, objective));
      if (reportProblem != null) {
        err.println("hsdag: " + reportProblem);
      }
      out.flush();
      err.flush();
      return everyMeasurementFailed(result, dir, err) ? ExitCodes.FAILURE : switch (result.status()) {
        case COMPLETED -> ExitCodes.OK;
        case INTERRUPTED -> ExitCodes.INTERRUPTED;
        case FAILED -> ExitCodes.FAILURE;
      };
    } finally {
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running (Ctrl-C); it returns once done is counted down.
      }
    }
  }

  /** Ctrl-C or SIGTERM: the tuner stops after the current measurement and the JVM waits (at most 60 s) for it. */
  private static Thread stopHook(Tuner tuner, PrintWriter err, String resumeLine, CountDownLatch done) {
    return new Thread(() -> {
      tuner.requestStop();
      // Said at once: a real measurement (compile + inferences) can take many seconds to finish.
      err.println("hsdag: stopping after the current measurement (nothing measured is lost; continue with: "
          + resumeLine + ")");
      err.flush();
      try {
        done.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "hsdag-tune-stop");
  }
}
