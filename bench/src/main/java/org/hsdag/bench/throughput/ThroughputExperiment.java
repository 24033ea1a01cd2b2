package org.hsdag.bench.throughput;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.BackendUnavailableException;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.TestDevice;
import org.hsdag.bench.report.LoadAverage;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.cli.HsdagCli;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.OptionRules;
import org.hsdag.cli.ProtocolOptions;
import org.hsdag.cli.TestDeviceOptions;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import org.hsdag.ir.OpGraph;
import org.hsdag.bench.plan.SimTargetOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.strategy.AutoEmulationStrategy;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputBackend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Latency-tuned against throughput-tuned placements on the simulator: for each profile, model,
 * device set and seed, {@code hsdag tune} runs twice (noise on, default settings), once per
 * objective, and both returned placements are judged noise-free on both figures: latency and
 * inferences per second with the devices + 1 requests in flight. Beside them: the best single
 * device and AUTO's emulation (one device, GPU first) by throughput, both among the devices that can
 * hold the model under the profile's memory capacities, and as a reference the sum of
 * the single devices' throughputs (each device running whole requests of its own; not an
 * emulation of anything OpenVINO does). Every figure is simulated.
 *
 * <pre>
 * ./hsdag.sh bench throughput [--seeds 3] [--profile NAME]...
 *     [--devices A,B]... [--plan-only] [models ...]
 * </pre>
 * Defaults: profiles {@code paper} (CPU,GPU.1 and CPU,GPU.0,GPU.1) and {@code laptop-core-ultra}
 * (CPU,GPU.0 and CPU,GPU.0,NPU); models resnet50, inception_v3, decoder_9b. {@code --plan-only}
 * compares the two planners' placements under the profile's memory capacities (no tuning) and
 * prints the throughput planner's wall and CPU time.
 *
 * <p>{@code --backend openvino} (with {@code --test-device} for a second device) runs the same rows
 * on the real runtime: {@code tune} measures on it, and every figure is measured there by the
 * judge's {@code --protocol} (the latency of one request at a time, then the time per inference
 * with the requests in flight), see {@link ThroughputJudge}.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Latency-tuned against throughput-tuned placements on both figures (simulator, or measured on "
        + "--backend openvino).")
public final class ThroughputExperiment implements Callable<Integer> {
  /** Tune's budget and final rounds on a runtime unless given: each measurement costs real time. */
  static final int REAL_BUDGET = 16;

  static final int REAL_FINAL_ROUNDS = 3;

  /** The real runtime's backend name. */
  static final String REAL_BACKEND = "openvino";

  @Option(names = "--backend", paramLabel = "NAME", defaultValue = "sim",
      description = "sim (default: the profiles' simulators, noise-free figures) or openvino (tune and every figure "
          + "on the real runtime)")
  String backendName;

  @Mixin
  TestDeviceOptions testDeviceOptions = new TestDeviceOptions();

  @Option(names = "--requests", paramLabel = "N", defaultValue = "0",
      description = "Requests in flight for the throughput figure and tune (default: the devices + 1)")
  int requests;

  @Option(names = "--budget", paramLabel = "N",
      description = "Measurements per tune (default: tune's own on sim, " + REAL_BUDGET + " on openvino)")
  Integer budget;

  @Option(names = "--final-rounds", paramLabel = "R",
      description = "Tune's final rounds (default: tune's own on sim, " + REAL_FINAL_ROUNDS + " on openvino)")
  Integer finalRounds;

  @Mixin
  ProtocolOptions protocolOptions = new ProtocolOptions();

  @Mixin
  InputShapeOptions inputShapeOptions = new InputShapeOptions();

  @Option(names = "--proxy-profile", paramLabel = "NAME|FILE",
      description = "openvino --plan-only: plan on this profile's cost model (e.g. from 'hsdag calibrate') instead of "
          + "the backend's own")
  String proxyProfile;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "3",
      description = "Tunes per objective (default: ${DEFAULT-VALUE})")
  int seeds;

  @Option(names = "--profile", paramLabel = "NAME",
      description = "Simulator profile (repeat; default: paper and laptop-core-ultra)")
  List<String> profiles = new ArrayList<>();

  @Option(names = "--devices", paramLabel = "LIST", converter = SimTargetOptions.DeviceSetConverter.class,
      description = "A device set (repeat; default: the profile's 2- and 3-device sets)")
  List<DeviceSet> deviceSets = new ArrayList<>();

  @Option(names = "--plan-only", description = "Compare the two planners' plans instead of tuning")
  boolean planOnly;

  @Parameters(arity = "0..*", paramLabel = "MODEL",
      description = "Catalog models (default: resnet50 inception_v3 decoder_9b)")
  List<String> models = new ArrayList<>();

  @Spec
  CommandSpec spec;

  private PrintWriter out;

  @Override
  public Integer call() throws IOException {
    out = spec.commandLine().getOut();
    boolean real = checkOptions();
    List<String> profiles = real ? List.of(backendName)
        : this.profiles.isEmpty() ? List.of("paper", "laptop-core-ultra") : this.profiles;
    List<String> models = !this.models.isEmpty() ? this.models
        : real ? List.of("resnet50") : List.of("resnet50", "inception_v3", "decoder_9b");
    int misses = 0;
    boolean first = true;
    for (String target : profiles) {
      // On a runtime each model's dynamic inputs are sized on their own (checked first), so each gets its own backend.
      List<ThroughputJudge.Model> files = new ArrayList<>();
      List<InputShapes.Resolution> shapes = new ArrayList<>();
      if (real) {
        for (String name : models) {
          files.add(ThroughputJudge.file(name));
          shapes.add(inputShapeOptions.resolve(files.get(files.size() - 1).graph()));
        }
      }
      int groups = real ? models.size() : 1;
      for (int k = 0; k < groups; k++) {
        try (ThroughputJudge judge = real ? realJudge(shapes.get(k))
            : ThroughputJudge.sim(target, requests, tuneArgs())) {
          if (first) {
            printHeader(judge);
            first = false;
          }
          List<ThroughputJudge.Model> group = new ArrayList<>();
          if (real) {
            if (shapes.get(k).notice() != null) {
              out.println(models.get(k) + ": " + shapes.get(k).notice());
            }
            group.add(judge.bound(files.get(k)));
          } else {
            for (String name : models) {
              group.add(judge.model(name));
            }
          }
          misses += rows(judge, group, target);
          judge.failures().forEach(f -> out.println("failed measurement: " + f));
          if (real) {
            out.printf(Locale.ROOT, "%nall figures: %s; load average at the end %s%n", judge.describe(),
                LoadAverage.format(LoadAverage.now()));
          }
        }
      }
    }
    if (!planOnly) {
      out.printf(Locale.ROOT, "%nrows where the throughput-tuned placement misses a target: %d%n", misses);
    }
    return 0;
  }

  /** The rows of {@code models} on {@code judge}'s machine; how many miss a target. */
  private int rows(ThroughputJudge judge, List<ThroughputJudge.Model> models, String target) throws IOException {
    int misses = 0;
    List<DeviceSet> sets = !deviceSets.isEmpty() ? deviceSets
        : !judge.simulated()
            ? List.of(DeviceSet.of(judge.backend().devices().stream().map(d -> d.name()).toArray(String[]::new)))
        : defaultDeviceSets(target);
    for (ThroughputJudge.Model model : models) {
      for (DeviceSet ds : sets) {
        if (planOnly) {
          planRow(judge, model, ds);
        } else {
          misses += tuneRow(judge, model, ds, seeds);
        }
      }
    }
    return misses;
  }

  /** Checks the options; true when the rows run on a real runtime. */
  private boolean checkOptions() {
    OptionRules.requireAtLeast("--seeds", seeds, 1);
    OptionRules.requireAtLeast("--requests", requests, 0);
    boolean real = !backendName.equalsIgnoreCase("sim");
    if (real && !backendName.equalsIgnoreCase(REAL_BACKEND)) {
      throw new UserInputException("--backend: sim or openvino (got " + backendName + ")");
    }
    if (real && !profiles.isEmpty()) {
      throw new UserInputException("--profile names simulator profiles; on --backend openvino the real machine is the "
          + "profile (--proxy-profile plans --plan-only on a calibrated one)");
    }
    if (!real && (!testDeviceOptions.testDevices().isEmpty() || proxyProfile != null
        || !InputShapeOptions.arguments(inputShapeOptions.text(), inputShapeOptions.sequenceLength(),
            inputShapeOptions.pastLength()).isEmpty())) {
      throw new UserInputException("--test-device, --proxy-profile and the input sizes need --backend openvino (the "
          + "simulator's experiment takes catalog models)");
    }
    return real;
  }

  /** The real backend, judged by the protocol; its tunes open the same devices. */
  private ThroughputJudge realJudge(InputShapes.Resolution shapes) {
    List<String> tests = testDeviceOptions.testDevices().stream().map(TestDevice::toString).toList();
    BackendRequest request = new BackendRequest(REAL_BACKEND, null, BackendRequest.Mismatch.NONE, 1, shapes, tests,
        List.of(), 2);
    LatencyBackend backend;
    try {
      backend = TuneBackends.open(request, notice -> out.println("hsdag: " + notice));
    } catch (BackendUnavailableException e) {
      throw new UserInputException(e.getMessage());
    }
    List<String> args = new ArrayList<>(List.of("--backend", REAL_BACKEND));
    tests.forEach(t -> args.addAll(List.of("--test-device", t)));
    args.addAll(InputShapeOptions.arguments(inputShapeOptions.text(), inputShapeOptions.sequenceLength(),
        inputShapeOptions.pastLength()));
    args.addAll(tuneArgs());
    return ThroughputJudge.real(backend, requests, protocolOptions.protocol(), args, proxyProfile, shapes.shapes());
  }

  /** Tune's budget, final rounds and requests: as given, else tune's own on sim and small ones on a runtime. */
  private List<String> tuneArgs() {
    boolean real = !backendName.equalsIgnoreCase("sim");
    List<String> args = new ArrayList<>();
    Integer b = budget != null ? budget : real ? Integer.valueOf(REAL_BUDGET) : null;
    Integer r = finalRounds != null ? finalRounds : real ? Integer.valueOf(REAL_FINAL_ROUNDS) : null;
    if (b != null) {
      args.addAll(List.of("--budget", b.toString()));
    }
    if (r != null) {
      args.addAll(List.of("--final-rounds", r.toString()));
    }
    return args;
  }

  private void printHeader(ThroughputJudge judge) {
    out.printf(Locale.ROOT, "## Throughput-tuned vs latency-tuned placements (%s)%n%n", judge.describe());
    String inFlight = requests > 0 ? String.valueOf(requests) : "the devices + 1";
    out.println(planOnly
        ? "Each cell: " + (judge.simulated() ? "noise-free" : "measured")
            + " figures of each planner's plan (no tuning)"
            + ", latency ms / inferences per s with " + inFlight + " requests in flight"
            + (judge.simulated() ? "." : "; load average at the start " + LoadAverage.format(LoadAverage.now()) + ".")
        : judge.simulated()
            ? "Each cell: noise-free figures of the placement `tune` returned (default settings, noise on, one run per "
                + "seed), latency ms / inferences per s with " + inFlight + " requests in flight."
        : "Each cell: figures measured on the runtime of the placement `tune` returned there (one run per seed), "
            + "latency ms / inferences per s with " + inFlight + " requests in flight; load average at the start "
            + LoadAverage.format(LoadAverage.now()) + ".");
    out.println();
    if (planOnly) {
      out.println("| profile | model | devices | latency plan: ms / inf/s | throughput plan: ms / inf/s "
          + "| throughput planner ms (wall / CPU) |");
      out.println("|---|---|---|---|---|---|");
    } else {
      out.println(
          "| profile | model | devices | latency-tuned per seed | throughput-tuned per seed | best single (inf/s) "
              + "| AUTO emulation (inf/s) | Σ single devices (inf/s) | throughput-tuned vs latency-tuned, best single, AUTO |");
      out.println("|---|---|---|---|---|---|---|---|---|");
    }
  }

  private static List<DeviceSet> defaultDeviceSets(String profile) {
    return profile.equals("laptop-core-ultra")
        ? List.of(DeviceSet.of("CPU", "GPU.0"), DeviceSet.of("CPU", "GPU.0", "NPU"))
        : List.of(DeviceSet.of("CPU", "GPU.1"), DeviceSet.of("CPU", "GPU.0", "GPU.1"));
  }

  /** Both planners under the devices' memory capacities (as {@code tune} plans), and the throughput planner's time. */
  private void planRow(ThroughputJudge judge, ThroughputJudge.Model model, DeviceSet ds) {
    OpGraph g = model.graph();
    PlacementProxy latency = judge.proxy(g, ds);
    PlacementProxy throughput = latency.forThroughput(ThroughputBackend.requestsFor(requests, ds));
    Placement lp = new Planner().plan(latency).best().placement();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long c0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Placement tp = new Planner().plan(throughput).best().placement();
    double ms = (System.nanoTime() - t0) / 1e6;
    double cpuMs = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
    out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %.0f / %.0f |%n", judge.target(), model.label(), ds,
        cell(judge.figures(g, lp)), cell(judge.figures(g, tp)), ms, cpuMs);
    out.flush();
  }

  /** One row; returns 1 when the throughput-tuned placement misses a target in some seed. */
  private int tuneRow(ThroughputJudge judge, ThroughputJudge.Model model, DeviceSet ds, int seeds)
      throws IOException {
    // Baselines under the devices' memory capacities, as the tuned placements are: a device that cannot hold the
    // model is no baseline (AUTO moves on to the next device).
    OpGraph g = model.graph();
    Predicate<Placement> memory = judge.memory(g, ds);
    ObjectiveFigures bestSingle = null;
    double sumSingles = 0;
    for (String d : ds.names()) {
      Placement alone = Placement.allOn(ds, g.nodeCount(), d);
      ObjectiveFigures f = memory.test(alone) ? judge.figures(g, alone) : null;
      if (f != null) {
        sumSingles += f.inferencesPerSecond();
        if (bestSingle == null || f.inferencesPerSecond() > bestSingle.inferencesPerSecond()) {
          bestSingle = f;
        }
      }
    }
    String autoDevice = autoDevice(judge.backend(), g, ds, memory);
    ObjectiveFigures auto = autoDevice == null ? null
        : judge.figures(g, Placement.allOn(ds, g.nodeCount(), autoDevice));
    List<String> lat = new ArrayList<>();
    List<String> thr = new ArrayList<>();
    boolean miss = false;
    for (int seed = 1; seed <= seeds; seed++) {
      ObjectiveFigures l = judge.figures(g, tuned(judge, model, ds, seed, "latency"));
      ObjectiveFigures t = judge.figures(g, tuned(judge, model, ds, seed, "throughput"));
      lat.add(cell(l));
      thr.add(cell(t));
      if (l == null || t == null) {
        miss = true;
        continue;
      }
      boolean differ = Math.abs(l.periodMillis() - t.periodMillis()) > 1e-9 * t.periodMillis();
      miss |= differ && t.inferencesPerSecond() <= l.inferencesPerSecond();
      miss |= bestSingle != null && t.inferencesPerSecond() <= bestSingle.inferencesPerSecond();
      miss |= auto != null && t.inferencesPerSecond() <= auto.inferencesPerSecond();
    }
    out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %s |%n", judge.target(),
        model.label(), ds, String.join("; ", lat), String.join("; ", thr),
        bestSingle == null ? Double.NaN : bestSingle.inferencesPerSecond(),
        auto == null ? Double.NaN : auto.inferencesPerSecond(), sumSingles, miss ? "**misses**" : "beats all");
    out.flush();
    return miss ? 1 : 0;
  }

  private static String cell(ObjectiveFigures f) {
    return f == null ? "failed" : String.format(Locale.ROOT, "%.3f / %.1f", f.latencyMillis(), f.inferencesPerSecond());
  }

  /** What {@code hsdag tune} returns for this objective and seed on the judge's machine (in a temporary run folder). */
  private Placement tuned(ThroughputJudge judge, ThroughputJudge.Model model, DeviceSet ds, int seed,
      String objective)
      throws IOException {
    Path dir = Files.createTempDirectory("hsdag-throughput-");
    Path run = dir.resolve("run");
    CommandLine cli = HsdagCli.newCommandLine();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(Writer.nullWriter()));
    cli.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("tune", model.tuneArgument()));
    args.addAll(judge.tuneArgs());
    args.addAll(List.of("--devices", String.join(",", ds.names()), "--seed", String.valueOf(seed), "--objective",
        objective, "--out", run.toString(), "--no-report", "--quiet"));
    if (objective.equals("throughput") && requests > 0) {
      args.addAll(List.of("--requests", String.valueOf(requests)));
    }
    int code = cli.execute(args.toArray(String[]::new));
    if (code != 0) {
      throw new IllegalStateException("tune " + model.label() + " " + ds + " --objective " + objective + " exited "
          + code + ": " + err.toString().strip());
    }
    Placement p = PlacementFiles.read(run.resolve("best.json"), model.graph(), ds);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    return p;
  }

  /** AUTO's device with GPU preference (see {@link AutoEmulationStrategy#singleDevice}); null: none runs it alone. */
  private static String autoDevice(LatencyBackend backend, OpGraph g, DeviceSet ds, Predicate<Placement> memory) {
    List<Integer> order = AutoEmulationStrategy.priorityOrder(ds, DeviceKinds.of(backend, ds),
        AutoEmulationStrategy.Preference.GPU);
    OptionalInt d = AutoEmulationStrategy.singleDevice(ds, backend.supports(g, ds), g.nodeCount(), order,
        memory);
    return d.isPresent() ? ds.name(d.getAsInt()) : null;
  }
}
