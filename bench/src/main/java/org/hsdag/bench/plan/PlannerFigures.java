package org.hsdag.bench.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.AnnealingSearch;
import org.hsdag.plan.BestKnown;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.Planner;
import org.hsdag.plan.PlannerConfig;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The planner's figures on the simulator (sim backend, noise-free): per model and device set, the
 * best single device, the cuts alone, the planner (cuts + exact-proxy local search), its wall time,
 * and a "best known" from a long reference search ({@link AnnealingSearch} from the planner's
 * candidates, every single device and two random starts, then descent) with the planner's gap to
 * it. Then the cost of a mismatched proxy: the target latency of the plan made on a perturbed
 * profile ({@link ProfileMismatch}) against the plan made on the target itself.
 *
 * <pre>
 * ./hsdag.sh bench planner-figures [--profile paper] [--anneal 50000]
 *     [--devices CPU,GPU.1 --devices CPU,GPU.0,GPU.1] [--mismatch 0.3] [--mismatch-seeds 1,2,3]
 *     [--no-samples] [model names or .xml files ...]
 * </pre>
 *
 * Without models: resnet50, inception_v3, bert_base, resnet50_299, bert_base_8 (those in the
 * catalog) and every {@code .xml} in {@code <hsdag.shared.dir>/ir-samples} (default {@code ../shared}).
 */
@Command(name = "planner-figures", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Print the planner's figures on the simulator (noise-free): planner vs best single device vs best known, "
        + "and the cost of a mismatched cost model.")
public final class PlannerFigures implements Callable<Integer> {
  /** Seed of the annealing from independent starts. */
  private static final long INDEPENDENT_SEED = 29;
  /** Seed of the annealing from the planner's candidates. */
  private static final long REFINED_SEED = 31;
  /** Seed of the random starts among the independent ones. */
  private static final long RANDOM_STARTS_SEED = 17;

  @Mixin
  SimTargetOptions target;

  @Mixin
  ExperimentModels modelOptions;

  @Option(names = "--anneal", paramLabel = "N", defaultValue = "50000",
      description = "Exact evaluations per annealing start (default: ${DEFAULT-VALUE})")
  int anneal;

  @Option(names = "--mismatch", paramLabel = "A", defaultValue = "0.3",
      description = "Perturbation of the mismatched profile (default: ${DEFAULT-VALUE})")
  double mismatch;

  @Option(names = "--mismatch-seeds", paramLabel = "LIST", split = ",", defaultValue = "1,2,3",
      description = "Seeds of the mismatched profiles (default: ${DEFAULT-VALUE})")
  long[] mismatchSeeds;

  @Override
  public Integer call() throws IOException {
    List<DeviceSet> deviceSets = target
        .deviceSetsOr(List.of(DeviceSet.of("CPU", "GPU.1"), DeviceSet.of("CPU", "GPU.0", "GPU.1")));
    List<String> models = modelOptions
        .orDefaults(List.of("resnet50", "inception_v3", "bert_base", "resnet50_299", "bert_base_8"));
    DeviceProfile profile = target.profile();
    SimBackend sim = new SimBackend(profile, SimOptions.exact());
    System.out.printf(Locale.ROOT, "## Planner vs best single device (sim backend, profile %s, noise-free)%n%n",
        profile.name());
    System.out.printf(Locale.ROOT,
        "Latencies in ms on the proxy (= the noise-free target). Reference: simulated annealing "
            + "on the exact proxy, %d evaluations per start, then descent; 'independent' starts from every single device and "
            + "2 random placements (nothing from the planner); best known = min(independent, annealing from the planner's "
            + "candidates). planner ms = median wall time of 3 plans.%n%n",
        anneal);
    System.out.println("| model | devices | best single | cuts only | planner | vs single | planner ms | independent "
        + "reference | best known | planner gap |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (DeviceSet ds : deviceSets) {
      for (String m : models) {
        OpGraph g = ExperimentModels.load(m);
        figures(ExperimentModels.label(m), g, sim, ds, anneal);
      }
    }
    System.out.printf(Locale.ROOT,
        "%n## Mismatched proxy (target sim/%s, proxy %s perturbed: a=%s, links x0.5, launch x1.5), "
            + "CPU+GPU.1%n%n",
        profile.name(), profile.name(), mismatch);
    System.out.println("| model | seed | plan on target | plan on proxy: proxy's estimate | its best on target "
        + "| best of its candidates on target | mismatch cost (best / best of set) |");
    System.out.println("|---|---|---|---|---|---|---|");
    DeviceSet pair = DeviceSet.of("CPU", "GPU.1");
    for (String m : List.of("resnet50", "inception_v3", "bert_base")) {
      OpGraph g = ExperimentModels.load(m);
      Plan onTarget = new Planner().plan(PlacementProxy.ofSim(sim, g, pair));
      double targetMs = sim.latencyMillis(g, onTarget.best().placement());
      for (long seed : mismatchSeeds) {
        SimBackend proxySim = new SimBackend(ProfileMismatch.named(mismatch, seed).apply(profile), SimOptions.exact());
        Plan onProxy = new Planner().plan(PlacementProxy.ofSim(proxySim, g, pair));
        double proxyBest = sim.latencyMillis(g, onProxy.best().placement());
        double bestOfSet = Double.POSITIVE_INFINITY;
        for (PlanCandidate c : onProxy.candidates()) {
          bestOfSet = Math.min(bestOfSet, sim.latencyMillis(g, c.placement()));
        }
        System.out.printf(Locale.ROOT,
            "| %s | %d | %.3f ms | %.3f ms | %.3f ms (%s) | %.3f ms (%d candidates) | %+.1f %% / %+.1f %% |%n",
            m, seed, targetMs, onProxy.best().proxyMillis(), proxyBest, onProxy.best().origin(), bestOfSet,
            onProxy.candidates().size(),
            100 * (proxyBest / targetMs - 1), 100 * (bestOfSet / targetMs - 1));
      }
    }
    return 0;
  }

  private static void figures(String name, OpGraph g, SimBackend sim, DeviceSet ds, int anneal) {
    PlacementProxy proxy = PlacementProxy.ofSim(sim, g, ds);
    double[] times = new double[3];
    Plan plan = null;
    for (int r = -1; r < times.length; r++) {
      long t0 = System.nanoTime();
      plan = new Planner().plan(proxy);
      if (r >= 0) {
        times[r] = (System.nanoTime() - t0) / 1e6;
      }
    }
    Arrays.sort(times);
    Plan cuts = new Planner(PlannerConfig.DEFAULT.withLocalSearch(false)).plan(proxy);
    HeteroCostModel model = proxy.model();
    // Independent of the planner: single devices and random starts.
    List<int[]> independentStarts = BestKnown.independentStarts(model, new SplittableRandom(RANDOM_STARTS_SEED));
    int[][] groups = proxy.colocationGroups();
    AnnealingSearch.Result independent = new AnnealingSearch(anneal, INDEPENDENT_SEED).run(model, groups,
        independentStarts);
    List<int[]> planStarts = new ArrayList<>();
    for (PlanCandidate c : plan.candidates()) {
      planStarts.add(proxy.opDevices(c.placement()));
    }
    AnnealingSearch.Result refined = new AnnealingSearch(anneal, REFINED_SEED).run(model, groups, planStarts);
    double knownMicros = Math.min(independent.micros(), refined.micros());
    double best = plan.best().proxyMillis();
    PlanCandidate single = plan.bestSingleDevice();
    String singleText = single == null ? "none"
        : String.format(Locale.ROOT, "%s %.3f", single.origin().replace("single ", ""),
            single.proxyMillis());
    double knownMs = knownMicros / 1000.0;
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %s | %.1f | %.3f | %.3f | %+.2f %% |%n", name,
        String.join("+", ds.names()), singleText, cuts.best().proxyMillis(), best,
        single == null ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", 100 * (best / single.proxyMillis() - 1)),
        times[1], independent.micros() / 1000.0, knownMs, 100 * (best / knownMs - 1));
  }
}
