package org.hsdag.bench.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.BestKnown;
import org.hsdag.plan.BestKnownCache;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.search.Candidate;
import org.hsdag.search.FinalResult;
import org.hsdag.search.Finalist;
import org.hsdag.search.FinalistChoice;
import org.hsdag.search.Prediction;
import org.hsdag.search.RemeasureListener;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.search.SearchStrategy;
import org.hsdag.search.Verdict;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.Strategies;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.tune.TuneConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Time to the optimum on the simulator: for each model, device set, proxy setting and seed, every
 * method searches with noisy measurements (sim backend, noise on) at one budget; the placement a
 * method would return (as tune: its 5 finalists re-measured in 5 interleaved rounds) is then judged noise-free on the target, against the
 * best known placement of the target's own cost model ({@link BestKnown}). Prints the gap and the
 * measurements until the returned placement first came within 1 % and 2 % of the best known.
 *
 * <p>Settings: {@code exact} (the strategies plan with the target's own cost model), {@code
 * mismatch} (the target is the profile perturbed by {@code ProfileMismatch.named(a, 1)}; the
 * strategies plan with the unperturbed profile), {@code cold} (no cost model at all). Method
 * {@code planner-only} is the planner's own candidates measured and nothing more.
 *
 * <p>Each search stops as {@code tune}'s does (budget default 120, {@code --patience} default as
 * tune's: 20 for a strategy planning on a cost model, 0 cold), and the table gives the measurements
 * each used; the summary counts, per setting, how often the returned placement is slower than the
 * best one measured. {@code --no-tie-break} picks the winner on medians alone.
 *
 * <pre>
 * ./hsdag.sh bench warm-start [--budget 120] [--patience N] [--seeds 3]
 *     [--setting exact|mismatch|cold]... [--mismatch 0.3] [--devices CPU,GPU.1]...
 *     [--methods planner,hsdag,...] [-S key=value]... [--profile paper] [--no-samples] [--no-tie-break] [models ...]
 * </pre>
 * {@code -S} passes a strategy option to the HSDAG methods (as {@code tune -S}), e.g. {@code -S
 * pretrain=200}.
 */
@Command(name = "warm-start", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Print the time to the optimum of each method on the simulator (noisy measurements), with and without "
        + "a (mismatched) cost model.")
public final class WarmStartExperiment implements Callable<Integer> {
  @Mixin
  SimTargetOptions target;

  @Mixin
  ExperimentModels modelOptions;

  @Option(names = "--budget", paramLabel = "N",
      description = "Measurements per search (default: tune's, ${DEFAULT-VALUE})")
  int budget = TuneConfig.DEFAULT_BUDGET;

  @Option(names = "--patience", paramLabel = "N", defaultValue = "-1",
      description = "Stop after N measurements without improvement (default: as tune)")
  int patience;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "3",
      description = "Searches per method and setting (default: ${DEFAULT-VALUE})")
  int seeds;

  @Option(names = "--mismatch", paramLabel = "A", defaultValue = "0.3",
      description = "Perturbation of the mismatch setting's target (default: ${DEFAULT-VALUE})")
  double mismatch;

  @Option(names = "--setting", paramLabel = "NAME",
      description = "exact, mismatch or cold (repeat; default: exact and mismatch)")
  List<String> settings = new ArrayList<>();

  @Option(names = "--methods", paramLabel = "LIST", split = ",",
      description = "Methods (default: planner,hsdag; planner-only too)")
  List<String> methods = new ArrayList<>();

  @Option(names = "-S", paramLabel = "KEY=VALUE",
      description = "A strategy option for the HSDAG methods (as tune -S; repeat)")
  Map<String, String> options = new LinkedHashMap<>();

  @Option(names = "--no-tie-break", description = "Pick the winner on medians alone (no cost-model tie-break)")
  boolean noTieBreak;

  @Override
  public Integer call() throws IOException {
    boolean tieBreak = !noTieBreak;
    List<String> settings = this.settings.isEmpty() ? List.of("exact", "mismatch") : this.settings;
    List<DeviceSet> deviceSets = target.deviceSetsOr(List.of(DeviceSet.of("CPU", "GPU.1")));
    List<String> methods = this.methods.isEmpty() ? List.of("planner", "hsdag") : this.methods;
    List<String> models = modelOptions.orDefaults(List.of("resnet50", "inception_v3", "bert_base"));
    DeviceProfile profile = target.profile();
    printHeader();
    List<Run> runs = new ArrayList<>();
    for (String m : models) {
      OpGraph g = ExperimentModels.load(m);
      String label = ExperimentModels.label(m);
      for (DeviceSet ds : deviceSets) {
        for (String setting : settings) {
          DeviceProfile targetProfile = setting.equals("mismatch") ? ProfileMismatch.named(mismatch, 1).apply(profile)
              : profile;
          SimBackend exactTarget = new SimBackend(targetProfile, SimOptions.exact());
          PlacementProxy targetProxy = PlacementProxy.ofSim(exactTarget, g, ds);
          double known = BestKnownCache.search(targetProxy, BestKnown.EVALUATIONS, BestKnown.SEED,
              BestKnownCache.defaultDir()).result().proxyMillis();
          PlacementProxy proxy = switch (setting) {
            case "exact" -> targetProxy;
            case "mismatch" -> PlacementProxy.ofSim(new SimBackend(profile, SimOptions.exact()), g, ds);
            default -> null;
          };
          for (String method : methods) {
            StringBuilder gaps = new StringBuilder();
            StringBuilder m1 = new StringBuilder();
            StringBuilder m2 = new StringBuilder();
            StringBuilder seen = new StringBuilder();
            StringBuilder used = new StringBuilder();
            StringBuilder bands = new StringBuilder();
            for (int s = 1; s <= seeds; s++) {
              long seed = 1000L * s + 7;
              SimBackend noisy = new SimBackend(targetProfile, SimOptions.DEFAULT.withSeed(seed));
              // planner-only: the planner's own candidates measured, nothing more.
              boolean plannerOnly = method.equals("planner-only");
              String name = plannerOnly ? "planner" : method;
              StrategyConfig config = Strategies.configure(name, name.startsWith("hsdag") ? options : Map.of());
              SearchStrategy strategy = config.create(name);
              int runPatience = patience >= 0 ? patience : TuneConfig.defaultPatience(config, proxy != null);
              int limit = plannerOnly && proxy != null ? new Planner().plan(proxy).candidates().size() : budget;
              SearchOutcome out;
              Placement[] returned;
              try {
                SearchEngine engine = SearchEngine.builder(noisy, g, ds).seed(seed).proxy(proxy).build();
                out = engine.run(strategy, SearchLimits.of(limit).withPatience(runPatience), seed, SearchListener.NONE);
                returned = returned(engine, out, seed, proxy, strategy.favourites(5), tieBreak);
              } finally {
                close(strategy);
              }
              int[] reach = reach(out, targetProxy, known);
              double gap = gap(returned[0], targetProxy, known);
              double seenGap = 100 * (bestSeen(out, targetProxy) / known - 1);
              double[] bandGaps = new double[TIE_BANDS.length];
              for (int b = 0; b < TIE_BANDS.length; b++) {
                bandGaps[b] = gap(returned[b + 1], targetProxy, known);
                bands.append(b > 0 ? " " : s > 1 ? " / " : "").append(String.format(Locale.ROOT, "%+.2f", bandGaps[b]));
              }
              runs.add(new Run(setting, String.join("+", ds.names()), method, out.measurements(), gap, seenGap,
                  List.of(Arrays.stream(bandGaps).boxed().toArray(Double[]::new))));
              gaps.append(s > 1 ? " / " : "").append(String.format(Locale.ROOT, "%+.2f %%", gap));
              m1.append(s > 1 ? " / " : "").append(reach[0] < 0 ? "-" : reach[0]);
              m2.append(s > 1 ? " / " : "").append(reach[1] < 0 ? "-" : reach[1]);
              seen.append(s > 1 ? " / " : "").append(String.format(Locale.ROOT, "%+.2f %%", seenGap));
              used.append(s > 1 ? " / " : "").append(out.measurements());
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %s | %s |%n", label,
                String.join("+", ds.names()),
                setting, method, known, gaps, seen, used, m1, m2, bands);
            System.out.flush();
          }
        }
      }
    }
    summarise(runs);
    return 0;
  }

  /** What the table measures, and its header. */
  private void printHeader() {
    System.out.printf(Locale.ROOT, "## Time to the optimum (sim backend, noise on; every figure is simulated)%n%n"
        + "budget %d measurements, patience %s, %d seeds (the stop rules of tune); gap = noise-free target latency of the returned placement (as tune: 5 finalists, re-measured in 5 interleaved rounds, up to 10 for near ties) "
        + "vs the target's best known (planner + annealing on its own cost model); used = measurements the search spent; m1/m2 = measurements until the "
        + "returned placement was within 1 %% / 2 %% (- = never); best measured = gap of the truly best placement the search measured (what a perfect final selection would return)%n%n",
        budget,
        patience >= 0 ? String.valueOf(patience)
            : "as tune (" + TuneConfig.DEFAULT_PATIENCE + " with a cost model, 0 cold)",
        seeds);
    System.out.println(
        "| model | devices | setting | method | best known ms | gaps per seed | best measured per seed | used per seed | m1 per seed | m2 per seed "
            + "| gaps per seed with tie band 0 (before) 0.1 0.25 0.5 1 2 |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
  }

  private static void close(SearchStrategy strategy) {
    if (strategy instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * One search: its setting, devices, method, measurements spent, gap of the returned and of the best measured
   * placement (%), and the gaps of what the final verdict with each of {@link #TIE_BANDS} returned from the same race.
   */
  private record Run(String setting, String devices, String method, int used, double gap, double seenGap,
      List<Double> bandGaps) {}

  /** Tie bands (standard errors; 0 = every difference of medians counts, no tie band) whose picks the summary compares. */
  private static final double[] TIE_BANDS = {0, 0.1, 0.25, 0.5, 1, 2};

  /** The noise-free gap (%) of {@code p} to {@code known} on {@code target}; NaN without one. */
  private static double gap(Placement p, PlacementProxy target, double known) {
    return p == null ? Double.NaN : 100 * (target.latencyMicros(p) / 1000.0 / known - 1);
  }

  /** {@link #above} per tie band, separated by slashes. */
  private static String bands(List<Run> rs) {
    StringBuilder out = new StringBuilder();
    for (int b = 0; b < TIE_BANDS.length; b++) {
      int band = b;
      out.append(b > 0 ? " / " : "").append(above(rs, r -> r.bandGaps().get(band))).append('/').append(rs.size());
    }
    return out.toString();
  }

  /** How many runs returned a placement more than 0.5 % slower (noise-free) than the best they measured. */
  private static long above(List<Run> rs, ToDoubleFunction<Run> gap) {
    return rs.stream().filter(r -> (100 + gap.applyAsDouble(r)) > (100 + r.seenGap()) * 1.005).count();
  }

  /**
   * Per setting and method: measurements used (median, mean, max), gaps (max, mean, runs within 1 % and 2 %), and how
   * often the returned placement is slower (noise-free, by more than 0.05 %) than the best one measured.
   */
  private static void summarise(List<Run> runs) {
    System.out.printf(Locale.ROOT,
        "%n| setting | method | runs | used median | used mean | used max | gap max | gap mean | within 1 %% | within 2 %% | returned not best measured "
            + "| returned > 0.5 %% above best measured | same, tie band 0 (no tie band) / 0.1 / 0.25 / 0.5 / 1 / 2 SE |%n");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    Map<String, List<Run>> groups = new java.util.TreeMap<>();
    for (Run r : runs) {
      groups.computeIfAbsent(r.setting() + " | " + r.method(), k -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<String, List<Run>> e : groups.entrySet()) {
      List<Run> rs = e.getValue();
      double[] used = rs.stream().mapToDouble(Run::used).sorted().toArray();
      double median = used.length % 2 == 1 ? used[used.length / 2]
          : (used[used.length / 2 - 1] + used[used.length / 2]) / 2;
      double maxGap = rs.stream().mapToDouble(Run::gap).max().orElse(Double.NaN);
      double meanGap = rs.stream().mapToDouble(Run::gap).average().orElse(Double.NaN);
      long in1 = rs.stream().filter(r -> r.gap() <= 1.0).count();
      long in2 = rs.stream().filter(r -> r.gap() <= 2.0).count();
      long notBest = rs.stream().filter(r -> r.gap() > r.seenGap() + 0.05).count();
      System.out.printf(Locale.ROOT,
          "| %s | %d | %.1f | %.1f | %.0f | %+.2f %% | %+.2f %% | %d/%d | %d/%d | %d/%d | %d/%d | %s |%n",
          e.getKey(), rs.size(),
          median, Arrays.stream(used).average().orElse(Double.NaN), used[used.length - 1], maxGap, meanGap, in1,
          rs.size(), in2,
          rs.size(), notBest, rs.size(), above(rs, Run::gap), rs.size(), bands(rs));
    }
  }

  /**
   * What tune returns: the best of 5 finalists ({@link FinalistChoice}) after 5 interleaved rounds of re-measurement
   * (median; near ties race on); and what the verdict with no tie band (every difference counts) returned from the same rounds.
   */
  private static Placement[] returned(SearchEngine engine, SearchOutcome out, long seed, PlacementProxy proxy,
      List<Placement> favourites, boolean tieBreak) throws IOException {
    List<Finalist> finalists = new ArrayList<>();
    for (SearchStep s : FinalistChoice.choose(out, 5, Set.of(), proxy, favourites)) {
      finalists.add(new Finalist("step " + s.index(), false, s.placement(), s.index(), s.measurement()));
    }
    if (finalists.isEmpty()) {
      return new Placement[TIE_BANDS.length + 1];
    }
    Prediction prediction = proxy == null || !tieBreak ? null : FinalistChoice.prediction(out, proxy);
    FinalResult result = engine.remeasure(finalists, 5, seed, Map.of(), RemeasureListener.NONE, prediction);
    Placement[] picks = new Placement[TIE_BANDS.length + 1];
    Candidate best = result.verdict().winner();
    picks[0] = best == null ? null : best.placement();
    for (int b = 0; b < TIE_BANDS.length; b++) {
      Candidate c = Verdict.of(result.candidates(), prediction, TIE_BANDS[b]).winner();
      picks[b + 1] = c == null ? null : c.placement();
    }
    return picks;
  }

  /** The noise-free target latency (ms) of the truly best placement the search measured. */
  private static double bestSeen(SearchOutcome out, PlacementProxy target) {
    double best = Double.POSITIVE_INFINITY;
    for (SearchStep s : out.steps()) {
      if (s.measurement().ok()) {
        best = Math.min(best, target.latencyMicros(s.placement()) / 1000.0);
      }
    }
    return best;
  }

  /** Measurements until the best-measured placement was within 1 % and 2 % of {@code known} (noise-free), or -1. */
  private static int[] reach(SearchOutcome out, PlacementProxy target, double known) {
    int[] reach = {-1, -1};
    double bestMeasured = Double.POSITIVE_INFINITY;
    int measured = 0;
    for (SearchStep s : out.steps()) {
      if (!s.cached()) {
        measured++;
      }
      if (s.measurement().ok() && s.latencyMillis() < bestMeasured) {
        bestMeasured = s.latencyMillis();
        Placement p = s.placement();
        double trueMs = target.latencyMicros(p) / 1000.0;
        if (reach[0] < 0 && trueMs <= known * 1.01) {
          reach[0] = measured;
        }
        if (reach[1] < 0 && trueMs <= known * 1.02) {
          reach[1] = measured;
        }
      }
    }
    return reach;
  }
}
