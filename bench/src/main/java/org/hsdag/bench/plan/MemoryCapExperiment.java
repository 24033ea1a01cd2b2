package org.hsdag.bench.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.MemoryOptions;
import org.hsdag.cli.Session;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryUse;
import org.hsdag.models.ModelCatalog;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.BestKnown;
import org.hsdag.plan.CapBound;
import org.hsdag.plan.CappedReference;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.plan.Plan;
import org.hsdag.plan.Planner;
import org.hsdag.sim.SimBackend;
import org.hsdag.strategy.AutoEmulationStrategy;
import org.hsdag.strategy.PipelineParallelSplit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Placements under device memory capacities on the simulator: the capped planner (what {@code tune}
 * measures first), OpenVINO's pipeline-parallel split ({@link PipelineParallelSplit}), the capped
 * reference ({@link CappedReference}: annealing from the planner's candidates, the split and random
 * feasible placements) and the Lagrangian lower bound on any placement within the caps
 * ({@link CapBound}), per profile, device set and seed. Latencies are the simulator's measured
 * figure (paper protocol, seeded noise) and the noise-free figure; every placement's memory is
 * checked on the full memory model.
 *
 * <pre>
 * ./hsdag.sh bench memory-caps [--model decoder_9b] [--seeds 1,2,3] [--memory GPU.1=8GiB] [--anneal 20000]
 *     [--setup paper:CPU,GPU.1 ...]
 * </pre>
 */
@Command(name = "memory-caps", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The capped planner against OpenVINO's pipeline-parallel split, a capped reference and a lower bound (simulator).")
public final class MemoryCapExperiment implements Callable<Integer> {
  /** Draws of random feasible starts of the reference. */
  private static final int RANDOM_ROUNDS = 3;

  /** One profile and device set. */
  record Setup(String profile, DeviceSet devices) {}

  @Option(names = "--model", paramLabel = "NAME", defaultValue = "decoder_9b",
      description = "Catalog model (default: ${DEFAULT-VALUE})")
  String model;

  @Option(names = "--seeds", paramLabel = "LIST", split = ",", defaultValue = "1,2,3",
      description = "Simulator seeds (default: ${DEFAULT-VALUE})")
  List<Long> seeds;

  /** {@code --memory}: capacities replacing the profile's, as {@code tune} takes them. */
  @Mixin
  MemoryOptions memoryOptions = new MemoryOptions();

  @Option(names = "--anneal", paramLabel = "N", defaultValue = "20000",
      description = "Annealing evaluations per start of the capped reference (default: ${DEFAULT-VALUE})")
  int anneal;

  @Option(names = "--setup", paramLabel = "PROFILE:LIST", converter = SetupConverter.class,
      description = "A profile and a device set, e.g. paper:CPU,GPU.1 (repeat; default: paper 2 and 3 devices, "
          + "laptop-core-ultra CPU,GPU.0 and CPU,GPU.0,NPU)")
  List<Setup> setups = new ArrayList<>();

  @Override
  public Integer call() {
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
    System.out.printf(Locale.ROOT, "%-18s %-16s %4s %-18s %-18s %-18s %9s %8s %8s %8s %8s %8s %7s %6s %6s  %s%n",
        "profile",
        "devices", "seed", "hsdag planner", "pipeline-parallel", "capped reference", "bound", "vs PP", "vs PP nf",
        "vs ref",
        "vs bound", "bnd/PP", "plan ms", "ref s", "bnd s", "hsdag memory per device");
    for (Setup s : setups) {
      Planned planned = plan(g, s, anneal);
      for (long seed : seeds) {
        run(g, s, seed, planned);
      }
    }
    System.out.println("vs PP: 1 - hsdag/PP measured; vs PP nf: the same noise-free; vs ref, vs bound: hsdag/x - 1 "
        + "noise-free; bnd/PP: 1 - bound/PP noise-free, the most any placement within the caps can be faster than PP");
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

  /** What a setup's noise-free cost model gives, the same for every seed (the seed only draws the measurement noise). */
  private record Planned(Placement hsdag, Placement pp, CappedReference.Result reference, CapBound.Bound bound,
      double planMs, double referenceSeconds, double boundSeconds) {}

  /**
   * The session of one setup and seed, opened as {@code tune --backend sim --profile P --memory M}
   * opens it: the simulator with the capacities (which may name devices of other setups), their
   * check, and the capped cost model.
   */
  private Session session(OpGraph g, Setup s, long seed) {
    return Session.of(g, BackendRequest.of("sim", s.profile()).withSeed(seed)).devices(s.devices())
        .memoryBeyondDevices(memoryOptions).proxy(ProxyChoice.AUTO, true, "").announceModel(false).open();
  }

  private Planned plan(OpGraph g, Setup s, int anneal) {
    try (Session session = session(g, s, 0)) {
      return plan(g, s, session, anneal);
    }
  }

  private static Planned plan(OpGraph g, Setup s, Session session, int anneal) {
    LatencyBackend sim = session.backend();
    MemoryCheck check = session.memory();
    PlacementProxy proxy = session.proxy().proxy();
    long t0 = System.nanoTime();
    Plan plan = new Planner().plan(proxy);
    double planMs = (System.nanoTime() - t0) / 1e6;
    Placement hsdag = plan.best().placement();
    List<DeviceKind> kinds = DeviceKinds.of(sim, s.devices());
    long[] memory = PipelineParallelSplit.memoryFigures(kinds, check::capacity);
    Placement pp = PipelineParallelSplit.split(g, s.devices(), sim.supports(g, s.devices()),
        AutoEmulationStrategy.priorityOrder(s.devices(), kinds, AutoEmulationStrategy.Preference.GPU), memory);
    long t1 = System.nanoTime();
    List<Placement> starts = new ArrayList<>(plan.candidates().stream().map(PlanCandidate::placement).toList());
    starts.add(pp);
    CappedReference.Result ref = CappedReference.search(proxy, starts, anneal, RANDOM_ROUNDS, BestKnown.SEED);
    long t2 = System.nanoTime();
    CapBound.Bound bound = CapBound.of(proxy);
    return new Planned(hsdag, pp, ref, bound, planMs, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9);
  }

  private void run(OpGraph g, Setup s, long seed, Planned planned) {
    try (Session session = session(g, s, seed)) {
      run(g, s, seed, planned, session.backend().capability(SimBackend.class).orElseThrow(), session.memory());
    }
  }

  private static void run(OpGraph g, Setup s, long seed, Planned planned, SimBackend sim, MemoryCheck check) {
    Placement hsdag = planned.hsdag();
    Placement pp = planned.pp();
    Placement ref = planned.reference().placement();
    double h = measured(sim, g, hsdag);
    double p = measured(sim, g, pp);
    double r = measured(sim, g, ref);
    double hNf = sim.latencyMillis(g, hsdag);
    double pNf = sim.latencyMillis(g, pp);
    double rNf = sim.latencyMillis(g, ref);
    double lb = planned.bound().micros() / 1000.0;
    StringBuilder mem = new StringBuilder();
    for (MemoryUse u : check.use(hsdag)) {
      mem.append(u.device()).append(' ').append(ByteSizes.format(u.totalBytes()));
      mem.append(u.limited() ? "/" + ByteSizes.format(u.capacityBytes()) : "").append("; ");
    }
    System.out.printf(Locale.ROOT,
        "%-18s %-16s %4d %-18s %-18s %-18s %9.1f %7.1f%% %7.1f%% %7.2f%% %7.2f%% %7.1f%% %7.0f %6.0f %6.1f  %s%n",
        s.profile(), s.devices(), seed, cell(h, hNf, check, hsdag), cell(p, pNf, check, pp), cell(r, rNf, check, ref),
        lb,
        100 * (1 - h / p), 100 * (1 - hNf / pNf), 100 * (hNf / rNf - 1), 100 * (hNf / lb - 1), 100 * (1 - lb / pNf),
        planned.planMs(), planned.referenceSeconds(), planned.boundSeconds(), mem);
  }

  /** "measured (noise-free)", or the failure. */
  private static String cell(double measured, double noiseFree, MemoryCheck check, Placement p) {
    if (!check.fits(p)) {
      return "OOM " + check.violation(p).orElseThrow().substring(MemoryCheck.OUT_OF_MEMORY.length(),
          MemoryCheck.OUT_OF_MEMORY.length() + 5);
    }
    return String.format(Locale.ROOT, "%.1f (%.1f)", measured, noiseFree);
  }

  private static double measured(SimBackend sim, OpGraph g, Placement p) {
    var m = sim.measure(g, p, MeasurementProtocol.PAPER, p.hash64());
    return m.ok() ? m.latencyMillis() : Double.NaN;
  }
}
