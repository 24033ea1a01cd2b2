package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.openvino.TestDevice;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.plan.Proxies;
import org.hsdag.plan.ProxyUnavailableException;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.Candidate;
import org.hsdag.search.Finalist;
import org.hsdag.report.ReportWriter;
import org.hsdag.search.ResumeMismatchException;
import org.hsdag.tune.RunFolder;
import org.hsdag.tune.RunStart;
import org.hsdag.io.IoErrors;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunResults;
import org.hsdag.search.SearchStrategy;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.strategy.Strategies;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.TuneConfig;
import org.hsdag.tune.RunStatus;
import org.hsdag.tune.TuneResult;
import org.hsdag.search.Decision;
import org.hsdag.tune.Tuner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag tune model.xml --devices CPU,GPU.1}: searches for a fast placement, keeping
 * everything in a run folder ({@code manifest.json}, {@code log.jsonl}, {@code checkpoint/},
 * {@code best.json}, {@code placement.dot}, {@code result.json}, the report) that {@code --resume}
 * continues after Ctrl-C or a crash.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class, sortOptions = false,
    description = {
        "Search for a fast per-operation device placement of an OpenVINO IR model.",
        "Measures single-device baselines, then placements proposed by the search strategy (each distinct placement "
            + "once), re-measures the best ones and the baselines in interleaved rounds, and writes best.json "
            + "(op friendly name -> device) and a report into the run folder."},
    footerHeading = "%nExamples:%n",
    footer = {
        "  hsdag tune models/resnet50/resnet50.xml --devices CPU,GPU.1",
        "  hsdag tune model.xml --budget 500 --time 10m --out runs/mine",
        "  hsdag tune --resume --out runs/mine      # continue after Ctrl-C or a crash"})
public final class TuneCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "MODEL.xml",
      description = "OpenVINO IR model (.xml). Optional with --resume (the run remembers it).")
  Path model;

  @Mixin
  BackendOptions backendOptions;

  @Mixin
  DeviceOptions deviceOptions;

  @Mixin
  ClusterOptions clusterOptions;

  @Option(names = "--strategy", paramLabel = "NAME", defaultValue = Strategies.DEFAULT,
      description = "Search strategy: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.",
      completionCandidates = StrategyNames.class)
  String strategy;

  @Option(names = "--budget", paramLabel = "N",
      description = "Search measurements (distinct placements timed). Default: " + TuneConfig.DEFAULT_BUDGET
          + ", or EPISODES x STEPS when both are given, or unlimited with --time.")
  Integer budget;

  @Option(names = "--time", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Stop searching after this wall time (e.g. 90s, 10m, 1h); with --budget, whichever comes first.")
  Duration time;

  @Option(names = "--episodes", paramLabel = "N", description = "Training episodes (learned strategies).")
  Integer episodes;

  @Option(names = "--steps", paramLabel = "N", description = "Measurements per episode (learned strategies).")
  Integer steps;

  @Mixin
  SeedOptions seedOptions;

  @Mixin
  ProtocolOptions protocolOptions;

  @Mixin
  InputShapeOptions inputShapeOptions;

  @Mixin
  ProxyOptions proxyOptions;

  @Mixin
  MemoryOptions memoryOptions;
  @Mixin
  ObjectiveOptions objectiveOptions;

  @Option(names = "--top-k", paramLabel = "K", defaultValue = "5",
      description = "Search candidates re-measured at the end, chosen in turn by measurement, by the cost model (if "
          + "any) and by how often the search proposed them. Default: ${DEFAULT-VALUE}.")
  int topK;

  @Option(names = "--final-rounds", paramLabel = "R", defaultValue = "5",
      description = "Interleaved re-measurement rounds at the end (0: choose by the search measurements). Default: ${DEFAULT-VALUE}.")
  int finalRounds;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR",
      description = "Run folder. Default: runs/<model>-<date>-<time>.")
  Path out;

  @Option(names = "--resume",
      description = "Continue the run in --out from its log and checkpoint (after Ctrl-C or a crash).")
  boolean resume;

  @Option(names = "--coarsen", paramLabel = "MODE",
      description = "Co-location before the learned policy sees the graph: hsdag, mirhoseini or none.")
  String coarsen;

  @Option(names = "--no-output-shape", description = "Ablation: drop the output-shape features.")
  boolean noOutputShape;

  @Option(names = "--no-node-id", description = "Ablation: drop the node-id (topological position) features.")
  boolean noNodeId;

  @Option(names = "--no-structural-features", description = "Ablation: drop the degree and fractal-dimension features.")
  boolean noStructural;

  @Option(names = {"-S", "--strategy-option"}, paramLabel = "KEY=VALUE",
      description = "Further strategy options, passed through (repeatable).")
  Map<String, String> extraOptions = new LinkedHashMap<>();

  @Option(names = "--patience", paramLabel = "N",
      description = "Stop when this many distinct measurements in a row brought no improvement of 1 % or more of the best "
          + "(re-proposed placements cost nothing and count for nothing), or when the warm-started policy's last 50 "
          + "proposals were all predicted hopeless by the corrected cost model or measured before; 0: neither, the "
          + "budget decides. Default: " + TuneConfig.DEFAULT_PATIENCE + " for a search that plans on a cost model "
          + "(the default), 0 for a cold start (it has no model to tell what cannot pay).")
  Integer patience;

  @Option(names = "--checkpoint-every", paramLabel = "N", defaultValue = "25",
      description = "Search steps between checkpoints. Default: ${DEFAULT-VALUE}.")
  int checkpointEvery;

  @Option(names = {"-q", "--quiet"}, description = "No progress output; only the one-line result.")
  boolean quiet;

  @Option(names = "--json", description = "Print the result as JSON on stdout (no progress output).")
  boolean json;

  @Option(names = "--no-report", description = "Do not write report.md/report.html at the end.")
  boolean noReport;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  private final LatencyBackend injectedBackend;

  public TuneCommand() {
    this(null);
  }

  /**
   * A command that measures with {@code backend} instead of opening one (tests, embedding: the
   * real-runtime figures time a default tune through a decorator). A real backend must already be
   * bound to the model file.
   */
  public TuneCommand(LatencyBackend backend) {
    this.injectedBackend = backend;
  }

  /** Strategy names for the help text. */
  static final class StrategyNames extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    StrategyNames() {
      super(Strategies.names());
    }
  }

  @Override
  public Integer call() throws Exception {
    if (json && quiet) {
      throw new UserInputException("--json and --quiet cannot be combined");
    }
    return resume ? resumeRun() : newRun();
  }

  private Integer newRun() throws Exception {
    if (model == null) {
      throw new UserInputException(
          "missing MODEL (to continue a run: " + CommandName.line("tune", "--resume", "--out") + " runs/<name>)");
    }
    checkCounts();
    Path modelPath = ModelArgument.resolve(model);
    OpGraph graph = new IrReader().read(modelPath);
    Strategies.Entry entry = Strategies.get(strategy);
    StrategyConfig strategyConfig = Strategies.configure(entry.name(), strategyOptions());
    int effectiveBudget = budget != null ? budget
        : episodes != null && steps != null ? Math.multiplyExact(episodes, steps)
        : time != null ? 1_000_000 : TuneConfig.DEFAULT_BUDGET;
    long seed = seedOptions.seed();
    Path dir = out != null ? out : defaultRunDir(modelPath);
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new UserInputException("--out " + dir + " is a file, not a folder");
    }
    RunStart.checkNewRunFolder(dir);
    InputShapes.Resolution shapes = inputShapeOptions.resolve(graph);
    BackendRequest request = backendOptions.request(seed, shapes).requiring(deviceOptions.requested(),
        RunStart.MINIMUM_DEVICES);
    LatencyBackend backend = openBackend(request);
    RunObjective objective = objectiveOptions.choice();
    clusterOptions.requireLatency(objective);
    try {
      TuneBackends.bind(backend, graph, modelPath);
      ModelNotes.announce(graph, backend, this::notice);
      DeviceSet ds = deviceOptions.resolve(backend, 2, "tuning splits a model across devices");
      checkSupport(graph, backend, ds);
      if (entry.requiredDevice() != null && !ds.contains(entry.requiredDevice())) {
        throw new UserInputException("strategy " + entry.name() + " needs device " + entry.requiredDevice()
            + ", which is not among " + ds);
      }
      ProxyChoice proxyChoice = proxyOptions.choice(request);
      LatencyBackend measuring = ObjectiveOptions.measuring(objective, backend);
      Proxies.Resolved runProxy = resolveProxy(proxyChoice, measuring, graph, ds, shapes);
      int effectivePatience = patience != null ? patience
          : TuneConfig.defaultPatience(strategyConfig, runProxy != null);
      TuneConfig config;
      try {
        config = new TuneConfig(ds.names(), entry.name(), strategyConfig, effectiveBudget,
            time == null ? 0 : timeLimitSeconds(), seed, protocolOptions.protocol(), topK, finalRounds,
            checkpointEvery, effectivePatience, proxyChoice);
      } catch (IllegalArgumentException e) {
        throw new UserInputException(e.getMessage());
      }
      SearchStrategy strategyImpl = config.newStrategy();
      try (RunFolder folder = lock(dir)) {
        RunManifest manifest = RunStart.begin(folder, modelPath, graph, backend,
            injectedBackend == null && backend.simulated() ? RunManifest.ProfileSource.of(request.profile(),
                request.mismatch().amplitude(), request.mismatch().seed()) : null,
            new RunStart.InputShapeChoice(inputShapeOptions.text(), shapes.inputs(), shapes.assumed()), config,
            new RunStart.Software(version(), spec.commandLine().getParseResult().originalArgs()));
        saveCostModelMeasurements(folder, backend, graph);
        objective.write(folder.dir());
        memoryOptions.save(folder.dir());
        return execute(folder, manifest, graph, measuring, false, strategyImpl, runProxy);
      }
    } finally {
      closeBackend(backend);
    }
  }

  /** {@code --time} in whole seconds; below one second it would be rounded up (or mean "no limit"), so it is refused. */
  private long timeLimitSeconds() {
    if (time.toMillis() < 1000) {
      throw new UserInputException("--time must be at least 1s (got "
          + spec.commandLine().getParseResult().matchedOption("--time").stringValues().get(0) + ")");
    }
    return time.toSeconds();
  }

  /** The count options of a new run, each named with its own bound (the config would only say which field broke). */
  private void checkCounts() {
    if (budget != null) {
      OptionRules.requireAtLeast("--budget", budget, 1);
    }
    if (episodes != null) {
      OptionRules.requireAtLeast("--episodes", episodes, 1);
    }
    if (steps != null) {
      OptionRules.requireAtLeast("--steps", steps, 1);
    }
    OptionRules.requireAtLeast("--top-k", topK, 0);
    OptionRules.requireAtLeast("--final-rounds", finalRounds, 0);
    if (patience != null) {
      OptionRules.requireAtLeast("--patience", patience, 0);
    }
    OptionRules.requireAtLeast("--checkpoint-every", checkpointEvery, 1);
  }

  private Integer resumeRun() throws Exception {
    if (out == null) {
      throw new UserInputException("--resume needs --out <run folder> (the folder of the run to continue)");
    }
    RunStart.manifestOf(out); // refuses a folder without a run before anything is created or locked
    var parsed = spec.commandLine().getParseResult();
    List<String> ignored = new ArrayList<>();
    for (String o : List.of("--devices", "--strategy", "--seed", "--protocol", "--episodes", "--steps", "--top-k",
        "--final-rounds", "--coarsen", "--no-output-shape", "--no-node-id", "--no-structural-features",
        "--strategy-option", "--checkpoint-every", "--patience", "--mismatch", "--mismatch-seed", "--objective",
        "--requests",
        "--memory")) {
      if (parsed.hasMatchedOption(o)) {
        ignored.add(o);
      }
    }
    try (RunFolder folder = lock(out)) {
      OptionalInt completed = RunStart.completedMeasurements(out);
      // A completed run continues only when a new limit lets it measure more: a budget above what it measured, or a time.
      boolean nothingToDo = completed.isPresent() && (budget == null ? time == null : budget <= completed.getAsInt());
      RunStart.Resumption r = RunStart.resume(folder, new RunStart.ResumeRequest(
          model == null ? null : ModelArgument.resolve(model),
          parsed.hasMatchedOption("--backend") ? backendOptions.backend() : null,
          parsed.hasMatchedOption("--profile") ? backendOptions.profile() : null,
          nothingToDo ? null : budget, nothingToDo || time == null ? null : timeLimitSeconds(),
          inputShapeOptions.text()));
      if (nothingToDo) {
        // Nothing to continue: say so and leave every file as it is.
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("run_dir", out.toString());
          m.put("status", RunStatus.COMPLETED.label());
          m.put("changed", false);
          stdout.println(new ObjectMapper().writeValueAsString(m));
        } else {
          stdout.println("hsdag: " + out + " is a completed run; nothing changed (best placement: "
              + out.resolve(Tuner.BEST_FILE) + "). To search further: "
              + CommandName.line("tune", "--resume", "--out", out)
              + " --budget N (more than " + Math.max(r.manifest().config().budget(), completed.getAsInt()) + ")");
        }
        stdout.flush();
        return ExitCodes.OK;
      }
      if (!ignored.isEmpty() && !json && !quiet) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("hsdag: resuming with the run's saved configuration; ignored: " + String.join(" ", ignored)
            + " (only --budget and --time can change)");
        err.flush();
      }
      // Continue on the backend, profile, mismatch, seed, devices and memory capacities the run started with.
      RunManifest mf = r.manifest();
      memoryOptions = MemoryOptions.savedIn(folder.dir());
      List<String> testDevices = mf.deviceInfos().stream()
          .flatMap(d -> TestDevice.fromMarked(d.name(), d.fullName()).stream()).map(TestDevice::toString).toList();
      InputShapes.Resolution shapes = InputShapeOptions.resolve(mf.inputShape(), r.graph());
      LatencyBackend backend = openBackend(r.backend().withInputShapes(shapes).withTestDevices(testDevices));
      try {
        TuneBackends.bind(backend, r.graph(), r.model());
        ModelNotes.announce(r.graph(), backend, this::notice);
        if (!backend.profile().equals(mf.profile())) {
          throw new UserInputException("this run was measured with profile " + mf.profile() + " but backend "
              + backend.name() + " now reports " + backend.profile());
        }
        reuseCostModelMeasurements(folder, backend, r.graph());
        LatencyBackend measuring = ObjectiveOptions.measuring(RunObjective.read(folder.dir()), backend);
        Proxies.Resolved runProxy = resolveProxy(mf.config().proxy(), measuring, r.graph(),
            new DeviceSet(mf.config().devices()),
            shapes);
        return execute(folder, mf, r.graph(), measuring, true, mf.config().newStrategy(), runProxy);
      } finally {
        closeBackend(backend);
      }
    }
  }

  /** The run's file of what a measured cost model was built from ({@link CostModelSource#costModelMeasurements}). */
  static final String COST_MODEL_MEASUREMENTS = "cost-model-measurements.json";

  /** Saves what the backend measured to build the cost model, so that a resume plans on the same numbers. */
  private static void saveCostModelMeasurements(RunFolder folder, LatencyBackend backend, OpGraph graph)
      throws IOException {
    var source = backend.capability(CostModelSource.class);
    if (source.isPresent()) {
      var saved = source.get().costModelMeasurements(graph);
      if (saved.isPresent()) {
        AtomicFiles.writeString(folder.dir().resolve(COST_MODEL_MEASUREMENTS), saved.get());
      }
    }
  }

  private static void reuseCostModelMeasurements(RunFolder folder, LatencyBackend backend, OpGraph graph)
      throws IOException {
    Path file = folder.dir().resolve(COST_MODEL_MEASUREMENTS);
    var source = backend.capability(CostModelSource.class);
    if (Files.exists(file) && source.isPresent()) {
      try {
        source.get().reuseCostModelMeasurements(graph, Files.readString(file));
      } catch (IllegalArgumentException e) {
        throw new UserInputException(file + ": " + e.getMessage());
      }
    }
  }

  private static RunFolder lock(Path dir) throws IOException {
    try {
      return RunFolder.lock(dir);
    } catch (FileSystemException e) {
      throw new UserInputException("--out " + dir + ": cannot use this folder (" + IoErrors.describe(e) + ")");
    }
  }

  /** The run's cost model, or null for a cold search (also when the backend has none under auto, said once). */
  private Proxies.Resolved resolveProxy(ProxyChoice choice, LatencyBackend backend, OpGraph graph, DeviceSet ds,
      InputShapes.Resolution shapes) {
    org.hsdag.memory.MemoryCheck memory = memoryOptions.check(backend, graph, ds);
    if (ProxyChoice.NONE.equals(choice)) {
      return null;
    }
    String profileChoice = choice instanceof ProxyChoice.Profile p ? p.nameOrPath() : null;
    try {
      Proxies.Resolved r = Proxies.resolve(backend, graph, ds, profileChoice, shapes.shapes());
      return new Proxies.Resolved(r.proxy().withMemory(memory), r.source());
    } catch (ProxyUnavailableException e) {
      if (profileChoice != null) {
        throw new UserInputException(e.getMessage());
      }
      notice("no cost model to plan with (" + e.getMessage() + "); the search starts cold");
      return null;
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--proxy-profile: " + e.getMessage());
    }
  }

  private void notice(String line) {
    if (!json && !quiet) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("hsdag: " + line);
      err.flush();
    }
  }

  private Integer execute(RunFolder folder, RunManifest mf, OpGraph graph, LatencyBackend backend, boolean isResume,
      SearchStrategy strategyImpl, Proxies.Resolved runProxy) throws Exception {
    TuneProgressPrinter.Mode mode = json || quiet ? TuneProgressPrinter.Mode.NONE
        : System.console() != null && injectedBackend == null ? TuneProgressPrinter.Mode.BAR
        : TuneProgressPrinter.Mode.LINES;
    TuneProgressPrinter printer = new TuneProgressPrinter(mode, spec.commandLine().getErr(), System.err);
    // With --cluster the workers measure; everything else (devices, support, cost model) stays local.
    LatencyBackend measuring = clusterOptions.attach(backend, graph, mf.modelSha256(), mf.config().seed(),
        mf.inputShape(), this::notice, folder.dir().resolve(ReportWriter.WORKERS_FILE));
    try {
      return execute(folder, mf, graph, measuring, isResume, strategyImpl, runProxy, printer, mode);
    } finally {
      if (measuring != backend) {
        measuring.close();
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
    Tuner tuner = new Tuner(backend, graph, config, strategyImpl, dir, printer,
        runProxy == null ? null : runProxy.proxy());
    if (mode != TuneProgressPrinter.Mode.NONE) {
      err.println("hsdag: tuning " + label(mf) + " on " + String.join(",", config.devices()) + " with strategy "
          + config.strategy() + ", backend " + backend.name() + "/" + backend.profile()
          + (backend.simulated() ? " (simulated numbers)" : "") + "; run folder " + dir);
      err.flush();
    }
    CountDownLatch done = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      tuner.requestStop();
      try {
        done.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "hsdag-tune-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    TuneResult result;
    try {
      try {
        result = tuner.run(folder, isResume);
      } catch (ResumeMismatchException e) {
        throw new UserInputException(e.getMessage());
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
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run_dir", dir.toString());
        m.put("model", mf.modelPath());
        m.put("devices", config.devices());
        m.putAll(RunResults.toMap(result));
        if (report != null) {
          m.put("report", dir.resolve(ReportWriter.HTML).toString());
        }
        if (estimate != null) {
          m.put("planner_estimate_ms", estimate.plannerMillis());
          m.put("planner_estimate_source", estimate.source());
        }
        m.put("objective", objective);
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
      } else {
        printSummary(out, dir, mf, result, report, estimate, objective);
      }
      if (reportProblem != null) {
        err.println("hsdag: " + reportProblem);
      }
      out.flush();
      err.flush();
      return switch (result.status()) {
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

  /**
   * The planner's optimum on the run's cost model, beside the measured result.
   *
   * @param plannerMillis the planner's best placement, estimated on the cost model
   * @param source which cost model
   * @param measuredGapPercent how far the best measured latency is from that estimate
   */
  record PlannerEstimate(double plannerMillis, String source, double measuredGapPercent) {
    static PlannerEstimate of(Proxies.Resolved proxy, TuneResult r) {
      double planned = new org.hsdag.plan.Planner().plan(proxy.proxy()).best().proxyMillis();
      double measured = r.best() == null ? Double.NaN : r.best().finalMs();
      return new PlannerEstimate(planned, proxy.source(), 100 * (measured / planned - 1));
    }
  }

  private void printSummary(PrintWriter out, Path dir, RunManifest mf, TuneResult r, ReportWriter.Written report,
      PlannerEstimate estimate, RunObjective objective) {
    String nums = (r.simulated() ? "simulated, " : "") + r.backend() + "/" + r.profile();
    if (r.status() == RunStatus.INTERRUPTED) {
      out.printf(Locale.ROOT, "hsdag: interrupted after %d measurements (%.1f s); nothing is lost, continue with: %s%n",
          r.measurements(), r.elapsedSeconds(), CommandName.line("tune", "--resume", "--out", dir));
      return;
    }
    if (r.status() == RunStatus.FAILED) {
      out.printf(Locale.ROOT, "hsdag: search failed: %s; the log is in %s%n", r.stopReason(),
          dir.resolve(Tuner.LOG_FILE));
      return;
    }
    Candidate best = r.best();
    Candidate ref = r.referenceBaseline();
    if (quiet) {
      out.println(best == null ? "no placement ran"
          : String.format(Locale.ROOT, "%s %.3f ms (%s)%s -> %s", best.label(),
              best.finalMs(), nums,
              ref != null && ref.ok()
                  ? String.format(Locale.ROOT, " %.2fx %s", ref.finalMs() / best.finalMs(), ref.label()) : "",
              dir.resolve(Tuner.BEST_FILE)));
      return;
    }
    TuneConfig c = mf.config();
    out.printf(Locale.ROOT, "%s on %s | backend %s, profile %s%s%n", label(mf), String.join(",", c.devices()),
        r.backend(),
        r.profile(), r.simulated() ? " | SIMULATED numbers, not hardware" : "");
    out.printf(Locale.ROOT, "search: %d measurements (%d cache hits, %d failed) in %.1f s, strategy %s, seed %d; %s%n",
        r.measurements(), r.cacheHits(), r.failures(), r.elapsedSeconds(), c.strategy(), c.seed(), r.stopReason());
    out.printf(Locale.ROOT, "final: %d interleaved rounds of %s per candidate%s; latency = median of rounds (ms, %s)%n",
        c.finalRounds(), c.protocol().describe(), SearchEngine.racedRoundsNote(c.finalRounds()), nums);
    ObjectiveSummary.printHeader(out, objective, c.devices().size());
    out.printf(Locale.ROOT, "  %-12s %-28s %10s %12s %21s %12s%n", "candidate", "ops per device", "sub-models",
        "latency ms",
        "95% CI ms", "vs " + Finalist.baselineLabel(r.reference()));
    for (Candidate cand : r.candidates()) {
      StringBuilder ops = new StringBuilder();
      int[] counts = cand.placement().countsPerDevice();
      for (int d = 0; d < counts.length; d++) {
        ops.append(d == 0 ? "" : ", ").append(cand.placement().devices().name(d)).append(' ').append(counts[d]);
      }
      String lat = cand.ok() ? String.format(Locale.ROOT, "%.3f", cand.finalMs()) : "failed";
      String ci = Double.isNaN(cand.ciLowMs()) ? ""
          : String.format(Locale.ROOT, "%.3f – %.3f", cand.ciLowMs(), cand.ciHighMs());
      String vs = cand.ok() && ref != null && ref.ok()
          ? String.format(Locale.ROOT, "%.2fx", ref.finalMs() / cand.finalMs()) : "";
      out.printf(Locale.ROOT, "  %-12s %-28s %10s %12s %21s %12s%s%n", cand.label(), ops,
          cand.subModels() == 0 ? "?" : cand.subModels(),
          lat, ci, vs, cand == best ? "  <- best" : "");
      if (!cand.ok() && cand.reason() != null) {
        out.println("      " + cand.reason());
      }
    }
    if (best == null) {
      out.println("no placement ran; see the failures in " + dir.resolve(Tuner.LOG_FILE));
    } else {
      Candidate bb = r.bestBaseline();
      StringBuilder line = new StringBuilder(
          String.format(Locale.ROOT, "best: %s, %.3f ms (%s)", best.label(), best.finalMs(), nums));
      if (ref != null && ref.ok()) {
        line.append(String.format(Locale.ROOT, ", %.2fx %s", ref.finalMs() / best.finalMs(), ref.label()));
      }
      if (bb != null && bb != best) {
        line.append(String.format(Locale.ROOT, ", %.2fx %s", bb.finalMs() / best.finalMs(), bb.label()));
      }
      out.println(line);
      ObjectiveSummary.printFigures(out, objective, nums);
      if (estimate != null) {
        out.printf(Locale.ROOT, "cost model: the planner's optimum is %.3f ms (an estimate, %s); the best measured "
            + "latency is %+.1f%% from it%n", estimate.plannerMillis(), estimate.source(),
            estimate.measuredGapPercent());
      }
      if (best.baseline()) {
        out.println(r.decision() == Decision.SINGLE_DEVICE_FASTEST ? "no split placement beat the fastest single device"
            : r.decisionText());
      }
      out.println("wrote " + dir.resolve(Tuner.BEST_FILE) + " (op friendly name -> device), "
          + dir.resolve(Tuner.DOT_FILE) + (report != null ? ", " + dir.resolve(ReportWriter.HTML) : ""));
      if (report != null && !report.graphRendered()) {
        out.println("note: " + report.graphNote().replace("`", ""));
      }
      out.println("next: " + CommandName.line("apply", mf.modelPath(), dir.resolve(Tuner.BEST_FILE)));
    }
  }

  private Map<String, String> strategyOptions() {
    Map<String, String> o = new LinkedHashMap<>();
    if (steps != null) {
      o.put("steps", String.valueOf(steps));
    }
    if (coarsen != null) {
      String c = coarsen.trim().toLowerCase(Locale.ROOT);
      if (!List.of("hsdag", "mirhoseini", "none").contains(c)) {
        throw new UserInputException("--coarsen '" + coarsen + "' is not one of hsdag, mirhoseini, none");
      }
      o.put("coarsen", c);
    }
    if (noOutputShape) {
      o.put("features.output-shape", "false");
    }
    if (noNodeId) {
      o.put("features.node-id", "false");
    }
    if (noStructural) {
      o.put("features.structural", "false");
    }
    o.putAll(extraOptions);
    return o;
  }

  private LatencyBackend openBackend(BackendRequest request) {
    if (injectedBackend != null) {
      return injectedBackend;
    }
    PrintWriter err = spec.commandLine().getErr();
    return memoryOptions.apply(TuneBackends.open(request, notice -> {
      if (!json && !quiet) {
        err.println("hsdag: " + notice);
        err.flush();
      }
    }));
  }

  private void closeBackend(LatencyBackend backend) {
    if (backend != injectedBackend) {
      backend.close();
    }
  }

  static void checkSupport(OpGraph graph, LatencyBackend backend, DeviceSet ds) {
    SupportMatrix sm = backend.supports(graph, ds);
    for (int v = 0; v < graph.nodeCount(); v++) {
      if ((sm.mask(v) & ((1L << ds.size()) - 1)) == 0) {
        OpNode n = graph.node(v);
        throw new UserInputException("op '" + n.name() + "' (" + n.type() + ") can run on none of " + ds
            + " (backend " + backend.name() + "/" + backend.profile() + ")");
      }
    }
  }

  static Path defaultRunDir(Path model) {
    String base = model.getFileName().toString().replaceFirst("\\.xml$", "");
    String stamp = LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path dir = Path.of("runs", base + "-" + stamp);
    for (int i = 2; Files.exists(dir); i++) {
      dir = Path.of("runs", base + "-" + stamp + "-" + i);
    }
    return dir;
  }

  private static String label(RunManifest mf) {
    return mf.modelName() != null && !mf.modelName().isBlank() ? mf.modelName()
        : Path.of(mf.modelPath()).getFileName().toString().replaceFirst("\\.xml$", "");
  }

  static String version() {
    String v = HsdagCli.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }
}
