package org.hsdag.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.strategy.BrkgaStrategy;
import org.hsdag.strategy.Grouping;
import org.hsdag.bench.report.BenchResults;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;
import org.hsdag.bench.report.LoadAverage;
import org.hsdag.bench.report.PaperNumbers;
import org.hsdag.bench.report.SeedSpread;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.Finalist;
import org.hsdag.search.RemeasureListener;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.backend.CostModelSource;
import org.hsdag.plan.BestKnown;
import org.hsdag.plan.BestKnownCache;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Proxies;
import org.hsdag.plan.ProxyUnavailableException;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchStrategy;
import org.hsdag.strategy.Strategies;

/**
 * Runs methods × models × seeds at one measurement budget on one backend, each run on its own
 * {@link SearchEngine} (the one tune uses: same cache, budget rule and stop rules; noise keyed by
 * the run's seed and what is measured, so a run's numbers do not depend on which other runs shared
 * the backend), re-measures each run's best placement in interleaved rounds (so a lucky noisy
 * sample does not decide the table), finds the "best known" placement per model on the backend's
 * cost model ({@link BestKnown}: planner + long annealing; a BRKGA with a multiple of the budget
 * when the backend has no cost model), and
 * aggregates mean ± std over seeds.
 */
public final class BenchRunner {
  /**
   * What to run.
   *
   * @param methods method names in table order
   * @param budget measurements per run
   * @param seeds strategy seeds (one run each)
   * @param devices devices to place on
   * @param protocol protocol during search
   * @param finalRounds rounds of the final re-measurement of each run's best placement (median of rounds)
   * @param referenceFactor the reference BRKGA gets this many times the budget (0: no reference run)
   */
  public record Plan(List<String> methods, int budget, List<Long> seeds, DeviceSet devices,
      MeasurementProtocol protocol, int finalRounds,
      int referenceFactor) {}

  /** A model to run: its name (a catalog name or file name) and graph. */
  public record NamedGraph(String name, OpGraph graph) {}

  private final LatencyBackend backend;
  private final Consumer<String> progress;
  private final ProxyChoice proxyChoice;
  private final ShapeAssumption shapes;

  /** A runner whose strategies plan with the backend's own cost model (when it has one). */
  public BenchRunner(LatencyBackend backend, Consumer<String> progress) {
    this(backend, progress, null, ShapeAssumption.DEFAULT);
  }

  /**
   * A runner whose strategies plan with the cost model {@code proxyChoice} names: null or
   * {@code auto} for the backend's own, {@code none} for cold searches, else a simulator profile
   * name or file; under {@code shapes}. The best known always comes from the backend's own.
   */
  public BenchRunner(LatencyBackend backend, Consumer<String> progress, ProxyChoice proxyChoice,
      ShapeAssumption shapes) {
    this.backend = backend;
    this.progress = progress;
    this.proxyChoice = proxyChoice == null ? ProxyChoice.AUTO : proxyChoice;
    this.shapes = shapes;
  }

  public BenchResults run(Plan plan, List<NamedGraph> models) {
    String finalProtocol = "median of " + plan.finalRounds() + " rounds of " + plan.protocol().describe();
    List<ModelResult> out = new ArrayList<>();
    String costModel = "none";
    for (NamedGraph model : models) {
      OpGraph g = model.graph();
      // The backend's own cost model gives the best known; the strategies plan with it or with the given profile's.
      PlacementProxy target = target(plan, model);
      PlacementProxy proxy;
      if (proxyChoice instanceof ProxyChoice.Profile profile) {
        Proxies.Resolved resolved = Proxies.resolve(backend, g, plan.devices(), profile.nameOrPath(), shapes);
        proxy = resolved.proxy();
        costModel = "the " + resolved.source();
      } else if (ProxyChoice.NONE.equals(proxyChoice)) {
        proxy = null;
        costModel = "none (--proxy none; searches start cold)";
      } else {
        proxy = target;
        costModel = target == null ? "none (the backend has no cost model; searches start cold)"
            : "the cost model of " + backend.name() + "/" + backend.profile();
      }
      out.add(runModel(plan, model, target, proxy));
    }
    List<String> devices = plan.devices().names();
    return new BenchResults(backend.name(), backend.profile(), backend.simulated(), devices, plan.budget(),
        plan.seeds(),
        plan.protocol().describe(), finalProtocol, costModel, out);
  }

  /** The backend's own cost model of {@code model}, or null. */
  private PlacementProxy target(Plan plan, NamedGraph model) {
    OpGraph g = model.graph();
    PlacementProxy target = null;
    if (backend.capability(CostModelSource.class).isPresent()) {
      try {
        target = Proxies.resolve(backend, g, plan.devices(), null, shapes).proxy();
      } catch (ProxyUnavailableException e) {
        // A backend whose cost model fails (a device that cannot profile the model) still benches, cold.
        progress.accept(model.name() + "  no cost model: " + e.getMessage());
      }
    }
    return target;
  }

  /** Every method on {@code model} over the plan's seeds, the best known, and the table rows. */
  private ModelResult runModel(Plan plan, NamedGraph model, PlacementProxy target, PlacementProxy proxy) {
    OpGraph g = model.graph();
    // A real figure is printed with the load it was measured under; the simulator's do not depend on it.
    double loadStart = backend.simulated() ? Double.NaN : LoadAverage.now();
    Best best = new Best();
    Map<String, List<Run>> runsByMethod = new LinkedHashMap<>();
    Map<String, String> skipped = new LinkedHashMap<>();
    List<Strategies.Entry> methods = Strategies.withSingleDeviceBaselines(plan.methods(), plan.devices());
    for (Strategies.Entry m : methods) {
      List<Run> runs = runMethod(plan, model, m, proxy, skipped, best);
      if (!runs.isEmpty()) {
        runsByMethod.put(m.name(), runs);
      }
    }
    MethodResult reference = null;
    try {
      if (target != null) {
        measureBestKnown(plan, model, target, best);
      } else if (plan.referenceFactor() > 0) {
        reference = referenceRun(plan, model, proxy, best);
      }
    } catch (RuntimeException e) {
      // As a failed method: the rows measured so far are kept and written.
      progress.accept(model.name() + "  best known: not measured: " + e);
    }
    // The figure the report's gaps use: the lowest re-measured latency of any run or of the cost model's best.
    progress.accept(String.format(Locale.ROOT, "%s  %-20s %.4f ms, found by %s (the report's gaps are to it)",
        model.name(), "best known", best.millis, best.source));
    List<MethodResult> withGaps = rows(plan, model, methods, skipped, runsByMethod, reference, best.millis);
    Strategies.Entry referenceMethod = referenceMethod(plan);
    double referenceMillis = runsByMethod.containsKey(referenceMethod.name())
        ? mean(runsByMethod.get(referenceMethod.name())) : Double.NaN;
    ModelResult result = new ModelResult(model.name(), g.nodeCount(), g.edgeCount(), best.millis, best.source,
        withGaps, referenceMillis, loadStart, backend.simulated() ? Double.NaN : LoadAverage.now());
    SeedSpread.verdict(result, referenceMethod.label(), plan.seeds().size(), !backend.simulated())
        .forEach(progress);
    return result;
  }

  /** The method speedups are stated against: the reference device alone ({@link DeviceKind#reference}). */
  private Strategies.Entry referenceMethod(Plan plan) {
    return Strategies.singleDevice(DeviceKind.reference(plan.devices(), DeviceKinds.of(backend, plan.devices())));
  }

  /** The runs of method {@code m}, one per seed; none when it is skipped (the reason in {@code skipped}) or fails. */
  private List<Run> runMethod(Plan plan, NamedGraph model, Strategies.Entry m, PlacementProxy proxy,
      Map<String, String> skipped, Best best) {
    OpGraph g = model.graph();
    String name = m.name();
    if (m.requiredDevice() != null && !plan.devices().contains(m.requiredDevice())) {
      skipped.put(name, "needs " + m.requiredDevice() + ", not among " + plan.devices());
      return List.of();
    }
    List<Run> runs = new ArrayList<>();
    for (int k = 0; k < plan.seeds().size(); k++) {
      long seed = plan.seeds().get(k);
      // Printed as "seed 2/3": the drawn 63-bit seed is for results.json, not for reading.
      String seedName = "seed " + (k + 1) + "/" + plan.seeds().size();
      SearchStrategy s;
      try {
        s = m.create();
      } catch (SearchConfigException e) {
        skipped.put(name, e.getMessage());
        break;
      }
      Run r;
      try {
        r = runOne(plan, name, s, g, plan.budget(), seed, proxy);
      } catch (RuntimeException e) {
        // One broken method must not lose hours of other results: it is reported as not run.
        skipped.put(name, "failed on " + seedName + ": " + e);
        progress.accept(model.name() + "  " + name + " failed: " + e);
        runs.clear();
        break;
      }
      runs.add(r);
      progress.accept(String.format(
          "%s  %-20s %-10s best %.4f ms (final %.4f ms) in %d measurement%s, %.1f s  [%s, profile %s]",
          model.name(), name, seedName, r.searchBestMillis(), r.finalMillis(), r.measurements(),
          r.measurements() == 1 ? "" : "s",
          r.wallMillis() / 1000.0,
          backend.name(), backend.profile()));
      best.offer(r.finalMillis(), name + " (" + seedName + ")");
    }
    return runs;
  }

  /** The best known placement on the backend's own cost model, re-measured like every run's best. */
  private void measureBestKnown(Plan plan, NamedGraph model, PlacementProxy target, Best best) {
    OpGraph g = model.graph();
    // Under the device capacities the best known fits them too: no row is compared with what cannot run.
    // Remembered per cost model (BestKnownCache): a large model's long reference search is paid once.
    BestKnownCache.Lookup lookup = BestKnownCache.search(target.withMemory(memoryCheck(g, plan)),
        BestKnown.EVALUATIONS, BestKnown.SEED, BestKnownCache.defaultDir());
    BestKnown.Result known = lookup.result();
    long seed = plan.seeds().isEmpty() ? 0 : plan.seeds().get(0);
    double measured = measureFixed(plan, g, known.placement(), seed);
    progress.accept(String.format(Locale.ROOT,
        "%s  %-20s %.4f ms measured (%.4f ms on the cost model, planner %.4f ms; %s) "
            + "[%s, profile %s]",
        model.name(), "cost-model optimum", measured, known.proxyMillis(), known.plannerMillis(),
        lookup.remembered() ? "remembered in " + lookup.file() : "searched", backend.name(), backend.profile()));
    best.offer(measured, String.format(Locale.ROOT,
        "%s on the cost model of %s/%s (%.4f ms there, noise-free), re-measured",
        known.source(), backend.name(), backend.profile(), known.proxyMillis()));
  }

  /** Without a cost model: a BRKGA with a multiple of the budget, seeded with the single devices. */
  private MethodResult referenceRun(Plan plan, NamedGraph model, PlacementProxy proxy, Best best) {
    OpGraph g = model.graph();
    int refBudget = plan.budget() * plan.referenceFactor();
    long seed = plan.seeds().isEmpty() ? 0 : plan.seeds().get(0);
    SearchStrategy s = new BrkgaStrategy("brkga-reference", Grouping.colocation(CoarseningMode.NONE),
        BrkgaStrategy.Config.SEEDED);
    Run r = runOne(plan, "brkga-reference", s, g, refBudget, seed, proxy);
    progress.accept(String.format(
        "%s  %-20s best %.4f ms (final %.4f ms) in %d measurement%s, %.1f s  [%s, profile %s]", model.name(),
        "reference BRKGA x" + plan.referenceFactor(), r.searchBestMillis(), r.finalMillis(), r.measurements(),
        r.measurements() == 1 ? "" : "s",
        r.wallMillis() / 1000.0,
        backend.name(), backend.profile()));
    best.offer(r.finalMillis(), "reference BRKGA (" + plan.referenceFactor() + "x budget, single-device seeds)");
    return aggregate("brkga-reference", "Reference BRKGA (" + plan.referenceFactor() + "x budget, seeded)",
        null, "REFERENCE", List.of(r),
        model.name());
  }

  /** One row per method (skipped ones with their reason) and the reference, with speedups and gaps. */
  private List<MethodResult> rows(Plan plan, NamedGraph model, List<Strategies.Entry> methods,
      Map<String, String> skipped, Map<String, List<Run>> runsByMethod, MethodResult reference, double bestKnown) {
    List<MethodResult> rows = new ArrayList<>();
    String referenceMethod = referenceMethod(plan).name();
    double cpu = runsByMethod.containsKey(referenceMethod) ? mean(runsByMethod.get(referenceMethod)) : Double.NaN;
    for (Strategies.Entry m : methods) {
      String name = m.name();
      String paperRow = PaperNumbers.row(name);
      if (skipped.containsKey(name)) {
        rows.add(new MethodResult(name, m.label(), paperRow, m.family().name(), skipped.get(name), Double.NaN,
            Double.NaN, Double.NaN,
            Double.NaN, PaperNumbers.latencyMillis(paperRow, model.name()),
            PaperNumbers.speedupPercent(paperRow, model.name()),
            List.of()));
      } else {
        rows.add(aggregate(name, m.label(), paperRow, m.family().name(), runsByMethod.get(name), model.name()));
      }
    }
    if (reference != null) {
      rows.add(reference);
    }
    List<MethodResult> withGaps = new ArrayList<>();
    for (MethodResult r : rows) {
      double gap = (r.meanMillis() - bestKnown) / bestKnown * 100;
      double speedup = Double.isNaN(cpu) ? Double.NaN : (cpu - r.meanMillis()) / cpu * 100;
      withGaps.add(new MethodResult(r.method(), r.label(), r.paperRow(), r.kind(), r.skipped(), r.meanMillis(),
          r.stdMillis(), speedup, gap,
          r.paperMillis(), r.paperSpeedupPercent(), r.runs()));
    }
    return withGaps;
  }

  /** The best latency found so far on one model and where it came from. */
  private static final class Best {
    private double millis = Double.POSITIVE_INFINITY;
    private String source = "none";

    void offer(double candidateMillis, String candidateSource) {
      if (candidateMillis < millis) {
        millis = candidateMillis;
        source = candidateSource;
      }
    }
  }

  /** One search with {@code budget} measurements and seed {@code seed}, then its best placement re-measured. */
  /** {@code p} re-measured as every run's best is: median of the final rounds. */
  private double measureFixed(Plan plan, OpGraph g, Placement p, long seed) {
    SearchEngine engine = SearchEngine.builder(backend, g, plan.devices()).protocol(plan.protocol()).seed(seed).build();
    try {
      return engine
          .remeasure(List.of(new Finalist("best known", false, p, -1, null)), plan.finalRounds(), seed, Map.of(),
              RemeasureListener.NONE)
          .candidates().get(0).finalMs();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The device capacities the backend knows (a sim profile's, OpenVINO's reports, --memory), which bind every method
   * alike: none measures what cannot fit (null: none).
   */
  private org.hsdag.memory.MemoryCheck memoryCheck(OpGraph g, Plan plan) {
    return backend.capability(org.hsdag.memory.DeviceMemorySource.class)
        .map(m -> m.memoryCheck(g, plan.devices(), org.hsdag.memory.MemoryLimits.NONE)).orElse(null);
  }

  private Run runOne(Plan plan, String name, SearchStrategy s, OpGraph g, int budget, long seed, PlacementProxy proxy) {
    long start = System.nanoTime();
    org.hsdag.memory.MemoryCheck memory = memoryCheck(g, plan);
    SearchEngine engine = SearchEngine.builder(backend, g, plan.devices()).protocol(plan.protocol()).seed(seed)
        .proxy(proxy == null ? null : proxy.withMemory(memory)).memory(memory).build();
    SearchOutcome outcome;
    double fin = Double.NaN;
    Map<String, Integer> counts = new LinkedHashMap<>();
    try {
      outcome = engine.run(s, SearchLimits.of(budget), seed, SearchListener.NONE);
      SearchStep best = outcome.best();
      if (best != null) {
        Finalist f = new Finalist(name, false, best.placement(), best.index(), best.measurement());
        fin = engine.remeasure(List.of(f), plan.finalRounds(), seed, Map.of(), RemeasureListener.NONE).candidates()
            .get(0)
            .finalMs();
        Placement p = best.placement();
        int[] c = p.countsPerDevice();
        for (int d = 0; d < c.length; d++) {
          counts.put(p.devices().name(d), c[d]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (s instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          progress.accept("warning: closing " + name + ": " + e.getMessage());
        }
      }
    }
    SearchStep best = outcome.best();
    long wall = (System.nanoTime() - start) / 1_000_000;
    Map<String, Object> used = memory != null && memory.limitsAny() && best != null
        ? org.hsdag.memory.MemoryTable.json(memory.use(best.placement())) : Map.of();
    return new Run(seed, outcome.measurements(), outcome.failures(),
        best == null ? Double.POSITIVE_INFINITY : best.latencyMillis(), fin, wall,
        Arrays.stream(outcome.bestSoFarPerMeasurement()).boxed().toList(), counts, used);
  }

  private static double mean(List<Run> runs) {
    double s = 0;
    for (Run r : runs) {
      s += r.finalMillis();
    }
    return s / runs.size();
  }

  private static MethodResult aggregate(String name, String label, String paperRow, String kind, List<Run> runs,
      String model) {
    double mean = mean(runs);
    double var = 0;
    for (Run r : runs) {
      var += (r.finalMillis() - mean) * (r.finalMillis() - mean);
    }
    double std = runs.size() > 1 ? Math.sqrt(var / (runs.size() - 1)) : 0;
    return new MethodResult(name, label, paperRow, kind, null, mean, std, Double.NaN, Double.NaN,
        PaperNumbers.latencyMillis(paperRow, model),
        PaperNumbers.speedupPercent(paperRow, model), runs);
  }
}
