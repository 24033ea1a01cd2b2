package org.hsdag.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;

/**
 * How far a method's figures move from seed to seed, so that no figure from one seed reads as settled: with
 * one seed there is no interval and the text says so; with several, each figure comes with its min–max over
 * the seeds. Per-seed speedups and gaps are taken against the same reference and best known as the mean's,
 * so the printed mean always lies inside its range.
 */
public final class SeedSpread {
  private SeedSpread() {}

  /** Each seed's final latency of {@code r} (ms). */
  public static double[] latencies(MethodResult r) {
    return r.runs().stream().mapToDouble(Run::finalMillis).toArray();
  }

  /** Each seed's speedup % of {@code r} against {@code m}'s reference mean (their mean is {@code r}'s speedup). */
  public static double[] speedups(ModelResult m, MethodResult r) {
    double ref = m.referenceMillis();
    return Arrays.stream(latencies(r)).map(x -> (ref - x) / ref * 100).toArray();
  }

  /** Each seed's gap % of {@code r} to {@code m}'s best known (their mean is {@code r}'s gap). */
  public static double[] gaps(ModelResult m, MethodResult r) {
    double best = m.bestKnownMillis();
    return Arrays.stream(latencies(r)).map(x -> (x - best) / best * 100).toArray();
  }

  /** {@code [10.2–13.0]}: min–max of {@code values}; empty with fewer than two finite values (one seed: no range). */
  public static String range(double[] values, int decimals) {
    double[] v = Arrays.stream(values).filter(Double::isFinite).toArray();
    if (v.length < 2) {
      return "";
    }
    String f = "%." + decimals + "f";
    return String.format(Locale.ROOT, "[" + f + "–" + f + "]", Arrays.stream(v).min().orElseThrow(),
        Arrays.stream(v).max().orElseThrow());
  }

  /**
   * The console's verdict on {@code m}: the fastest method with its speedup against {@code referenceLabel} and
   * its gap to the best known, either said to be one seed's or given with its range over the seeds (and whether
   * the runner-up's range overlaps it); then, when {@code real}, the load at the start and end of the model.
   */
  public static List<String> verdict(ModelResult m, String referenceLabel, int seeds, boolean real) {
    List<String> lines = new ArrayList<>();
    List<MethodResult> ran = m.methods().stream()
        .filter(r -> r.skipped() == null && !"REFERENCE".equals(r.kind()) && Double.isFinite(r.meanMillis()))
        .sorted(java.util.Comparator.comparingDouble(MethodResult::meanMillis)).toList();
    if (!ran.isEmpty()) {
      MethodResult best = ran.get(0);
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s  %-20s %s %.4f ms", m.model(), "fastest",
          best.label(), best.meanMillis()));
      if (seeds < 2) {
        s.append(
            String.format(Locale.ROOT, ", %s vs %s, gap to the best-known placement %s", percent(best.speedupPercent()),
                referenceLabel, percent(best.gapToBestPercent())));
        s.append(" (one seed: a single run each, so no interval is possible; --seeds 3 or more gives a spread)");
      } else {
        s.append(String.format(Locale.ROOT,
            " %s, %s %s vs %s, gap to the best-known placement %s %s (mean and min–max over %d "
                + "seeds)",
            range(latencies(best), 4), percent(best.speedupPercent()), range(speedups(m, best), 1),
            referenceLabel, percent(best.gapToBestPercent()), range(gaps(m, best), 1), seeds));
        if (ran.size() > 1 && overlaps(best, ran.get(1))) {
          s.append("; its range overlaps ").append(ran.get(1).label()).append("'s: not a clear lead");
        }
      }
      lines.add(s.toString());
    }
    if (real) {
      lines.add(String.format(Locale.ROOT, "%s  %-20s %s at the start, %s at the end (1-minute load average)",
          m.model(), "load", LoadAverage.format(m.loadStart()), LoadAverage.format(m.loadEnd())));
    }
    return lines;
  }

  private static boolean overlaps(MethodResult a, MethodResult b) {
    double aMax = Arrays.stream(latencies(a)).max().orElse(Double.NaN);
    double bMin = Arrays.stream(latencies(b)).min().orElse(Double.NaN);
    return bMin <= aMax;
  }

  private static String percent(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.1f %%", v) : "n/a";
  }
}
