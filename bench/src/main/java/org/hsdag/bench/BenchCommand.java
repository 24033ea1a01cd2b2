package org.hsdag.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Map;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.ModelFileBinding;
import org.hsdag.bench.plan.MemoryCapExperiment;
import org.hsdag.bench.plan.PlannerBenchmark;
import org.hsdag.bench.plan.PlannerFigures;
import org.hsdag.bench.plan.WarmStartExperiment;
import org.hsdag.bench.real.FidelityCommand;
import org.hsdag.bench.real.RealRuntimeFigures;
import org.hsdag.bench.real.RefusalAgreement;
import org.hsdag.bench.real.SoakCommand;
import org.hsdag.bench.report.BenchReport;
import org.hsdag.bench.report.BenchResults;
import org.hsdag.bench.report.SeedSpread;
import org.hsdag.bench.run.BenchRunner;
import org.hsdag.bench.throughput.ThroughputExperiment;
import org.hsdag.cli.ClusterOptions;
import org.hsdag.cli.ExitCodes;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.ModelArgument;
import org.hsdag.cli.MeasuredRunOptions;
import org.hsdag.cli.MemoryOptions;
import org.hsdag.cli.ModelNotes;
import org.hsdag.cli.ObjectiveOptions;
import org.hsdag.cli.OptionRules;
import org.hsdag.cli.ProxyOptions;
import org.hsdag.cli.SeedOptions;
import org.hsdag.cli.Session;
import org.hsdag.cli.CompileCacheOptions;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import org.hsdag.cluster.ClusterFigures;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.plan.ProxyUnavailableException;
import org.hsdag.strategy.Strategies;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunObjective;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag bench}: every method on every model at an equal measurement budget and several
 * seeds, on one backend and profile, written as the HSDAG paper's Table 2 / Table 3 layouts with
 * the paper's own numbers beside ours, best-so-far plots, Markdown, HTML and JSON.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    subcommands = {PlannerFigures.class, WarmStartExperiment.class, PlannerBenchmark.class, RealRuntimeFigures.class,
        FidelityCommand.class, RefusalAgreement.class, SoakCommand.class,
        MemoryCapExperiment.class, ThroughputExperiment.class, ClusterFigures.class},
    description = {"Compare placement methods (paper Tables 2 and 3) at equal measurement budgets.",
        "Models are IR .xml files or catalog names (default: resnet50, inception_v3, bert_base)."})
public final class BenchCommand implements Callable<Integer> {
  /** The paper's models at the inputs of its public code (ResNet-50 and Inception-V3 at 299x299, BERT-base at 8 tokens). */
  private static final String PAPER_MODELS_TEXT = "resnet50_299, inception_v3, bert_base_8";
  static final List<String> PAPER_MODELS = List.of(PAPER_MODELS_TEXT.split(", "));

  @Parameters(arity = "0..*", paramLabel = "MODEL", description = "IR .xml files or catalog model names")
  List<String> models = new ArrayList<>();

  @Option(names = "--methods", split = ",", paramLabel = "NAME",
      description = "Methods to run, or 'all' (default), 'baselines', 'ablations'. Known: ${COMPLETION-CANDIDATES}",
      completionCandidates = MethodNames.class)
  List<String> methods = new ArrayList<>(List.of("all"));

  @Option(names = "--budget", paramLabel = "N", defaultValue = "500",
      description = "Measurements per run (default: ${DEFAULT-VALUE})")
  int budget;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "3",
      description = "Runs per method and model (default: ${DEFAULT-VALUE})")
  int seeds;

  @Mixin
  SeedOptions seedOptions;

  @Mixin
  MeasuredRunOptions run;

  @Mixin
  ProxyOptions proxyOptions;

  @Mixin
  ClusterOptions clusterOptions;
  @Mixin
  ObjectiveOptions objectiveOptions;

  @Mixin
  MemoryOptions memoryOptions;

  @Mixin
  CompileCacheOptions compileCacheOptions = new CompileCacheOptions();

  @Option(names = "--reference-factor", paramLabel = "K", defaultValue = "10",
      description = "Budget multiple of the best-known BRKGA reference run per model; 0 skips it (default: ${DEFAULT-VALUE})")
  int referenceFactor;

  @Option(names = {"--final-rounds", "--final-repeats"}, paramLabel = "R", defaultValue = "3",
      description = "Re-measure each run's best placement in this many rounds; its latency is their median (default: ${DEFAULT-VALUE})")
  int finalRounds;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR",
      description = "Output folder; must not hold an earlier bench (default: runs/bench-<date>-<time>)")
  Path out;

  @Option(names = "--paper",
      description = "The paper's Tables 2 and 3 at its inputs: every method on " + PAPER_MODELS_TEXT + ".")
  boolean paper;

  @Option(names = "--json",
      description = "Progress on stderr; a JSON summary (paths and mean latency per method) on stdout")
  boolean json;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  /** Completion candidates for {@code --methods}. */
  static final class MethodNames extends ArrayList<String> {
    MethodNames() {
      super(Strategies.all().stream().map(Strategies.Entry::name).toList());
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter progress = json ? err : o;
    checkOptions();
    List<String> methodNames = resolveMethods(paper ? List.of("all") : methods);
    List<BenchRunner.NamedGraph> graphs = loadModels(paper ? PAPER_MODELS : models);
    Path dir = out != null ? out : defaultOutDir();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new UserInputException("--out " + dir + " is a file, not a folder");
    }
    if (Files.exists(dir.resolve(BenchReport.RESULTS_FILE))) {
      throw new UserInputException(dir + " already holds a bench; choose another --out (its results are kept)");
    }
    checkWritable(dir);
    MeasurementProtocol protocol = run.protocol.protocol();
    ProxyChoice proxyChoice = proxyChoice();
    // Each model's dynamic inputs are sized on their own, so each model gets its own backend.
    List<InputShapes.Resolution> shapes = new ArrayList<>();
    for (BenchRunner.NamedGraph g : graphs) {
      shapes.add(run.inputShapes.resolve(g.graph()));
    }
    RunObjective objective = objectiveOptions.choice();
    clusterOptions.requireLatency(objective);
    List<Long> seedList = seedList();
    BenchResults results = null;
    String label = null;
    for (int i = 0; i < graphs.size(); i++) {
      boolean first = i == 0;
      BenchRunner.NamedGraph named = graphs.get(i);
      try (Session session = openSession(named, shapes.get(i), first ? err : null)) {
        LatencyBackend backend = session.backend();
        BenchRunner.NamedGraph model = new BenchRunner.NamedGraph(named.name(), session.graph());
        DeviceSet ds = session.devices();
        label = backend.simulated() ? "SIMULATED" : "measured on hardware";
        if (first) {
          printHeader(progress, methodNames.size(), graphs.size(), ds, backend, label, objective);
        }
        ModelNotes.announce(model.graph(), backend, notice -> progress.println(model.name() + ": " + notice));
        String shapeNotice = shapes.get(i).notice();
        if (shapeNotice != null) {
          progress.println(model.name() + ": " + shapeNotice);
        }
        progress.flush();
        BenchRunner.Plan plan = new BenchRunner.Plan(methodNames, budget, seedList, ds, protocol, finalRounds,
            referenceFactor);
        LatencyBackend measuring = clusterOptions.enabled() ? clusterOptions.attach(backend, model.graph(),
            RunManifest.sha256(clusterModelFile(paper ? List.of() : models, i)), seedOptions.seed(),
            InputShapeOptions.explicit(run.inputShapes.text(), run.inputShapes.sequenceLength(),
                run.inputShapes.pastLength(), model.graph()),
            line -> progress.println(model.name() + ": " + line), null)
            : ObjectiveOptions.measuring(objective, backend);
        BenchRunner runner = new BenchRunner(measuring, line -> {
          progress.println(line);
          progress.flush();
        }, proxyChoice, shapes.get(i).shapes());
        BenchResults one;
        try {
          one = runner.run(plan, List.of(model));
        } catch (ProxyUnavailableException e) {
          throw new UserInputException("--proxy-profile: " + e.getMessage());
        } finally {
          if (measuring != backend) {
            measuring.close();
          }
        }
        results = results == null ? one : results.withModels(concat(results.models(), one.models()));
      }
    }
    checkWritable(dir); // again: the bench may have run for hours
    writeResults(o, dir, results, label);
    return ExitCodes.OK;
  }

  /** The session of one model; what the backend says goes to {@code notices} (null: nowhere, after the first model). */
  private Session openSession(BenchRunner.NamedGraph named, InputShapes.Resolution shapes, PrintWriter notices) {
    BackendRequest request = run.backend.request(seedOptions.seed(), shapes).requiring(run.devices.requested(), 2);
    return Session.of(named.graph(), request).announceModel(false)
        .devices(run.devices, 2, "bench compares placements across devices").memory(memoryOptions)
        .decorate(compileCacheOptions::apply, UnaryOperator.identity())
        .binding((b, g) -> fileBacked(b, named).graph()).notices(notice -> {
          if (notices != null) {
            notices.println("hsdag: " + notice);
            notices.flush();
          }
        }).open();
  }

  private void checkOptions() {
    OptionRules.requireAtLeast("--budget", budget, 1);
    OptionRules.requireAtLeast("--seeds", seeds, 1);
    OptionRules.requireAtLeast("--reference-factor", referenceFactor, 0);
    OptionRules.requireAtLeast("--final-rounds", finalRounds, 1);
    if (paper && (!models.isEmpty() || spec.commandLine().getParseResult().hasMatchedOption("--methods"))) {
      throw new UserInputException(
          "--paper chooses the models and methods itself; drop the MODEL arguments and --methods");
    }
  }

  /** The cost model the strategies plan with; a named profile is loaded now, so a bad one fails before any run. */
  private ProxyChoice proxyChoice() {
    ProxyChoice proxyChoice = proxyOptions
        .choice(run.backend.request(seedOptions.seed(), InputShapes.Resolution.NONE));
    if (proxyChoice instanceof ProxyChoice.Profile profile) {
      try {
        DeviceProfile.load(profile.nameOrPath());
      } catch (IllegalArgumentException e) {
        throw new UserInputException("--proxy-profile: " + e.getMessage());
      }
    }
    return proxyChoice;
  }

  /** The strategies' seeds, drawn from the master seed. */
  private List<Long> seedList() {
    SplittableRandom master = new SplittableRandom(seedOptions.seed());
    List<Long> seedList = new ArrayList<>();
    for (int i = 0; i < seeds; i++) {
      seedList.add(master.nextLong() & Long.MAX_VALUE);
    }
    return seedList;
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private void printHeader(PrintWriter progress, int methodCount, int modelCount, DeviceSet ds, LatencyBackend backend,
      String label, RunObjective objective) {
    progress.printf(
        "bench: %s x %s x %s, budget %d, devices %s, backend %s, profile %s (%s)%n", count(methodCount, "method"),
        count(modelCount, "model"), count(seeds, "seed"), budget, ds, backend.name(), backend.profile(), label);
    progress.println("bench: objective " + objective.describe(ds.size())
        + (objective.objective() == Objective.THROUGHPUT
            ? "; every ms figure (\"latency\") is the time per inference at steady state, 1000 / inferences per second"
            : ""));
    progress.println("bench: device memory capacities: " + MemoryOptions.capacitySource(backend)
        + " (no method measures a placement that exceeds one)");
  }

  /** Writes the report files and says where, or prints the JSON summary of {@code --json}. */
  private void writeResults(PrintWriter o, Path dir, BenchResults results, String label) throws java.io.IOException {
    List<Path> written = new BenchReport(results).writeAll(dir);
    if (json) {
      o.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(summary(dir, written, results)));
    } else {
      for (Path p : written) {
        o.println("wrote " + p);
      }
      o.printf("all numbers: backend %s, profile %s (%s)%n", results.backend(), results.profile(), label);
    }
    o.flush();
  }

  private static void checkWritable(Path dir) throws java.io.IOException {
    try {
      AtomicFiles.checkWritableFolder(dir);
    } catch (FileSystemException e) {
      throw new UserInputException("--out " + dir + ": cannot write there (" + IoErrors.describe(e) + ")");
    }
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static Path defaultOutDir() {
    String stamp = LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path dir = Path.of("runs", "bench-" + stamp);
    for (int i = 2; Files.exists(dir); i++) {
      dir = Path.of("runs", "bench-" + stamp + "-" + i);
    }
    return dir;
  }

  /** The {@code --json} summary: where everything went and each method's mean latency per model. */
  private static Map<String, Object> summary(Path dir, List<Path> written, BenchResults results) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("out", dir.toString());
    m.put("files", written.stream().map(Path::toString).toList());
    m.put("backend", results.backend());
    m.put("profile", results.profile());
    m.put("simulated", results.simulated());
    m.put("seeds", results.seeds().size());
    List<Map<String, Object>> models = new ArrayList<>();
    for (BenchResults.ModelResult mr : results.models()) {
      Map<String, Object> mm = new LinkedHashMap<>();
      mm.put("model", mr.model());
      mm.put("best_known_ms", finite(mr.bestKnownMillis()));
      mm.put("load_start", finite(mr.loadStart()));
      mm.put("load_end", finite(mr.loadEnd()));
      Map<String, Object> methods = new LinkedHashMap<>();
      for (BenchResults.MethodResult r : mr.methods()) {
        // min and max over the seeds: equal to the mean with one seed, which has no interval.
        methods.put(r.method(),
            r.skipped() != null ? Map.of("skipped", r.skipped()) : mapOf("mean_ms", finite(r.meanMillis()),
                "std_ms", finite(r.stdMillis()), "speedup_percent", finite(r.speedupPercent()),
                "speedup_min_max_percent", minMax(SeedSpread.speedups(mr, r)), "gap_to_best_percent",
                finite(r.gapToBestPercent()), "gap_min_max_percent", minMax(SeedSpread.gaps(mr, r))));
      }
      mm.put("methods", methods);
      models.add(mm);
    }
    m.put("models", models);
    return m;
  }

  private static Map<String, Object> mapOf(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static List<Double> minMax(double[] v) {
    return v.length == 0 ? null : java.util.Arrays.asList(finite(java.util.Arrays.stream(v).min().getAsDouble()),
        finite(java.util.Arrays.stream(v).max().getAsDouble()));
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  static List<String> resolveMethods(List<String> requested) {
    List<String> out = new ArrayList<>();
    for (String r : requested) {
      String n = r.trim().toLowerCase(Locale.ROOT);
      List<String> add = switch (n) {
        case "all" -> names(Strategies.Family.BASELINE, Strategies.Family.HSDAG, Strategies.Family.VARIANT,
            Strategies.Family.ABLATION);
        case "baselines" -> names(Strategies.Family.BASELINE);
        case "ablations" -> names(Strategies.Family.HSDAG, Strategies.Family.ABLATION);
        default -> List.of(Strategies.get(n).name());
      };
      for (String a : add) {
        if (!out.contains(a)) {
          out.add(a);
        }
      }
    }
    // Every device of the set gets its single-device baseline (BenchRunner adds them), the speedup reference among them.
    // Table order.
    List<String> ordered = new ArrayList<>(tableOrder());
    ordered.retainAll(out);
    return ordered;
  }

  private static List<String> tableOrder() {
    return Strategies.all().stream().map(Strategies.Entry::name).toList();
  }

  private static List<String> names(Strategies.Family... families) {
    List<Strategies.Family> f = List.of(families);
    return Strategies.all().stream().filter(e -> f.contains(e.family())).map(Strategies.Entry::name).toList();
  }

  /** The IR file of the {@code i}th model for {@code --cluster}: workers find models by file content. */
  private static Path clusterModelFile(List<String> args, int i) {
    Path p = i < args.size() ? Path.of(args.get(i)) : null;
    if (p == null || !Files.isRegularFile(p)) {
      throw new UserInputException(
          "--cluster measures model files the workers also hold; give IR .xml files, not catalog names"
              + " (write them with 'hsdag models build')");
    }
    return p;
  }

  /**
   * {@code model} as {@code backend} needs it, bound to it: a backend that compiles model files gets
   * a catalog model read from its file in {@code models/} (written when missing), as plan and tune read it.
   */
  private static BenchRunner.NamedGraph fileBacked(LatencyBackend backend, BenchRunner.NamedGraph model) {
    BenchRunner.NamedGraph read = model.graph().source().isPresent()
        || backend.capability(ModelFileBinding.class).isEmpty() ? model
            : new BenchRunner.NamedGraph(model.name(), ModelArgument.read(Path.of(model.name())));
    TuneBackends.bind(backend, read.graph());
    return read;
  }

  static List<BenchRunner.NamedGraph> loadModels(List<String> args) throws java.io.IOException {
    List<String> names = args.isEmpty() ? List.of("resnet50", "inception_v3", "bert_base") : args;
    List<BenchRunner.NamedGraph> out = new ArrayList<>();
    for (String a : names) {
      if (ModelCatalog.names().contains(a) && !Files.exists(Path.of(a))) {
        out.add(new BenchRunner.NamedGraph(a, ModelCatalog.get(a).build().graph()));
      } else {
        Path p = Path.of(a);
        if (!Files.exists(p)) {
          throw new UserInputException("model '" + a + "' is neither a file nor a catalog model ("
              + String.join(", ", ModelCatalog.names()) + ")");
        }
        OpGraph g = ModelArgument.read(p);
        String base = p.getFileName().toString().replaceFirst("\\.xml$", "");
        out.add(new BenchRunner.NamedGraph(base, g));
      }
    }
    return out;
  }
}
