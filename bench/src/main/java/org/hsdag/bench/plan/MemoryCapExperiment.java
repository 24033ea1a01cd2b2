package org.hsdag.bench.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.memory.MemoryUse;
import org.hsdag.models.ModelCatalog;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.AnnealingSearch;
import org.hsdag.plan.OpBudget;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Plan;
import org.hsdag.plan.Planner;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.AutoEmulationStrategy;
import org.hsdag.strategy.PipelineParallelSplit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Placements under device memory capacities on the simulator: the capped planner (what {@code tune}
 * measures first), OpenVINO's pipeline-parallel split ({@link PipelineParallelSplit}) and an
 * annealing reference under the same caps, per profile, device set and seed. Latencies are the
 * simulator's measured figure (paper protocol, seeded noise) and the noise-free figure; every
 * placement's memory is checked on the full memory model.
 *
 * <pre>
 * ./hsdag.sh bench memory-caps [--model decoder_9b] [--seeds 1,2,3] [--memory GPU.1=8GiB] [--anneal 20000]
 *     [--setup paper:CPU,GPU.1 ...]
 * </pre>
 */
@Command(name = "memory-caps", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The capped planner against OpenVINO's pipeline-parallel split and an annealing reference (simulator).")
public final class MemoryCapExperiment implements Callable<Integer> {
  /** One profile and device set. */
  record Setup(String profile, DeviceSet devices) {}

  @Option(names = "--model", paramLabel = "NAME", defaultValue = "decoder_9b",
      description = "Catalog model (default: ${DEFAULT-VALUE})")
  String model;

  @Option(names = "--seeds", paramLabel = "LIST", split = ",", defaultValue = "1,2,3",
      description = "Simulator seeds (default: ${DEFAULT-VALUE})")
  List<Long> seeds;

  @Option(names = "--memory", paramLabel = "DEV=SIZE[,...]", description = "Capacities replacing the profile's")
  String memory;

  @Option(names = "--anneal", paramLabel = "N", defaultValue = "20000",
      description = "Annealing evaluations of the reference (default: ${DEFAULT-VALUE})")
  int anneal;

  @Option(names = "--setup", paramLabel = "PROFILE:LIST", converter = SetupConverter.class,
      description = "A profile and a device set, e.g. paper:CPU,GPU.1 (repeat; default: paper 2 and 3 devices, "
          + "laptop-core-ultra CPU,GPU.0 and CPU,GPU.0,NPU)")
  List<Setup> setups = new ArrayList<>();

  @Override
  public Integer call() {
    MemoryLimits user = memory == null ? MemoryLimits.NONE : MemoryLimits.parse(memory);
    List<Setup> setups = this.setups;
    if (setups.isEmpty()) {
      setups = List.of(new Setup("paper", DeviceSet.of("CPU", "GPU.1")),
          new Setup("paper", DeviceSet.of("CPU", "GPU.0", "GPU.1")),
          new Setup("laptop-core-ultra", DeviceSet.of("CPU", "GPU.0")),
          new Setup("laptop-core-ultra", DeviceSet.of("CPU", "GPU.0", "NPU")));
    }
    OpGraph g = ModelCatalog.get(model).build().graph();
    System.out.printf(Locale.ROOT, "memory caps, model %s, backend sim (simulated figures), protocol paper; latency ms "
        + "measured (noise-free)%n", model);
    System.out.printf(Locale.ROOT, "%-18s %-16s %4s %-22s %-22s %-22s %8s %8s %8s  %s%n", "profile", "devices", "seed",
        "hsdag planner", "pipeline-parallel", "annealing reference", "vs PP", "vs ref", "plan ms",
        "hsdag memory per device");
    for (Setup s : setups) {
      for (long seed : seeds) {
        run(g, s, seed, user, anneal);
      }
    }
    return 0;
  }

  /** Parses {@code PROFILE:LIST}. */
  public static final class SetupConverter implements picocli.CommandLine.ITypeConverter<Setup> {
    @Override
    public Setup convert(String value) {
      int colon = value.indexOf(':');
      if (colon <= 0) {
        throw new picocli.CommandLine.TypeConversionException("expected PROFILE:DEVICES, e.g. paper:CPU,GPU.1");
      }
      return new Setup(value.substring(0, colon), DeviceSet.parse(value.substring(colon + 1)));
    }
  }

  private static void run(OpGraph g, Setup s, long seed, MemoryLimits user, int anneal) {
    SimBackend sim = new SimBackend(DeviceProfile.load(s.profile()), SimOptions.DEFAULT.withSeed(seed))
        .withMemoryLimits(user);
    MemoryCheck check = sim.memoryCheck(g, s.devices());
    PlacementProxy proxy = PlacementProxy.ofSim(sim, g, s.devices()).withMemory(check);
    long t0 = System.nanoTime();
    Plan plan = new Planner().plan(proxy);
    double planMs = (System.nanoTime() - t0) / 1e6;
    Placement hsdag = plan.best().placement();
    List<DeviceKind> kinds = DeviceKinds.of(sim, s.devices());
    long[] memory = PipelineParallelSplit.memoryFigures(kinds, check::capacity);
    Placement pp = PipelineParallelSplit.split(g, s.devices(), sim.supports(g, s.devices()),
        AutoEmulationStrategy.priorityOrder(s.devices(), kinds, AutoEmulationStrategy.Preference.GPU), memory);
    Placement ref = reference(proxy, check, List.of(hsdag, pp), anneal, seed);
    double h = measured(sim, g, hsdag);
    double p = measured(sim, g, pp);
    double r = measured(sim, g, ref);
    StringBuilder mem = new StringBuilder();
    for (MemoryUse u : check.use(hsdag)) {
      mem.append(u.device()).append(' ').append(ByteSizes.format(u.totalBytes()));
      mem.append(u.limited() ? "/" + ByteSizes.format(u.capacityBytes()) : "").append("; ");
    }
    System.out.printf(Locale.ROOT, "%-18s %-16s %4d %-22s %-22s %-22s %7.1f%% %7.2f%% %8.0f  %s%n", s.profile(),
        s.devices(), seed, cell(h, sim, g, hsdag, check), cell(p, sim, g, pp, check), cell(r, sim, g, ref, check),
        100 * (1 - h / p), 100 * (h / r - 1), planMs, mem);
  }

  /** "measured (noise-free)", or the failure. */
  private static String cell(double measured, SimBackend sim, OpGraph g, Placement p, MemoryCheck check) {
    if (!check.fits(p)) {
      return "OOM " + check.violation(p).orElseThrow().substring(MemoryCheck.OUT_OF_MEMORY.length(),
          MemoryCheck.OUT_OF_MEMORY.length() + 5);
    }
    return String.format(Locale.ROOT, "%.1f (%.1f)", measured, sim.latencyMillis(g, p));
  }

  private static double measured(SimBackend sim, OpGraph g, Placement p) {
    var m = sim.measure(g, p, MeasurementProtocol.PAPER, p.hash64());
    return m.ok() ? m.latencyMillis() : Double.NaN;
  }

  /**
   * Simulated annealing on the exact proxy from the given (fitting) placements, every move kept
   * within the weight budgets (capacity less overhead less the activations the starts need), checked
   * on the full memory model at the end.
   */
  private static Placement reference(PlacementProxy proxy, MemoryCheck check, List<Placement> starts, int evaluations,
      long seed) {
    int devices = proxy.devices().size();
    long[] byNode = check.model().weightBytesByLeader();
    long[] bytes = new long[proxy.model().opCount()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = byNode[proxy.model().node(i)];
    }
    long[] budget = new long[devices];
    Arrays.fill(budget, Long.MAX_VALUE);
    List<int[]> labels = new ArrayList<>();
    for (Placement p : starts) {
      if (!check.fits(p)) {
        continue;
      }
      labels.add(proxy.opDevices(p));
      List<MemoryUse> use = check.use(p);
      for (int d = 0; d < devices; d++) {
        if (check.capacity(d) != Long.MAX_VALUE) {
          long activations = use.get(d).totalBytes() - use.get(d).weightBytes();
          budget[d] = Math.min(budget[d], check.capacity(d) - Math.max(activations, check.overhead(d)));
        }
      }
    }
    for (int[] l : labels) {
      long[] load = new OpBudget(bytes, budget).loads(l, devices);
      for (int d = 0; d < devices; d++) {
        budget[d] = Math.max(budget[d], load[d]);
      }
    }
    AnnealingSearch.Result r = new AnnealingSearch(evaluations, seed).run(proxy.model(), proxy.colocationGroups(),
        labels,
        new OpBudget(bytes, budget));
    Placement best = proxy.placement(r.opDevices());
    return check.fits(best) ? best : starts.get(0);
  }
}
