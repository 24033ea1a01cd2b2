package org.hsdag.search;

import static org.hsdag.search.SearchEngine.maxFinalRounds;
import static org.hsdag.search.SearchEngine.median;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.backend.ConfidenceInterval;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchEngine.RoundKey;

/**
 * One re-measurement of finalists in interleaved rounds ({@link SearchEngine#remeasure(List, int,
 * long, Map, RemeasureListener, Prediction)}): what each finalist measured so far, round by round.
 */
final class FinalRounds {
  private final SearchEngine engine;
  private final List<Finalist> finalists;
  private final Map<RoundKey, Measurement> prior;
  private final RemeasureListener l;
  private final int n;
  private final List<List<Double>> roundValues = new ArrayList<>();
  private final int[] samples;
  private final int[] subModels;
  private final String[] failReason;
  private int total;
  private int done;

  FinalRounds(SearchEngine engine, List<Finalist> finalists, Map<RoundKey, Measurement> prior,
      RemeasureListener listener) {
    this.engine = engine;
    this.finalists = finalists;
    this.prior = prior;
    l = listener == null ? RemeasureListener.NONE : listener;
    n = finalists.size();
    samples = new int[n];
    subModels = new int[n];
    failReason = new String[n];
  }

  FinalResult run(int rounds, long orderSeed, Prediction predicted) throws IOException {
    boolean[] left = RaceRules.farSlowerSingleDevices(finalists);
    boolean anyLeft = false;
    for (int i = 0; i < n; i++) {
      roundValues.add(new ArrayList<>());
      Measurement first = finalists.get(i).first();
      subModels[i] = first == null ? 0 : first.subModels();
      anyLeft |= left[i];
      if (first != null && !first.ok()) {
        failReason[i] = first.reason();
      } else if (!left[i]) {
        total += rounds;
      }
    }
    l.started(total);
    // Fixed rounds for everyone still in, then up to as many again for the candidates still within noise of
    // the leader (racing): a near tie is settled by more rounds, not by one noisy median. A candidate clearly
    // slower than the leader after enough rounds to race on leaves early (sequential elimination): more rounds
    // could not make it the pick, and each of its rounds costs a real measurement. So do a split that can no
    // longer end clearly faster than a single device and a single device clearly slower than another
    // (RaceRules), and the race ends when one finalist is left. A single device whose first measurement was
    // more than twice the fastest one's does not race at all: its first measurement stands as its figure.
    for (int round = 0; round < maxFinalRounds(rounds); round++) {
      if (anyLeft && racing(left) < 2 && round >= SearchEngine.MIN_ROUNDS_TO_RACE) {
        // Everyone else has left: nothing is left to compare the last one with, the pick is settled (its own
        // figure still the median of the rounds needed to race on).
        total -= round < rounds ? racing(left) * (rounds - round) : 0;
        break;
      }
      boolean[] inRound = new boolean[n];
      if (round < rounds) {
        for (int i = 0; i < n; i++) {
          inRound[i] = !left[i];
        }
      } else {
        inRound = contenders(roundValues, failReason);
        for (int i = 0; i < n; i++) {
          inRound[i] &= !left[i];
        }
        int count = 0;
        for (boolean b : inRound) {
          count += b ? 1 : 0;
        }
        if (count < 2) {
          break;
        }
        total += count;
      }
      if (!l.roundFits(round, fresh(round, inRound))) {
        break;
      }
      if (!measureRound(round, inRound, orderSeed)) {
        return new FinalResult(List.of(), new Verdict(Decision.NOTHING_RAN, null, "interrupted"), true);
      }
      if (round + 1 >= SearchEngine.MIN_ROUNDS_TO_RACE) {
        boolean[] leaving = leaving(left, maxFinalRounds(rounds) - round - 1);
        for (int i = 0; i < n; i++) {
          if (leaving[i] && !left[i]) {
            left[i] = true;
            anyLeft = true;
            total -= Math.max(0, rounds - round - 1);
          }
        }
      }
    }
    l.ended(done);
    List<Candidate> out = candidates();
    return new FinalResult(out, Verdict.of(out, predicted), false);
  }

  /** How many measurements round {@code round} takes for the finalists in it (the log may hold some already). */
  private int fresh(int round, boolean[] inRound) {
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += failReason[i] == null && inRound[i]
          && !prior.containsKey(new RoundKey(round, finalists.get(i).placement())) ? 1 : 0;
    }
    return count;
  }

  /** Measures round {@code round} of the finalists in it, in a fresh shuffled order; false when asked to stop. */
  private boolean measureRound(int round, boolean[] inRound, long orderSeed) throws IOException {
    int[] order = shuffled(n, new SplittableRandom(orderSeed + round));
    List<Placement> toMeasure = new ArrayList<>();
    for (int i : order) {
      if (failReason[i] == null && inRound[i]
          && !prior.containsKey(new RoundKey(round, finalists.get(i).placement()))) {
        toMeasure.add(finalists.get(i).placement());
      }
    }
    Map<Placement, Measurement> ahead = engine.stopRequested() ? Map.of() : engine.prefetch(toMeasure, round + 1);
    for (int i : order) {
      if (failReason[i] != null || !inRound[i]) {
        continue;
      }
      if (engine.stopRequested()) {
        return false;
      }
      Finalist f = finalists.get(i);
      Measurement m = prior.get(new RoundKey(round, f.placement()));
      boolean fresh = m == null;
      if (fresh) {
        m = ahead.containsKey(f.placement()) ? ahead.get(f.placement()) : engine.measure(f.placement(), round + 1);
      }
      if (m.ok()) {
        roundValues.get(i).add(m.latencyMillis());
        samples[i] += m.samplesMillis().length;
        subModels[i] = m.subModels();
      } else {
        failReason[i] = "failed in final round " + round + ": " + m.reason();
      }
      l.measured(f, round, m, fresh, ++done, total);
    }
    return true;
  }

  /**
   * The finalists that leave the race after this round: search finalists {@linkplain #outclassed clearly
   * slower} than the leader or {@linkplain RaceRules#futile unable to end clearly faster} than any single
   * device racing in up to {@code more} further rounds, and single devices {@linkplain
   * RaceRules#slowerSingleDevices clearly slower} than another.
   */
  private boolean[] leaving(boolean[] left, int more) {
    boolean[] staying = staying();
    boolean[] baseline = new boolean[n];
    for (int i = 0; i < n; i++) {
      baseline[i] = finalists.get(i).baseline();
    }
    boolean[] slower = outclassed(roundValues, failReason, staying);
    boolean[] slowerDevice = RaceRules.slowerSingleDevices(roundValues, failReason, baseline);
    boolean[] out = new boolean[n];
    for (int i = 0; i < n; i++) {
      out[i] = slower[i] || slowerDevice[i];
    }
    boolean[] gone = left.clone();
    for (int i = 0; i < n; i++) {
      gone[i] |= out[i];
    }
    boolean[] futile = RaceRules.futile(roundValues, failReason, baseline, staying, gone, more);
    for (int i = 0; i < n; i++) {
      out[i] |= futile[i];
    }
    return out;
  }

  /** How many finalists are still racing: not left and not failed. */
  private int racing(boolean[] left) {
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += !left[i] && failReason[i] == null ? 1 : 0;
    }
    return count;
  }

  private List<Candidate> candidates() {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Finalist f = finalists.get(i);
      Measurement first = f.first();
      double searchMs = first != null && first.ok() ? first.latencyMillis() : Double.NaN;
      double[] values = roundValues.get(i).stream().mapToDouble(Double::doubleValue).toArray();
      double finalMs;
      double[] ci;
      int pooled;
      if (failReason[i] != null) {
        finalMs = Double.NaN;
        ci = new double[] {Double.NaN, Double.NaN};
        pooled = 0;
        values = new double[0];
      } else if (values.length == 0) {
        finalMs = searchMs;
        ci = first == null ? new double[] {Double.NaN, Double.NaN}
            : new double[] {first.ciLowMillis(), first.ciHighMillis()};
        pooled = first == null ? 0 : first.samplesMillis().length;
      } else {
        finalMs = median(values);
        // The interval is of the median of rounds, the reported statistic; it describes the rounds the decision is made on, not raw samples
        // (raw samples include warm-up-affected runs the statistic may exclude).
        ci = ConfidenceInterval.ofMedian(values, ConfidenceInterval.LEVEL);
        pooled = samples[i];
      }
      out.add(new Candidate(f.label(), f.baseline(), f.placement(), f.step(), searchMs, finalMs, ci[0], ci[1],
          Arrays.stream(values).boxed().toList(),
          pooled, subModels[i], failReason[i]));
    }
    return out;
  }

  /**
   * Each candidate's interval of the median over its rounds (null for a failure or fewer than 2 rounds)
   * and the leader, the lowest median (-1 when none has 2 rounds).
   */
  @SuppressWarnings("ArrayRecordComponent") // private, built once, never shared
  private record RoundStats(double[][] ci, int leader) {
    static RoundStats of(List<List<Double>> roundValues, String[] failReason) {
      int n = roundValues.size();
      double[] median = new double[n];
      double[][] ci = new double[n][];
      int leader = -1;
      for (int i = 0; i < n; i++) {
        double[] v = roundValues.get(i).stream().mapToDouble(Double::doubleValue).toArray();
        if (failReason[i] != null || v.length < 2) {
          continue;
        }
        median[i] = SearchEngine.median(v);
        ci[i] = ConfidenceInterval.ofMedian(v, ConfidenceInterval.LEVEL);
        if (leader < 0 || median[i] < median[leader]) {
          leader = i;
        }
      }
      return new RoundStats(ci, leader);
    }
  }

  /**
   * The candidates whose interval of the median overlaps the leader's (the lowest median), the
   * leader included; none when the leader is alone. Equal zero-width intervals do not overlap
   * (they are the same number, nothing more rounds could settle).
   */
  static boolean[] contenders(List<List<Double>> roundValues, String[] failReason) {
    int n = roundValues.size();
    RoundStats stats = RoundStats.of(roundValues, failReason);
    double[][] ci = stats.ci();
    int leader = stats.leader();
    boolean[] in = new boolean[n];
    if (leader < 0) {
      return in;
    }
    for (int i = 0; i < n; i++) {
      if (i != leader && ci[i] != null && ci[i][0] < ci[leader][1] && ci[leader][0] < ci[i][1]) {
        in[i] = true;
        in[leader] = true;
      }
    }
    return in;
  }

  /** The finalists that run every fixed round whatever they measure: all but those the search found. */
  private boolean[] staying() {
    boolean[] b = new boolean[n];
    for (int i = 0; i < n; i++) {
      b[i] = finalists.get(i).baseline() || finalists.get(i).step() < 0;
    }
    return b;
  }

  /**
   * The candidates that leave the race early: those whose 95 % interval of the median lies above the
   * leader's (the lowest median), so that the leader is {@linkplain Candidate#clearlyFasterThan clearly
   * faster}, with a gap wider than either interval. The gap guards the few rounds it is decided on: with 3
   * rounds an interval is the sample range (coverage 75 %), and a near tie whose ranges happen not to meet
   * must stay to be settled by more rounds. The {@code staying} ones never leave: the baselines (the fastest
   * is the reference a split must clearly beat, {@link Verdict}; each is a speed-up's reference in the
   * report) and a placement given to measure ({@code apply}); nor do the leader and any candidate with fewer
   * than 2 rounds or a failure (its rounds already ended).
   */
  static boolean[] outclassed(List<List<Double>> roundValues, String[] failReason, boolean[] staying) {
    int n = roundValues.size();
    RoundStats stats = RoundStats.of(roundValues, failReason);
    double[][] ci = stats.ci();
    int leader = stats.leader();
    boolean[] out = new boolean[n];
    for (int i = 0; leader >= 0 && i < n; i++) {
      out[i] = i != leader && !staying[i] && ci[i] != null
          && ci[i][0] - ci[leader][1] > Math.max(ci[i][1] - ci[i][0], ci[leader][1] - ci[leader][0]);
    }
    return out;
  }

  private static int[] shuffled(int n, SplittableRandom rng) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}
