package org.hsdag.bench.real;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.bench.report.LoadAverage;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.placement.SplitPlacements;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.RankCorrelation;

/**
 * How far a cost model can be trusted on a backend: realistic two-device placements (both single
 * devices, then contiguous runs along the ops' topological order with 1 to {@value #MAX_CHANGES}
 * device changes, starting on either device), each measured once per round in interleaved rounds
 * (the order reversed every other round), compared with the cost model's noise-free prediction:
 * Spearman's rho, median and max |error| (error = predicted / real - 1, real = the fastest round; the
 * same errors against the rounds' median are given too), and the measurements' own round-to-round rho (the noise floor: no prediction ranks the
 * placements better than the measurements rank themselves). A placement whose measurement fails
 * (e.g. a split the runtime refuses) is left out, with its reason, and another one taken, until the
 * asked number ran. The one implementation behind {@code bench fidelity} and the cost-model section
 * of {@code bench real-runtime-figures}.
 */
public final class Fidelity {
  /** Most device changes of a generated placement (a few contiguous runs, as a planner proposes). */
  static final int MAX_CHANGES = 4;
  /** Candidates generated per placement asked for, so refused ones can be replaced. */
  private static final int POOL_FACTOR = 4;

  /**
   * How a fidelity run measures.
   *
   * @param placements placements per model that must run (both single devices included)
   * @param rounds interleaved rounds over them
   * @param runs timed runs per measurement (after one warm-up; median)
   * @param seed seed of the generated placements
   */
  public record Settings(int placements, int rounds, int runs, long seed) {
    public Settings {
      if (placements < 3 || rounds < 1 || runs < 1) {
        throw new IllegalArgumentException("Expected placements >= 3, rounds >= 1 and runs >= 1");
      }
    }

    MeasurementProtocol protocol() {
      return new MeasurementProtocol(1, runs, Statistic.MEDIAN, 1, 0);
    }
  }

  /**
   * One measured placement.
   *
   * @param placement what was placed
   * @param predictedMillis the cost model's latency
   * @param real the measured latency over the rounds
   * @param roundsMillis each round's measurement, in round order (a round whose measurement failed repeats the
   *     round before it, and its reason is in {@code roundFailures})
   * @param roundFailures {@code round N: reason} of each round whose measurement failed after the first ran
   * @param subModels the sub-models the runtime reported (0 when it reports none)
   */
  public record Row(FidelityPlacement placement, double predictedMillis, Spread real, List<Double> roundsMillis,
      List<String> roundFailures, int subModels) {
    public Row {
      roundsMillis = List.copyOf(roundsMillis);
      roundFailures = List.copyOf(roundFailures);
    }

    public String label() {
      return placement.label();
    }

    /**
     * The placement's latency: its fastest round. Other processes only add time, and on a shared machine they come
     * in bursts that slow whole rounds, so the median of the rounds moves with the load where the fastest does not
     * (the cost model is fitted to the fastest rounds alike: docs/hetero-rules.md §7).
     */
    public double realMillis() {
      return real.min();
    }

    /** predicted / fastest round - 1. */
    public double error() {
      return predictedMillis / realMillis() - 1;
    }

    /** predicted / median of the rounds - 1: the figure a loaded machine's typical run gives. */
    public double errorVsMedian() {
      return predictedMillis / real.median() - 1;
    }
  }

  /**
   * A placement whose first measurement failed (left out of the figures, another one taken instead).
   *
   * @param placement what was placed
   * @param predictedMillis the cost model's latency for it
   * @param reason the backend's reason
   */
  public record Failure(FidelityPlacement placement, double predictedMillis, String reason) {
    @Override
    public String toString() {
      return placement.label() + ": " + reason;
    }
  }

  /**
   * The figures of one model.
   *
   * @param model the model's label
   * @param rows every placement that ran
   * @param failures every placement whose measurement failed, with the reason
   * @param rho Spearman's rho between prediction and real
   * @param noiseRho mean Spearman's rho between consecutive rounds (NaN with one round)
   * @param loadStart the 1-minute load average when the model's run started (NaN where unknown)
   * @param loadEnd the same when it ended
   */
  public record Result(String model, List<Row> rows, List<Failure> failures, double rho, double noiseRho,
      double loadStart, double loadEnd) {
    public Result {
      rows = List.copyOf(rows);
      failures = List.copyOf(failures);
    }

    public double medianAbsError() {
      return Spread.of(rows.stream().mapToDouble(r -> Math.abs(r.error())).toArray()).median();
    }

    public double maxAbsError() {
      return rows.stream().mapToDouble(r -> Math.abs(r.error())).max().orElse(Double.NaN);
    }

    public double medianError() {
      return Spread.of(rows.stream().mapToDouble(Row::error).toArray()).median();
    }

    /** Median |error| against the rounds' median instead of the fastest round. */
    public double medianAbsErrorVsMedian() {
      return Spread.of(rows.stream().mapToDouble(r -> Math.abs(r.errorVsMedian())).toArray()).median();
    }

    /** Max |error| against the rounds' median. */
    public double maxAbsErrorVsMedian() {
      return rows.stream().mapToDouble(r -> Math.abs(r.errorVsMedian())).max().orElse(Double.NaN);
    }
  }

  private Fidelity() {}

  /**
   * Measures {@code settings.placements()} placements of {@code graph} on {@code backend} (the
   * proxy's two devices) and compares them with {@code proxy}'s predictions.
   *
   * @throws IllegalArgumentException when the proxy does not have exactly two devices
   * @throws IllegalStateException when fewer than 3 placements ran
   */
  public static Result run(LatencyBackend backend, OpGraph graph, String label, PlacementProxy proxy,
      Settings settings) {
    if (proxy.devices().size() != 2) {
      throw new IllegalArgumentException("fidelity compares two-device placements; got devices "
          + String.join(",", proxy.devices().names()));
    }
    double loadStart = LoadAverage.now();
    List<int[]> pool = candidates(proxy, settings);
    MeasurementProtocol protocol = settings.protocol();
    List<Taken> taken = new ArrayList<>();
    List<Failure> failures = new ArrayList<>();
    for (int id = 0; id < pool.size() && taken.size() < settings.placements(); id++) {
      int[] ops = pool.get(id);
      Placement p = proxy.placement(ops);
      if (!proxy.evaluate(p).ok()) {
        continue; // an op its device cannot run: not a placement anyone would propose
      }
      Measurement m = backend.measure(graph, p, protocol);
      FidelityPlacement what = FidelityPlacement.of(id, ops, proxy, p);
      if (!m.ok()) {
        failures.add(new Failure(what, proxy.latencyMicros(p) / 1000.0, m.reason()));
        continue;
      }
      Taken t = new Taken(p, what, settings.rounds(), m.subModels());
      t.samples[0] = m.latencyMillis();
      taken.add(t);
    }
    if (taken.size() < 3) {
      throw new IllegalStateException(label + ": only " + taken.size() + " placements ran (" + failures.size()
          + " failed" + (failures.isEmpty() ? "" : ", e.g. " + failures.get(0)) + ")");
    }
    int n = taken.size();
    for (int r = 1; r < settings.rounds(); r++) {
      for (int k = 0; k < n; k++) {
        Taken t = taken.get(r % 2 == 1 ? n - 1 - k : k);
        Measurement m = backend.measure(graph, t.placement, protocol);
        // A placement that ran before and fails now keeps its earlier rounds' figure.
        t.samples[r] = m.ok() ? m.latencyMillis() : t.samples[r - 1];
        if (!m.ok()) {
          t.roundFailures.add("round " + (r + 1) + ": " + m.reason());
        }
      }
    }
    return result(label, proxy, taken, failures, loadStart);
  }

  /** One placement that ran, while its rounds are taken. */
  private static final class Taken {
    final Placement placement;
    final FidelityPlacement description;
    final double[] samples;
    final List<String> roundFailures = new ArrayList<>();
    final int subModels;

    Taken(Placement placement, FidelityPlacement description, int rounds, int subModels) {
      this.placement = placement;
      this.description = description;
      this.samples = new double[rounds];
      this.subModels = subModels;
    }
  }

  private static Result result(String label, PlacementProxy proxy, List<Taken> taken, List<Failure> failures,
      double loadStart) {
    int n = taken.size();
    int rounds = taken.get(0).samples.length;
    List<Row> rows = new ArrayList<>();
    double[] predicted = new double[n];
    double[] real = new double[n];
    for (int i = 0; i < n; i++) {
      Taken t = taken.get(i);
      predicted[i] = proxy.latencyMicros(t.placement) / 1000.0;
      Spread s = Spread.of(t.samples);
      real[i] = s.min();
      rows.add(new Row(t.description, predicted[i], s, Arrays.stream(t.samples).boxed().toList(), t.roundFailures,
          t.subModels));
    }
    double noise = Double.NaN;
    if (rounds >= 2) {
      double sum = 0;
      for (int r = 0; r + 1 < rounds; r++) {
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
          x[i] = taken.get(i).samples[r];
          y[i] = taken.get(i).samples[r + 1];
        }
        sum += RankCorrelation.spearman(x, y);
      }
      noise = sum / (rounds - 1);
    }
    return new Result(label, rows, failures, RankCorrelation.spearman(predicted, real), noise, loadStart,
        LoadAverage.now());
  }

  /** Both single devices first, then contiguous runs; distinct, deterministic for the seed. */
  static List<int[]> candidates(PlacementProxy proxy, Settings settings) {
    int ops = proxy.model().opCount();
    List<int[]> out = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      int[] single = new int[ops];
      Arrays.fill(single, d);
      out.add(single);
    }
    int want = Math.max(0, POOL_FACTOR * settings.placements() - 2);
    int changes = Math.min(MAX_CHANGES, Math.max(1, ops - 1));
    // Distinct contiguous-run placements there are: 2 starting devices x C(ops - 1, c) cut sets for c changes.
    long possible = 0;
    long binomial = 1;
    for (int c = 1; c <= changes && possible < want; c++) {
      binomial = binomial * (ops - c) / c;
      possible += 2 * binomial;
    }
    // The generator cycles through 1..changes changes; on a small graph one count runs out first: ask for fewer.
    for (int count = (int) Math.min(want, possible); count > 0; count /= 2) {
      try {
        out.addAll(SplitPlacements.generate(ops, count, 0, changes, settings.seed()));
        return out;
      } catch (IllegalArgumentException e) {
        // too many for this graph
      }
    }
    return out;
  }

  /** The table header of {@link #printRow}. */
  public static void printHeader(PrintWriter out) {
    out.println("| model | placements (failed) | Spearman rho (prediction vs real) | noise floor rho (round vs round) "
        + "| median abs error | max abs error | median error (signed) | vs rounds' median: median, max abs error "
        + "| real ms range | load (start-end) |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
  }

  /** One table line of {@code r}. */
  public static void printRow(PrintWriter out, Result r) {
    Spread real = Spread.of(r.rows().stream().mapToDouble(Row::realMillis).toArray());
    out.printf(Locale.ROOT,
        "| %s | %d (%d) | %.3f | %.3f | %.1f %% | %.1f %% | %+.1f %% | %.1f %%, %.1f %% | %.2f-%.2f | %.2f-%.2f |%n",
        r.model(), r.rows().size(), r.failures().size(), r.rho(), r.noiseRho(), 100 * r.medianAbsError(),
        100 * r.maxAbsError(), 100 * r.medianError(), 100 * r.medianAbsErrorVsMedian(), 100 * r.maxAbsErrorVsMedian(),
        real.min(), real.max(), r.loadStart(), r.loadEnd());
  }

  /** Every placement of {@code r}, one line each, then the failures. */
  public static void printDetails(PrintWriter out, Result r) {
    for (Row row : r.rows()) {
      out.printf(Locale.ROOT,
          "- %s %s: %d sub-models, predicted %.2f ms, real (fastest round) %.2f ms (%+.1f %%), rounds %s ms [#%d %s]%n",
          r.model(), row.label(), row.subModels(), row.predictedMillis(), row.realMillis(), 100 * row.error(),
          row.roundsMillis().stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).toList(),
          row.placement().id(), row.placement().hash());
    }
    for (Failure f : r.failures()) {
      out.printf(Locale.ROOT, "- %s FAILED %s (predicted %.2f ms)%n", r.model(), f, f.predictedMillis());
    }
  }
}
