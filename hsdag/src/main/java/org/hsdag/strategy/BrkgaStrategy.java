package org.hsdag.strategy;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SearchStrategy;

/**
 * Biased random-key genetic algorithm as used by REGAL/GO (Gonçalves &amp; Resende defaults): a
 * chromosome holds one key in [0,1] per unit per device; a unit goes to its allowed device with the
 * largest key. Each generation keeps the elites unchanged (not re-measured), breeds children from
 * one elite and one non-elite parent taking each gene from the elite with probability {@code
 * bias}, and fills the rest with uniform mutants. In ask–tell form a batch is the rest of the
 * current generation (up to the limit); a member that decodes to an already-measured placement is
 * answered from the engine's cache for free.
 */
public final class BrkgaStrategy implements SearchStrategy {
  /**
   * BRKGA sizes.
   *
   * @param population chromosomes per generation
   * @param elites best chromosomes copied unchanged
   * @param children crossover offspring per generation (the rest are mutants)
   * @param eliteBias probability a child's gene comes from its elite parent
   * @param seedSingleDevice start the initial population with the single-device placements (a
   *     "known good solutions" seeding BRKGA allows; off for the REGAL baseline)
   */
  public record Config(int population, int elites, int children, double eliteBias, boolean seedSingleDevice) {
    /** REGAL's "BRKGA XK" setting: 100 / 10 / 80 (10 mutants), bias 0.7, uniform initial population. */
    public static final Config REGAL = new Config(100, 10, 80, 0.7, false);

    /** REGAL sizes with the single-device placements seeded (the long "best known" reference run). */
    public static final Config SEEDED = new Config(100, 10, 80, 0.7, true);

    public Config {
      if (population < 2 || elites < 1 || children < 0 || elites + children > population || elites >= population) {
        throw new IllegalArgumentException(
            "bad BRKGA sizes: population " + population + ", elites " + elites + ", children " + children);
      }
      if (eliteBias < 0.5 || eliteBias > 1) {
        throw new IllegalArgumentException("Expected elite bias in [0.5, 1] (got " + eliteBias + ")");
      }
    }
  }

  private final Grouping grouping;
  private final Config config;
  private final String methodName;
  private PlacementSpace space;
  private SplittableRandom rng;
  private int genes;
  private double[][] keys;
  private double[] cost;
  private final Deque<Integer> toEvaluate = new ArrayDeque<>();
  private FailurePenalty penalty;
  private int generation;

  public BrkgaStrategy(String methodName, Grouping grouping, Config config) {
    this.methodName = methodName;
    this.grouping = grouping;
    this.config = config;
  }

  @Override
  public String name() {
    return methodName;
  }

  /** Generations bred so far (0 while the initial population is measured). */
  public int generation() {
    return generation;
  }

  @Override
  public void init(SearchContext context) {
    space = PlacementSpace.grouped(context.graph(), context.devices(), context.support(),
        grouping.groupOf(context.graph()));
    rng = new SplittableRandom(context.seed());
    genes = space.unitCount() * space.deviceCount();
    keys = new double[config.population()][];
    cost = new double[config.population()];
    toEvaluate.clear();
    penalty = FailurePenalty.twiceSlowest();
    for (int i = 0; i < config.population(); i++) {
      keys[i] = mutant();
      toEvaluate.add(i);
    }
    if (config.seedSingleDevice()) {
      int d = space.deviceCount();
      for (int dev = 0; dev < d && dev < config.population(); dev++) {
        for (int u = 0; u < space.unitCount(); u++) {
          for (int c = 0; c < d; c++) {
            keys[dev][u * d + c] = c == dev ? 1.0 : 0.0;
          }
        }
      }
    }
    generation = 0;
  }

  private double[] mutant() {
    double[] k = new double[genes];
    for (int g = 0; g < genes; g++) {
      k[g] = rng.nextDouble();
    }
    return k;
  }

  /** The unit assignment a chromosome encodes: per unit, its allowed device with the largest key. */
  int[] decodeUnits(double[] k) {
    int d = space.deviceCount();
    int[] a = new int[space.unitCount()];
    for (int u = 0; u < a.length; u++) {
      int best = space.choice(u, 0);
      for (int c = 1; c < space.choiceCount(u); c++) {
        int dev = space.choice(u, c);
        if (k[u * d + dev] > k[u * d + best]) {
          best = dev;
        }
      }
      a[u] = best;
    }
    return a;
  }

  @Override
  public List<Placement> ask(int limit) {
    if (toEvaluate.isEmpty()) {
      evolve();
    }
    List<Placement> batch = new java.util.ArrayList<>();
    for (int i : toEvaluate) {
      if (batch.size() == limit) {
        break;
      }
      batch.add(space.decode(decodeUnits(keys[i])));
    }
    return batch;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    for (Measurement m : results) {
      cost[toEvaluate.poll()] = penalty.costMillis(m);
    }
  }

  private void evolve() {
    int n = config.population();
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    // Stable sort: ties keep population order, so runs are reproducible.
    Arrays.sort(order, (a, b) -> Double.compare(cost[a], cost[b]));
    double[][] nextKeys = new double[n][];
    double[] nextCost = new double[n];
    int e = config.elites();
    for (int i = 0; i < e; i++) {
      nextKeys[i] = keys[order[i]];
      nextCost[i] = cost[order[i]];
    }
    for (int i = e; i < e + config.children(); i++) {
      double[] elite = keys[order[rng.nextInt(e)]];
      double[] other = keys[order[e + rng.nextInt(n - e)]];
      double[] child = new double[genes];
      for (int g = 0; g < genes; g++) {
        child[g] = rng.nextDouble() < config.eliteBias() ? elite[g] : other[g];
      }
      nextKeys[i] = child;
    }
    for (int i = e + config.children(); i < n; i++) {
      nextKeys[i] = mutant();
    }
    keys = nextKeys;
    cost = nextCost;
    toEvaluate.clear();
    for (int i = e; i < n; i++) {
      toEvaluate.add(i);
    }
    generation++;
  }
}
