package org.hsdag.search;

import java.util.List;
import java.util.Locale;

/**
 * The winner of a final re-measurement and why. A split placement replaces the fastest single
 * device only when it is clearly faster (its copies and extra sub-models are otherwise not worth
 * it).
 *
 * @param decision how the winner was chosen
 * @param winner the winner, or null when nothing ran
 * @param text one line for humans
 */
public record Verdict(Decision decision, Candidate winner, String text) {
  /**
   * Differences of medians within this many standard errors of the difference are ties the race
   * cannot separate (see {@link #of(List, Prediction, double)}): such a tie goes to the finalist the
   * corrected cost model ranks first, whatever the model's typical error (without a band, of two
   * finalists both at 2.126 ms the one returned was 1.3 % slower than the other). 0: every difference
   * counts. 0.1 is the smallest band that settles that case (its medians 0.06 standard errors
   * apart). In the 72-run sweep ({@code bench warm-start --devices CPU,GPU.1 --methods
   * planner,hsdag,planner-only --seeds 3 resnet50 inception_v3 bert_base ssd-inception-v2.xml},
   * exact and mismatch) no pick is more than 0.5 % above the best measured with bands 0 to 0.5;
   * band 0.1 made 2 of 72 picks 0.36 % slower and none faster, 0.25 four, 0.5 seven, 1 22 (and 2
   * of 72 more than 0.5 % above), so the band stays this small.
   */
  public static final double TIE_BAND = 0.1;

  /** The verdict over {@code candidates}, on their medians alone. */
  public static Verdict of(List<Candidate> candidates) {
    return of(candidates, null);
  }

  /**
   * The verdict over {@code candidates}. Among those within noise of the lowest median (their 95 %
   * intervals overlap), the fastest is the one with the lowest blend of its median and {@code
   * predicted}'s latency, each relative to the leader's and weighted by the inverse of its variance
   * (the median's from its interval, the prediction's from its typical error): a near tie the race
   * cannot settle goes to a cost model corrected by every measurement of the run, while a model
   * less sure than the race defers to the medians. The race's evidence is the difference of the
   * medians beyond {@link #TIE_BAND} standard errors of that difference.
   *
   * @param predicted the corrected cost model, or null to go by medians alone
   */
  public static Verdict of(List<Candidate> candidates, Prediction predicted) {
    return of(candidates, predicted, TIE_BAND);
  }

  /**
   * {@link #of(List, Prediction)} with a tie band of {@code tieBand} standard errors of the
   * difference of medians: two medians closer than that (e.g. both 2.126 ms) do not separate the
   * placements, and the one the model ranks faster wins whatever the model's error (the warm-start
   * experiment reports the picks under several bands).
   */
  public static Verdict of(List<Candidate> candidates, Prediction predicted, double tieBand) {
    Candidate leader = null;
    Candidate bestBaseline = null;
    for (Candidate c : candidates) {
      if (c.ok() && (leader == null || c.finalMs() < leader.finalMs())) {
        leader = c;
      }
      if (c.ok() && c.baseline() && (bestBaseline == null || c.finalMs() < bestBaseline.finalMs())) {
        bestBaseline = c;
      }
    }
    if (leader == null) {
      return new Verdict(Decision.NOTHING_RAN, null, "no candidate ran");
    }
    Candidate fastest = predicted == null ? leader : blendedFastest(candidates, leader, predicted, tieBand);
    String tie = fastest.equals(leader) ? "" : String.format(Locale.ROOT,
        " (within noise of %s's %.3f ms, and the corrected cost model ranks it faster)", leader.label(),
        leader.finalMs());
    if (fastest.baseline()) {
      return new Verdict(Decision.SINGLE_DEVICE_FASTEST, fastest, fastest.label() + " is the fastest" + tie);
    }
    if (bestBaseline == null) {
      return new Verdict(Decision.SPLIT_WINS, fastest,
          fastest.label() + " is the fastest (no single device ran)" + tie);
    }
    if (fastest.clearlyFasterThan(bestBaseline)) {
      return new Verdict(Decision.SPLIT_WINS, fastest, String.format(Locale.ROOT,
          "%s measured %.3f ms, %s than %s (%.3f ms; %s)%s", fastest.label(), fastest.finalMs(),
          intervals(fastest, bestBaseline) ? "clearly faster" : "faster", bestBaseline.label(), bestBaseline.finalMs(),
          intervals(fastest, bestBaseline) ? "the 95% intervals do not overlap"
              : "one round, so no interval: only the medians were compared",
          tie));
    }
    return new Verdict(Decision.SPLIT_WITHIN_NOISE, bestBaseline, String.format(Locale.ROOT,
        "%s measured %.3f ms, within the noise of %s (%.3f ms; the 95%% intervals overlap), so the single device is kept",
        fastest.label(), fastest.finalMs(), bestBaseline.label(), bestBaseline.finalMs()));
  }

  /** Whether both have a confidence interval (one round gives none). */
  private static boolean intervals(Candidate a, Candidate b) {
    return !Double.isNaN(a.ciHighMs()) && !Double.isNaN(b.ciLowMs());
  }

  /** The candidate within noise of {@code leader} with the lowest inverse-variance blend of median and prediction. */
  private static Candidate blendedFastest(List<Candidate> candidates, Candidate leader, Prediction predicted,
      double tieBand) {
    double leaderPrediction = predicted.latency().applyAsDouble(leader.placement());
    double modelVariance = predicted.relativeError() * predicted.relativeError();
    Candidate fastest = leader;
    double best = 0;
    for (Candidate c : candidates) {
      if (c.equals(leader) || !c.ok() || leader.clearlyFasterThan(c)) {
        continue;
      }
      double p = predicted.latency().applyAsDouble(c.placement());
      // The variance of the difference of two medians, from their 95 % intervals (relative).
      double raceVariance = relativeVariance(c) + relativeVariance(leader);
      if (!(raceVariance > 0) || !Double.isFinite(p) || !(leaderPrediction > 0)) {
        continue;
      }
      // A difference of medians within one standard error of it is one the race cannot separate: only
      // what lies beyond that counts as the race's evidence, so a sub-resolution tie goes to the model.
      double measured = beyondResolution(Math.log(c.finalMs() / leader.finalMs()),
          tieBand * Math.sqrt(raceVariance));
      double model = Math.log(p / leaderPrediction);
      // The model's errors on two similar placements are not independent; one variance for the difference.
      double score = (measured / raceVariance + model / modelVariance) / (1 / raceVariance + 1 / modelVariance);
      if (score < best) {
        best = score;
        fastest = c;
      }
    }
    return fastest;
  }

  /** {@code x} moved towards 0 by {@code resolution}, and 0 within it (soft threshold). */
  static double beyondResolution(double x, double resolution) {
    return Math.signum(x) * Math.max(0, Math.abs(x) - resolution);
  }

  /**
   * The relative variance of a candidate's median from the fast half of its 95 % interval (NaN
   * without one): timing outliers are only ever slow, and a round hit by one widens the slow half
   * without making the median any less sure.
   */
  private static double relativeVariance(Candidate c) {
    double sd = (c.finalMs() - c.ciLowMs()) / 1.96 / c.finalMs();
    return sd * sd;
  }
}
