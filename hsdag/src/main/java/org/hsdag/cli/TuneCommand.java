package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.CallTiming;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.plan.Proxies;
import org.hsdag.tune.MachineLock;
import org.hsdag.tune.RunFolder;
import org.hsdag.tune.RunStart;
import org.hsdag.io.IoErrors;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunOptions;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.strategy.Strategies;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.TuneConfig;
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
      description = "OpenVINO IR, ONNX, TFLite or Paddle model. Optional with --resume (the run remembers it).")
  Path model;

  @Mixin
  MeasuredRunOptions run;

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
  ProxyOptions proxyOptions;

  @Mixin
  MemoryOptions memoryOptions;

  @Mixin
  CostModelStoreOptions costModelStore;

  @Mixin
  CompileCacheOptions compileCacheOptions = new CompileCacheOptions();
  @Mixin
  LoadOptions loadOptions;
  @Mixin
  ObjectiveOptions objectiveOptions;
  @Mixin
  TuneViewOptions viewOptions = new TuneViewOptions();

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

  @Option(names = "--share-machine",
      description = "On a real backend, measure even while another hsdag tune measures on this machine (each then "
          + "counts the other as load). Default: wait for it.")
  boolean shareMachine;

  @Option(names = "--no-wait",
      description = "On a real backend, exit 2 at once while another hsdag tune measures on this machine, instead of "
          + "waiting for it.")
  boolean noWait;

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
      description = "Stop when this many distinct measurements in a row brought no improvement of 1 %% or more of the best "
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
  private long startNanos = System.nanoTime();
  private TuneTurn turn;

  public TuneCommand() {
    this(null);
  }

  /**
   * A command that measures with {@code backend} instead of opening one (tests, embedding: the real-runtime figures
   * time a default tune through a decorator). A real backend must already be bound to the model file.
   */
  public TuneCommand(LatencyBackend backend) {
    this.injectedBackend = backend;
  }

  @Override
  public Integer call() throws Exception {
    startNanos = System.nanoTime();
    if (json && quiet) {
      throw new UserInputException("--json and --quiet cannot be combined");
    }
    TuneTurn t = new TuneTurn(MachineTurn.of(shareMachine, noWait), clusterOptions.enabled(),
        spec.commandLine().getErr(), this::notice);
    turn = t;
    try (AutoCloseable view = viewOptions; t) {
      return resume ? resumeRun() : newRun();
    }
  }

  private Integer newRun() throws Exception {
    if (model == null) {
      throw new UserInputException(
          "missing MODEL (to continue a run: " + CommandName.line("tune", "--resume", "--out") + " runs/<name>)");
    }
    checkCounts();
    Path modelPath = ModelArgument.resolve(model, this::notice);
    OpGraph graph = ModelArgument.read(modelPath);
    Strategies.Entry entry = Strategies.get(strategy);
    StrategyConfig strategyConfig = Strategies.configure(entry.name(), strategyOptions());
    int effectiveBudget = budget != null ? budget
        : episodes != null && steps != null ? Math.multiplyExact(episodes, steps)
        : time != null ? org.hsdag.tune.TuneProgress.UNLIMITED_BUDGET : TuneConfig.DEFAULT_BUDGET;
    long seed = seedOptions.seed();
    Path dir = out != null ? out : defaultRunDir(modelPath);
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new UserInputException("--out " + dir + " is a file, not a folder");
    }
    RunStart.checkNewRunFolder(dir);
    InputShapes.Resolution shapes = run.inputShapes.resolve(graph);
    BackendRequest request = run.backend.request(seed, shapes).requiring(run.devices.requested(),
        RunStart.MINIMUM_DEVICES);
    RunObjective objective = objectiveOptions.choice();
    clusterOptions.requireLatency(objective);
    ProxyChoice proxyChoice = proxyOptions.choice(request);
    refuseEarly(request.backend());
    boolean existed = Files.exists(dir);
    boolean lockExisted = Files.exists(dir.resolve(RunFolder.LOCK_FILE));
    // The folder first: one in use or not writable fails before the backend opens and the cost model is built.
    RunFolder folder = lock(dir);
    boolean kept = false;
    AtomicReference<TuneStart.Prepared> prepared = new AtomicReference<>();
    // The backend's own cost model is the one plan and tune keep for each other; an injected backend is used as it is.
    CostModelReuse reuse = ProxyChoice.AUTO.equals(proxyChoice) && injectedBackend == null
        ? costModelStore.reuse(modelPath, request, this::notice) : null;
    try (Session session = session(Session.of(graph, request), objective, proxyChoice)
        .devices(run.devices, 2, "tuning splits a model across devices").memory(memoryOptions)
        .costModelReuse(reuse).beforeCostModel((backend, ds) -> {
          turn.take(backend); // profiling measures: the machine's turn first, before the run folder is begun
          // The manifest before the cost model is built: a tune killed while it profiles resumes and keeps that.
          TuneStart.Prepared p = prepare(graph, backend, ds, entry, strategyConfig, effectiveBudget, seed,
              proxyChoice);
          prepared.set(p.begin(folder, modelPath, graph, backend, injectedBackend == null ? request : null,
              new RunStart.InputShapeChoice(run.inputShapes.text(), shapes.inputs(), shapes.assumed(),
                  run.inputShapes.sequenceLength(), run.inputShapes.pastLength()),
              new RunStart.Software(version(), spec.commandLine().getParseResult().originalArgs()), objective));
          CostModelMeasurements.track(folder, backend, graph, this::notice);
        }).buildStopLine(CostModelBuild.interruptedRun(dir))
        .open()) {
      kept = true;
      if (reuse != null) {
        reuse.line().ifPresent(this::notice);
        CostModelReuse.databaseLine(session.backend(), graph).ifPresent(this::notice);
      }
      TuneStart.Prepared p = prepared.get();
      Proxies.Resolved runProxy = session.proxy();
      if (patience == null && p.config().patience() != TuneConfig.defaultPatience(strategyConfig, runProxy != null)) {
        // The cost model could not be had: a cold search, whose default patience differs.
        p = p.withPatience(TuneConfig.defaultPatience(strategyConfig, runProxy != null), folder);
      }
      CostModelMeasurements.save(folder, session.backend(), graph);
      return execution().run(folder, p.manifest(), graph, session.measuring(), false, p.strategy(), runProxy);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    } finally {
      folder.close();
      boolean begun = prepared.get() != null;
      if (!kept && !(begun && CostModelMeasurements.saved(dir))) {
        // Refused before anything was measured: leave the folder as it was.
        if (begun) {
          RunStart.abandon(dir);
        }
        RunStart.unlock(dir, existed, lockExisted);
      }
    }
  }

  /** Checks the devices and builds the run's config and strategy (bad options are refused here). */
  private TuneStart.Prepared prepare(OpGraph graph, LatencyBackend backend, DeviceSet ds, Strategies.Entry entry,
      StrategyConfig strategyConfig, int effectiveBudget, long seed, ProxyChoice proxyChoice) {
    checkSupport(graph, backend, ds);
    if (entry.requiredDevice() != null && !ds.contains(entry.requiredDevice())) {
      throw new UserInputException("strategy " + entry.name() + " needs device " + entry.requiredDevice()
          + ", which is not among " + ds);
    }
    // A cold search has other defaults: assumed to get the cost model it asks for (corrected if it gets none).
    int effectivePatience = patience != null ? patience
        : TuneConfig.defaultPatience(strategyConfig, !ProxyChoice.NONE.equals(proxyChoice));
    try {
      TuneConfig config = new TuneConfig(ds, entry.name(), strategyConfig, effectiveBudget,
          time == null ? 0 : timeLimitSeconds(), seed, run.protocol.protocol(), topK, finalRounds,
          checkpointEvery, effectivePatience, proxyChoice).withMemory(memoryOptions.text());
      return new TuneStart.Prepared(config, config.newStrategy(), null);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
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
    // Refuses a folder without a run before anything is created or locked; then a busy machine (--no-wait).
    refuseEarly(RunStart.manifestOf(out).backend());
    var parsed = spec.commandLine().getParseResult();
    List<String> ignored = ResumeNotes.ignoredOptions(parsed);
    try (RunFolder folder = lock(out)) {
      OptionalInt completed = RunStart.completedMeasurements(out);
      // A completed run continues only when a new limit lets it measure more: a budget above what it measured, or a time.
      boolean nothingToDo = completed.isPresent() && (budget == null ? time == null : budget <= completed.getAsInt());
      RunStart.Resumption r = RunStart.resume(folder, new RunStart.ResumeRequest(
          model == null ? null : ModelArgument.resolve(model, this::notice),
          parsed.hasMatchedOption("--backend") ? run.backend.backend() : null,
          parsed.hasMatchedOption("--profile") ? run.backend.profile() : null,
          nothingToDo ? null : budget, nothingToDo || time == null ? null : timeLimitSeconds(),
          run.inputShapes.text(), run.inputShapes.sequenceLength(), run.inputShapes.pastLength()));
      if (nothingToDo) {
        // Nothing to continue: say so and leave every file as it is.
        ResumeNotes.nothingChanged(spec.commandLine().getOut(), json, out, ignored,
            Math.max(r.manifest().config().budget(), completed.getAsInt()));
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
      memoryOptions = MemoryOptions.savedIn(folder.dir(), mf.config());
      List<String> testDevices = RunOptions.testDeviceSpecs(mf);
      InputShapes.Resolution shapes = InputShapeOptions.resolve(mf.inputShape(), mf.sequenceLength(),
          mf.pastLength(), r.graph());
      BackendRequest request = r.backend().withInputShapes(shapes).withTestDevices(testDevices);
      ProxyChoice choice = mf.config().proxy();
      try (Session session = session(Session.of(r.graph(), request), RunObjective.read(folder.dir()), choice)
          .devices(mf.config().devices()).memory(memoryOptions).buildStopLine(CostModelBuild.interruptedRun(out))
          .beforeCostModel((b, ds) -> turn.take(b)) // profiling measures: the machine's turn first
          .beforeModel(backend -> {
            if (!backend.profile().equals(mf.profile())) {
              throw new UserInputException("this run was measured with profile " + mf.profile() + " but backend "
                  + backend.name() + " now reports " + backend.profile());
            }
            try {
              CostModelMeasurements.reuse(folder, backend, r.graph()).ifPresent(this::notice);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            CostModelMeasurements.track(folder, backend, r.graph(), this::notice);
          }).open()) {
        return execution().run(folder, mf, r.graph(), session.measuring(), true, mf.config().newStrategy(),
            session.proxy());
      }
    }
  }

  private RunFolder lock(Path dir) throws IOException {
    viewOptions.start(dir, spec.commandLine().getErr()); // before the folder: a refused address leaves nothing
    try {
      return RunFolder.lock(dir);
    } catch (FileSystemException e) {
      throw new UserInputException("--out " + dir + ": cannot use this folder (" + IoErrors.describe(e) + ")");
    }
  }

  /**
   * What every tune session shares: the objective measured, the cost model (a named profile must load; auto on a
   * backend without one searches cold), the notices, and the backend timed and load-watched (or the injected one).
   */
  private Session.Setup session(Session.Setup setup, RunObjective objective, ProxyChoice choice) {
    return setup.objective(objective, true).proxy(choice, false, "--proxy-profile: ").notices(this::notice)
        .decorate(b -> CallTiming.wrap(compileCacheOptions.apply(b)), loadOptions::apply)
        .injected(injectedBackend);
  }

  /** {@code --no-wait} while another tune measures here: exit 2 before anything is created, opened or built. */
  private void refuseEarly(String backendName) throws IOException {
    MachineTurn.of(shareMachine, noWait).refuseEarly(backendName, injectedBackend, clusterOptions.enabled(),
        MachineLock.defaultDir());
  }

  private TuneExecution execution() {
    return new TuneExecution(spec, json, quiet, noReport, injectedBackend != null, clusterOptions, memoryOptions,
        this::notice, startNanos);
  }

  private void notice(String line) {
    if (!json && !quiet) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("hsdag: " + line);
      err.flush();
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

  static String version() {
    String v = HsdagCli.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }
}
