package org.hsdag.bench.real;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.hsdag.backend.LoadPolicy;
import org.hsdag.backend.LoadProbe;
import org.hsdag.backend.LoadWatchingBackend;
import org.hsdag.backend.LoadSample;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.cli.ModelArgument;
import org.hsdag.openvino.TimedBackend;
import org.hsdag.cli.TuneCommand;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.openvino.CalibrationFit;
import org.hsdag.openvino.CalibrationRecords;
import org.hsdag.openvino.CalibrationRun;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The real-runtime figures (docs/real-hardware.md), measured on this machine through hsdag's own OpenVINO
 * backend (and OpenVINO's {@code benchmark_app} for reference). Every compared quantity is measured
 * side by side in interleaved rounds and printed as a median with its range, because the machines
 * hsdag is developed on are shared and noisy. Sections run alone with {@code --sections}.
 *
 * <pre>
 * ./hsdag.sh bench real-runtime-figures [--sections cpu,sim,cost-model,measure-cost,isolation,tune,split]
 *     [--models resnet50,inception_v3,bert_base,resnet50_299] [--rounds 5] [--placements 30] [--test-device CPU2:threads=1]
 * </pre>
 */
@Command(name = "real-runtime-figures", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Real-runtime figures (docs/real-hardware.md), measured with the openvino backend on this machine.")
public final class RealRuntimeFigures implements Callable<Integer> {
  static final List<String> SECTIONS = List.of("cpu", "sim", "cost-model", "measure-cost", "isolation", "tune",
      "split");

  @Option(names = "--sections", split = ",", paramLabel = "LIST",
      description = "Sections to run, in this order: cpu (hsdag vs benchmark_app, CPU only), sim (simulator calibrated on one model "
          + "vs real CPU-only latency of the others), cost-model (planner cost model vs real CPU/CPU2 splits), measure-cost "
          + "(compile vs inference of one measurement, with and without the model cache), isolation (what the runtime's child "
          + "process costs per measurement, on the --cost-model model), tune (a default tune's wall time "
          + "and hsdag's share), split (tuned split vs best single device). Default: all.")
  List<String> sections = new ArrayList<>(SECTIONS);

  @Option(names = "--models", split = ",", paramLabel = "LIST",
      defaultValue = "resnet50,inception_v3,bert_base,resnet50_299",
      description = "Models of the cpu, sim and cost-model sections (catalog names or IR files). Default: ${DEFAULT-VALUE}.")
  List<String> models;

  @Option(names = "--rounds", defaultValue = "5",
      description = "Interleaved rounds of each side-by-side comparison. Default: ${DEFAULT-VALUE}.")
  int rounds;

  @Option(names = "--iterations", defaultValue = "50",
      description = "Timed inferences per benchmark_app run and per hsdag run at its protocol (after one warm-up). Default: ${DEFAULT-VALUE}.")
  int iterations;

  @Option(names = "--placements", defaultValue = "30",
      description = "CPU/CPU2 placements per model for the cost model. Default: ${DEFAULT-VALUE}.")
  int placements;

  @Option(names = "--split-runs", defaultValue = "10",
      description = "Timed runs (after 1 warm-up, median) per placement in cost-model and split. Default: ${DEFAULT-VALUE}.")
  int splitRuns;

  @Option(names = "--cost-model-rounds", defaultValue = "3",
      description = "Interleaved rounds over the cost-model placements (real = the fastest round). Default: ${DEFAULT-VALUE}.")
  int costModelRounds;

  @Option(names = "--test-device", defaultValue = "CPU2:threads=1",
      description = "The second device: the CPU plugin registered again (NAME:threads=N). Default: ${DEFAULT-VALUE}.")
  String testDevice;

  @Option(names = "--benchmark-app", paramLabel = "PATH",
      description = "OpenVINO's benchmark_app (default: the one beside the Python whose OpenVINO hsdag was built against).")
  Path benchmarkApp;

  private Path benchmarkApp() {
    if (benchmarkApp != null) {
      return benchmarkApp;
    }
    return OpenVinoAvailability.runtimePython().map(p -> p.resolveSibling("benchmark_app"))
        .orElseThrow(() -> new IllegalStateException("no benchmark_app known: pass --benchmark-app PATH"));
  }

  @Option(names = "--calibrate-on", defaultValue = "resnet50",
      description = "Model the sim section calibrates on. Default: ${DEFAULT-VALUE}.")
  String calibrateOn;

  @Option(names = "--cost-model", defaultValue = "resnet50",
      description = "Model of the measure-cost section. Default: ${DEFAULT-VALUE}.")
  String costModelName;

  @Option(names = "--tune-model", defaultValue = "resnet50",
      description = "Model of the tune section. Default: ${DEFAULT-VALUE}.")
  String tuneModel;

  @Option(names = "--tune-out", paramLabel = "DIR",
      description = "Run folder of the tune section (new), or of an earlier tune for split alone. Default: a new temporary folder.")
  Path tuneOut;

  @Option(names = "--tune-arg", paramLabel = "ARG",
      description = "Extra argument for the tune (repeat; e.g. --tune-arg=--budget --tune-arg=30). Default: none (a default tune).")
  List<String> tuneArgs = new ArrayList<>();

  @Option(names = "--seed", defaultValue = "1",
      description = "Seed of the placements and input data. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Spec
  CommandSpec spec;

  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    for (String s : sections) {
      if (!SECTIONS.contains(s)) {
        throw new CommandLine.ParameterException(new CommandLine(this),
            "unknown section " + s + " (known: " + String.join(",", SECTIONS) + ")");
      }
    }
    TestDevice second = TestDevice.parse(testDevice);
    DeviceSet pair = DeviceSet.of("CPU", second.name());
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withSeed(seed).withTestDevices(List.of(second));
    try (OpenVinoBackend backend = OpenVinoBackend.open(options)) {
      out.printf("# Real-runtime figures: backend %s, %s%n", backend.name(), backend.profile());
      out.printf(
          "# real hardware, not simulated; %s = %s; the machine is shared with other jobs, so every figure is a median "
              + "with its [min-max] over interleaved rounds%n%n",
          second.name(), second.describe());
      for (String s : SECTIONS) {
        if (!sections.contains(s)) {
          continue;
        }
        switch (s) {
          case "cpu" -> cpuVsBenchmarkApp(backend, pair);
          case "sim" -> simulatorVsReal(backend, pair);
          case "cost-model" -> costModelVsReal(backend, pair);
          case "measure-cost" -> measurementCost(options, pair);
          case "isolation" ->
            new IsolationOverheadFigures(out, Math.max(rounds, 20)).print(options, pair, costModelName);
          case "tune" -> tuneOverhead(options, pair);
          case "split" -> splitVsSingle(backend, pair);
          default -> throw new IllegalStateException(s);
        }
      }
    }
    return 0;
  }

  /** hsdag's latency statistic for the side-by-side with benchmark_app: its warm-up, its count, its median. */
  private MeasurementProtocol matched() {
    return new MeasurementProtocol(1, iterations, Statistic.MEDIAN, 1, 0);
  }

  private MeasurementProtocol splitProtocol() {
    return new MeasurementProtocol(1, splitRuns, Statistic.MEDIAN, 1, 0);
  }

  record Model(String label, Path xml, OpGraph graph) {}

  static Model model(OpenVinoBackend backend, String name) throws IOException {
    Model m = model(name);
    backend.bind(m.graph(), m.xml());
    return m;
  }

  /** A model read by catalog name or file, with a catalog model's stand-in weights written. */
  static Model model(String name) throws IOException {
    Path xml = ModelArgument.resolve(Path.of(name));
    ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED);
    OpGraph g = ModelArgument.read(xml);
    return new Model(name.endsWith(".xml") ? xml.getFileName().toString() : name, xml, g);
  }

  static Measurement ok(Measurement m, String what) {
    if (!m.ok()) {
      throw new IllegalStateException(what + " failed: " + m.reason());
    }
    return m;
  }

  // ---- cpu: hsdag vs benchmark_app ----

  private void cpuVsBenchmarkApp(OpenVinoBackend backend, DeviceSet pair) throws IOException {
    out.printf(
        "## CPU-only latency: hsdag (openvino backend) vs benchmark_app -d CPU -hint latency -nireq 1 -niter %d%n%n",
        iterations);
    out.printf(
        "%d interleaved rounds (order alternates each round); per round one benchmark_app process and two hsdag measurements, "
            + "each compiling as tune's CPU-only baseline does (HETERO:%s, every op on CPU) and running: '%s' (the tune protocol) and '%s' "
            + "(benchmark_app's warm-up, count and statistic). benchmark_app prints the lower median of its timed iterations "
            + "(sorted[ceil(n/2)-1]) after one untimed first inference and sets hint LATENCY; hsdag sets no hint (the CPU plugin's "
            + "default is LATENCY). To locate a gap, a third hsdag-runtime run per round compiles plain CPU (no HETERO) on a core "
            + "without %s registered, '%s'. Foreign load per pair: (machine busy - this JVM and its benchmark_app) / wall.%n%n",
        rounds, String.join(",", pair.names()), MeasurementProtocol.PAPER.describe(),
        matched().describe(), pair.name(1), matched().describe());
    out.println(
        "| model | benchmark_app median ms | benchmark_app mean ms | hsdag 1+N median ms | hsdag paper ms | plain CPU, no HETERO ms "
            + "| ratio hsdag 1+N median / BA median | ratio hsdag paper / BA median | ratio plain CPU / BA median "
            + "| ratio of minima hsdag / BA | foreign load, cores busy with other processes per pair | goal within 5 % |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
    try (OpenVinoRuntime plainRuntime = OpenVinoAvailability.probe().openRuntime()) {
      for (String name : models) {
        Model m = model(backend, name);
        Placement cpu = Placement.allOn(pair, m.graph().nodeCount(), "CPU");
        double[] ba = new double[rounds];
        double[] baMean = new double[rounds];
        double[] hm = new double[rounds];
        double[] hp = new double[rounds];
        double[] plain = new double[rounds];
        double[] minRatio = new double[rounds];
        double[] load = new double[rounds];
        try (OpenVinoRuntime.Model plainModel = plainRuntime.readModel(m.xml())) {
          for (int r = 0; r < rounds; r++) {
            boolean baFirst = r % 2 == 0;
            Optional<LoadSample> l0 = LoadProbe.proc().sample();
            BenchmarkAppRun run = null;
            if (baFirst) {
              run = BenchmarkAppRun.run(benchmarkApp(), m.xml(), "CPU", iterations);
            }
            Measurement matchedRun = ok(backend.measure(m.graph(), cpu, matched()), m.label() + " CPU");
            hm[r] = matchedRun.latencyMillis();
            hp[r] = ok(backend.measure(m.graph(), cpu, MeasurementProtocol.PAPER), m.label() + " CPU").latencyMillis();
            try (OpenVinoRuntime.Compiled c = plainModel.compile("CPU", null, false)) {
              c.fillInputs(seed);
              plain[r] = matched().reduce(c.inferTimed(matched().warmupRuns(), matched().runs()));
            }
            if (!baFirst) {
              run = BenchmarkAppRun.run(benchmarkApp(), m.xml(), "CPU", iterations);
            }
            Optional<LoadSample> l1 = LoadProbe.proc().sample();
            load[r] = LoadSample.foreignCores(l0, l1);
            ba[r] = run.medianMs();
            baMean[r] = run.averageMs();
            // Under contention the fastest run is the steadiest figure of the uncontended latency.
            minRatio[r] = java.util.Arrays.stream(matchedRun.samplesMillis()).min().orElseThrow() / run.minMs();
          }
        }
        Spread rm = Spread.ratios(hm, ba);
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", m.label(),
            Spread.of(ba).format(2),
            Spread.of(baMean).format(2), Spread.of(hm).format(2), Spread.of(hp).format(2), Spread.of(plain).format(2),
            rm.format(3),
            Spread.ratios(hp, ba).format(3), Spread.ratios(plain, ba).format(3), Spread.of(minRatio).format(3),
            Spread.of(load).format(2),
            Math.abs(rm.median() - 1) <= 0.05 ? "met" : "MISSED");
      }
    }
    out.println();
  }

  // ---- sim: calibrated simulator vs real CPU-only ----

  private void simulatorVsReal(OpenVinoBackend backend, DeviceSet pair) throws IOException {
    Model base = model(backend, calibrateOn);
    CalibrationRecords recs;
    long t0 = System.nanoTime();
    try (OpenVinoRuntime rt = OpenVinoAvailability.probe().openRuntime()) {
      recs = new CalibrationRun(20, 0, seed, Map.of()).measure(rt, base.graph(), base.xml(), List.of("CPU"),
          DeviceProfile.load("paper"), ShapeAssumption.DEFAULT);
    }
    CalibrationFit fit = new CalibrationFit(base.graph(), DeviceProfile.load("paper"), ShapeAssumption.DEFAULT);
    CalibrationFit.Result result = fit.fit(recs);
    DeviceProfile profile = fit.toProfile("calibrated-" + base.label(), "calibrated on " + base.label(),
        List.of(recs.source()), result);
    SimBackend sim = new SimBackend(profile, SimOptions.exact());
    out.printf(Locale.ROOT,
        "## Simulator calibrated on %s (hsdag calibrate's CalibrationRun + CalibrationFit, CPU only, %.0f s) vs real CPU-only latency%n%n",
        base.label(), (System.nanoTime() - t0) / 1e9);
    double calibratedWall = recs.run("CPU").latencyMillis();
    out.printf(Locale.ROOT,
        "sim backend, profile %s (noise off) vs openvino backend '%s' on HETERO:%s with every op on CPU, %d rounds, "
            + "each round measuring every model once in a rotating order (so no model gets a quieter minute than another); error = "
            + "sim / real - 1. The fit is anchored to the wall latency it measured on %s (%.2f ms, median of 20 runs, a few seconds of "
            + "this shared machine), so a busy moment during calibration shifts every prediction alike: 'error vs held-in' divides that "
            + "out, (sim / real) / (sim / real of %s) - 1. Goal: within 15 %% on the models it was not calibrated on.%n%n",
        profile.name(), matched().describe(), String.join(",", pair.names()), rounds, base.label(), calibratedWall,
        base.label());
    out.println(
        "| model | calibrated on it | simulated CPU ms | real CPU ms | error | error vs held-in | goal within 15 % |");
    out.println("|---|---|---|---|---|---|---|");
    List<Model> ms = new ArrayList<>();
    for (String name : models) {
      ms.add(model(backend, name));
    }
    double[][] real = new double[ms.size()][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < ms.size(); k++) {
        int i = (k + r) % ms.size();
        Model m = ms.get(i);
        real[i][r] = ok(backend.measure(m.graph(), Placement.allOn(pair, m.graph().nodeCount(), "CPU"), matched()),
            m.label() + " CPU")
            .latencyMillis();
      }
    }
    Map<String, double[]> rows = new LinkedHashMap<>();
    Map<String, Spread> realByModel = new LinkedHashMap<>();
    for (int i = 0; i < ms.size(); i++) {
      Model m = ms.get(i);
      double simulated = sim.latencyMillis(m.graph(), Placement.allOn(sim.deviceSet(), m.graph().nodeCount(), "CPU"));
      realByModel.put(m.label(), Spread.of(real[i]));
      rows.put(m.label(), new double[] {simulated, realByModel.get(m.label()).median()});
    }
    double[] held = rows.get(base.label());
    for (Map.Entry<String, double[]> e : rows.entrySet()) {
      double simulated = e.getValue()[0];
      Spread rs = realByModel.get(e.getKey());
      double err = simulated / rs.median() - 1;
      double relative = held == null ? Double.NaN : (simulated / rs.median()) / (held[0] / held[1]) - 1;
      boolean heldIn = e.getKey().equals(base.label());
      out.printf(Locale.ROOT, "| %s | %s | %.2f | %s | %+.1f %% | %+.1f %% | %s |%n", e.getKey(), heldIn ? "yes" : "no",
          simulated,
          rs.format(2), 100 * err, 100 * relative, heldIn ? "(fitted)" : Math.abs(err) <= 0.15 ? "met" : "MISSED");
    }
    out.println();
  }

  // ---- cost-model: the planner's additive model vs real splits ----

  /** The same comparison as {@code bench fidelity} ({@link Fidelity}), on the openvino backend's own cost model. */
  private void costModelVsReal(OpenVinoBackend backend, DeviceSet pair) throws IOException {
    Fidelity.Settings settings = new Fidelity.Settings(placements, costModelRounds, splitRuns, seed);
    out.printf(
        "## The planner's cost model (openvino backend's own: per-op times profiled on each device inside HETERO, start "
            + "and copy costs fitted to designed splits) vs real %s placements%n%n",
        String.join("/", pair.names()));
    out.printf(
        "%d placements per model (both single devices, then 1-%d contiguous device changes along the ops' topological order); "
            + "%d interleaved rounds, '%s' each, real = the fastest round; error = predicted / real - 1. The noise floor "
            + "is Spearman's rho between consecutive rounds of the real measurements themselves. Same as 'hsdag bench fidelity'.%n%n",
        placements, Fidelity.MAX_CHANGES, costModelRounds, settings.protocol().describe());
    Fidelity.printHeader(out);
    List<Fidelity.Result> results = new ArrayList<>();
    for (String name : models) {
      Model m = model(backend, name);
      PlacementProxy proxy = PlacementProxy.of(m.graph(), backend.costModel(m.graph()), pair);
      Fidelity.Result r = Fidelity.run(backend, m.graph(), m.label(), proxy, settings);
      results.add(r);
      Fidelity.printRow(out, r);
    }
    out.println();
    out.println("<details><summary>every placement</summary>");
    out.println();
    results.forEach(r -> Fidelity.printDetails(out, r));
    out.println();
    out.println("</details>");
    out.println();
  }

  // ---- measure-cost: compile vs inference, with and without the model cache ----

  private void measurementCost(OpenVinoOptions options, DeviceSet pair) throws IOException {
    new MeasurementCostFigures(out, rounds, seed).print(options, pair, costModelName);
  }

  // ---- tune: wall time and hsdag's own share ----

  private void tuneOverhead(OpenVinoOptions options, DeviceSet pair) throws Exception {
    Path dir = tuneOut != null ? tuneOut : Files.createTempDirectory("hsdag-figures-tune-").resolve("run");
    tuneOut = dir;
    // A fresh backend: nothing cached from the other sections (the cost model, the read model).
    try (OpenVinoBackend fresh = OpenVinoBackend.open(options)) {
      Model m = model(fresh, tuneModel);
      TimedBackend timed = new TimedBackend(fresh);
      List<String> args = new ArrayList<>(
          List.of(m.xml().toString(), "--devices", String.join(",", pair.names()), "-o", dir.toString()));
      args.addAll(tuneArgs);
      StringWriter log = new StringWriter();
      CommandLine cl = new CommandLine(
          new TuneCommand(new LoadWatchingBackend(timed, LoadProbe.proc(), LoadPolicy.DEFAULT)));
      cl.setOut(new PrintWriter(log, true));
      cl.setErr(new PrintWriter(log, true));
      // A CLI tune also pays the JVM start and opening the backend: from this JVM's start to here (when tune runs first).
      double sinceJvmStartS = ProcessHandle.current().info().startInstant()
          .map(i -> java.time.Duration.between(i, java.time.Instant.now()).toMillis() / 1e3).orElse(Double.NaN);
      long t0 = System.nanoTime();
      int code = cl.execute(args.toArray(String[]::new));
      long t1 = System.nanoTime();
      double wallMs = (t1 - t0) / 1e6;
      TimedBackend.Totals t = timed.totals();
      double hsdag = wallMs - t.openVinoMs();
      double headMs = (t.firstCallNs() - t0) / 1e6;
      double tailMs = (t1 - t.lastReturnNs()) / 1e6;
      out.printf("## A default real tune: %s on %s (tune %s, in this JVM, backend openvino through TuneCommand)%n%n",
          m.label(),
          String.join(",", pair.names()), String.join(" ", args));
      out.printf(Locale.ROOT,
          "exit %d; wall %.1f s. Inside the backend: %d measure calls = OpenVINO compile %.1f s + inputs and "
              + "inference %.1f s + releasing the compiled models (OpenVINO's destructors) %.1f s + hsdag's prepare (placement, names, "
              + "affinities, first read_model) %.1f s; cost model (read, profiling compiles and runs per device, then hsdag's tables) "
              + "%.1f s, of it the runtime's calls %.1f s; query_model %.1f s; the runtime's other calls (reading the model, "
              + "boundary shape inference, affinities) %.1f s.%n",
          code, wallMs / 1e3, t.measurements(), t.compileMs() / 1e3, t.inferMs() / 1e3,
          t.releaseMs() / 1e3, t.prepareMs() / 1e3, t.costModelMs() / 1e3, t.costModelRuntimeMs() / 1e3,
          t.supportsMs() / 1e3, t.otherRuntimeMs() / 1e3);
      out.printf(Locale.ROOT,
          "hsdag's own share = (wall - OpenVINO's compile, inference, release, cost-model profiling, query_model and other calls) "
              + "/ wall = %.1f s / %.1f s = %.1f %% (goal <= 5 %%: %s); of it: prepare inside measure calls %.1f s, before the first "
              + "backend call (set-up) %.1f s, between backend calls (search strategy, logging) %.1f s, after the last (final choice, "
              + "report, charts) %.1f s; counting the whole cost-model build as hsdag's: %.1f %%.%n",
          hsdag / 1e3, wallMs / 1e3,
          100 * hsdag / wallMs, hsdag / wallMs <= 0.05 ? "met" : "MISSED", t.prepareMs() / 1e3, headMs / 1e3,
          (hsdag - t.prepareMs() - headMs - tailMs) / 1e3, tailMs / 1e3, 100 * (hsdag + t.costModelMs()) / wallMs);
      out.printf(Locale.ROOT,
          "before the tune began, %.1f s had passed since this JVM started (JVM start-up, opening OpenVINO and "
              + "registering %s, reading the model%s)%n%n",
          sinceJvmStartS, pair.name(1),
          sections.stream().anyMatch(x -> SECTIONS.indexOf(x) < SECTIONS.indexOf("tune"))
              ? ", and the earlier sections of this run" : "");
      out.println("tune's own output (last lines):");
      out.println("```");
      List<String> lines = log.toString().lines().toList();
      lines.subList(Math.max(0, lines.size() - 14), lines.size()).forEach(out::println);
      out.println("```");
      out.println();
    }
  }

  // ---- split: tuned placement vs best single device ----

  private void splitVsSingle(OpenVinoBackend backend, DeviceSet pair) throws IOException {
    if (tuneOut == null || !Files.isRegularFile(tuneOut.resolve("result.json"))) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "split needs a finished tune: run the tune section first or "
              + "give --tune-out DIR of one");
    }
    new SplitVsSingleFigures(out, rounds, splitRuns, splitProtocol()).print(backend, pair, tuneOut, tuneModel);
  }
}
