package org.hsdag.bench.throughput;

import java.io.IOException;
import java.io.PrintWriter;
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
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.cli.HsdagCli;
import org.hsdag.cli.MemoryOptions;
import org.hsdag.cli.Session;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.models.ModelCatalog;
import org.hsdag.bench.plan.SimTargetOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.AutoEmulationStrategy;
import org.hsdag.throughput.Objective;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputBackend;
import org.hsdag.tune.RunObjective;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Latency-tuned against throughput-tuned placements on both figures (simulator).")
public final class ThroughputExperiment implements Callable<Integer> {
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

  @Override
  public Integer call() throws IOException {
    List<String> profiles = this.profiles.isEmpty() ? List.of("paper", "laptop-core-ultra") : this.profiles;
    List<String> models = this.models.isEmpty() ? List.of("resnet50", "inception_v3", "decoder_9b") : this.models;
    System.out.printf(Locale.ROOT,
        "## Throughput-tuned vs latency-tuned placements (sim backend; every figure is simulated)%n%n"
            + "Each cell: noise-free figures of the placement `tune` returned (default settings, noise on, one run per seed), "
            + "latency ms / inferences per s with the devices + 1 requests in flight.%n%n");
    if (planOnly) {
      System.out.println("| profile | model | devices | latency plan: ms / inf/s | throughput plan: ms / inf/s "
          + "| throughput planner ms (wall / CPU) |");
      System.out.println("|---|---|---|---|---|---|");
    } else {
      System.out.println(
          "| profile | model | devices | latency-tuned per seed | throughput-tuned per seed | best single (inf/s) "
              + "| AUTO emulation (inf/s) | Σ single devices (inf/s) | throughput-tuned vs latency-tuned, best single, AUTO |");
      System.out.println("|---|---|---|---|---|---|---|---|---|");
    }
    int misses = 0;
    for (String profileName : profiles) {
      DeviceProfile profile = DeviceProfile.load(profileName);
      List<DeviceSet> sets = !deviceSets.isEmpty() ? deviceSets : defaultDeviceSets(profileName);
      for (String model : models) {
        OpGraph g = ModelCatalog.get(model).build().graph();
        for (DeviceSet ds : sets) {
          try (Session judge = judge(profile, g, ds, Objective.THROUGHPUT)) {
            if (planOnly) {
              try (Session latency = judge(profile, g, ds, Objective.LATENCY)) {
                planRow(profileName, model, g, ds, judge, latency.proxy().proxy());
              }
            } else {
              misses += tuneRow(profileName, model, g, ds, judge, seeds);
            }
          }
        }
      }
    }
    if (!planOnly) {
      System.out.printf(Locale.ROOT, "%nrows where the throughput-tuned placement misses a target: %d%n", misses);
    }
    return 0;
  }

  private static List<DeviceSet> defaultDeviceSets(String profile) {
    return profile.equals("laptop-core-ultra")
        ? List.of(DeviceSet.of("CPU", "GPU.0"), DeviceSet.of("CPU", "GPU.0", "NPU"))
        : List.of(DeviceSet.of("CPU", "GPU.1"), DeviceSet.of("CPU", "GPU.0", "GPU.1"));
  }

  /**
   * The noise-free judge of one profile and device set under {@code objective}, set up as {@code tune
   * --objective} sets up its session: the backend measuring the objective (devices + 1 requests in
   * flight for throughput), the profile's memory check and the capped cost model for the objective.
   */
  private static Session judge(DeviceProfile profile, OpGraph g, DeviceSet ds, Objective objective) {
    return Session.of(g, BackendRequest.of("sim", profile.name())).injected(new SimBackend(profile, SimOptions.exact()))
        .objective(RunObjective.of(objective, 0), true).devices(ds).memoryBeyondDevices(new MemoryOptions())
        .proxy(ProxyChoice.AUTO, true, "").announceModel(false).open();
  }

  /** The throughput judge's backend (devices + 1 requests in flight). */
  private static ThroughputBackend figures(Session judge) {
    return judge.measuring().capability(ThroughputBackend.class).orElseThrow();
  }

  /** Both planners under the profile's memory capacities (as {@code tune} plans), and the throughput planner's time. */
  private static void planRow(String profileName, String model, OpGraph g, DeviceSet ds, Session session,
      PlacementProxy latency) {
    ThroughputBackend judge = figures(session);
    PlacementProxy throughput = session.proxy().proxy();
    Placement lp = new Planner().plan(latency).best().placement();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long c0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Placement tp = new Planner().plan(throughput).best().placement();
    double ms = (System.nanoTime() - t0) / 1e6;
    double cpuMs = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %.0f / %.0f |%n", profileName, model, ds,
        cell(judge.figures(g, lp)), cell(judge.figures(g, tp)), ms, cpuMs);
  }

  /** One row; returns 1 when the throughput-tuned placement misses a target in some seed. */
  private static int tuneRow(String profileName, String model, OpGraph g, DeviceSet ds, Session session, int seeds)
      throws IOException {
    ThroughputBackend judge = figures(session);
    // Baselines under the profile's memory capacities, as the tuned placements are: a device that cannot hold the
    // model is no baseline (AUTO moves on to the next device).
    MemoryCheck memory = session.memory();
    ObjectiveFigures bestSingle = null;
    double sumSingles = 0;
    for (String d : ds.names()) {
      Placement alone = Placement.allOn(ds, g.nodeCount(), d);
      ObjectiveFigures f = memory.fits(alone) ? judge.figures(g, alone) : null;
      if (f != null) {
        sumSingles += f.inferencesPerSecond();
        if (bestSingle == null || f.inferencesPerSecond() > bestSingle.inferencesPerSecond()) {
          bestSingle = f;
        }
      }
    }
    String autoDevice = autoDevice(judge, g, ds, memory);
    ObjectiveFigures auto = autoDevice == null ? null
        : judge.figures(g, Placement.allOn(ds, g.nodeCount(), autoDevice));
    List<String> lat = new ArrayList<>();
    List<String> thr = new ArrayList<>();
    boolean miss = false;
    for (int seed = 1; seed <= seeds; seed++) {
      ObjectiveFigures l = judge.figures(g, tuned(profileName, model, g, ds, seed, "latency"));
      ObjectiveFigures t = judge.figures(g, tuned(profileName, model, g, ds, seed, "throughput"));
      lat.add(cell(l));
      thr.add(cell(t));
      boolean differ = Math.abs(l.periodMillis() - t.periodMillis()) > 1e-9 * t.periodMillis();
      miss |= differ && t.inferencesPerSecond() <= l.inferencesPerSecond();
      miss |= bestSingle != null && t.inferencesPerSecond() <= bestSingle.inferencesPerSecond();
      miss |= auto != null && t.inferencesPerSecond() <= auto.inferencesPerSecond();
    }
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %s |%n", profileName, model, ds,
        String.join("; ", lat), String.join("; ", thr),
        bestSingle == null ? Double.NaN : bestSingle.inferencesPerSecond(),
        auto == null ? Double.NaN : auto.inferencesPerSecond(), sumSingles, miss ? "**misses**" : "beats all");
    System.out.flush();
    return miss ? 1 : 0;
  }

  private static String cell(ObjectiveFigures f) {
    return f == null ? "failed" : String.format(Locale.ROOT, "%.3f / %.1f", f.latencyMillis(), f.inferencesPerSecond());
  }

  /** What {@code hsdag tune} returns for this objective and seed (in a temporary run folder). */
  private static Placement tuned(String profile, String model, OpGraph g, DeviceSet ds, int seed, String objective)
      throws IOException {
    Path dir = Files.createTempDirectory("hsdag-throughput-");
    Path run = dir.resolve("run");
    CommandLine cli = HsdagCli.newCommandLine();
    cli.setOut(new PrintWriter(Writer.nullWriter()));
    cli.setErr(new PrintWriter(Writer.nullWriter()));
    int code = cli.execute("tune", model, "--backend", "sim", "--profile", profile, "--devices",
        String.join(",", ds.names()),
        "--seed", String.valueOf(seed), "--objective", objective, "--out", run.toString(), "--no-report", "--quiet");
    if (code != 0) {
      throw new IllegalStateException("tune " + model + " " + ds + " --objective " + objective + " exited " + code);
    }
    Placement p = PlacementFiles.read(run.resolve("best.json"), g, ds);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    return p;
  }

  /** AUTO's device with GPU preference (see {@link AutoEmulationStrategy#singleDevice}); null: none runs it alone. */
  private static String autoDevice(ThroughputBackend judge, OpGraph g, DeviceSet ds, MemoryCheck memory) {
    List<Integer> order = AutoEmulationStrategy.priorityOrder(ds, DeviceKinds.of(judge, ds),
        AutoEmulationStrategy.Preference.GPU);
    OptionalInt d = AutoEmulationStrategy.singleDevice(ds, judge.supports(g, ds), g.nodeCount(), order, memory::fits);
    return d.isPresent() ? ds.name(d.getAsInt()) : null;
  }
}
