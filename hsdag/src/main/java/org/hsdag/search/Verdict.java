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
  /** The verdict over {@code candidates}. */
  public static Verdict of(List<Candidate> candidates) {
    Candidate fastest = null;
    Candidate bestBaseline = null;
    for (Candidate c : candidates) {
      if (c.ok() && (fastest == null || c.finalMs() < fastest.finalMs())) {
        fastest = c;
      }
      if (c.ok() && c.baseline() && (bestBaseline == null || c.finalMs() < bestBaseline.finalMs())) {
        bestBaseline = c;
      }
    }
    if (fastest == null) {
      return new Verdict(Decision.NOTHING_RAN, null, "no candidate ran");
    }
    if (fastest.baseline()) {
      return new Verdict(Decision.SINGLE_DEVICE_FASTEST, fastest, fastest.label() + " is the fastest");
    }
    if (bestBaseline == null) {
      return new Verdict(Decision.SPLIT_WINS, fastest, fastest.label() + " is the fastest (no single device ran)");
    }
    if (fastest.clearlyFasterThan(bestBaseline)) {
      return new Verdict(Decision.SPLIT_WINS, fastest, String.format(Locale.ROOT,
          "%s measured %.3f ms, clearly faster than %s (%.3f ms; the 95%% intervals do not overlap)",
          fastest.label(), fastest.finalMs(), bestBaseline.label(), bestBaseline.finalMs()));
    }
    return new Verdict(Decision.SPLIT_WITHIN_NOISE, bestBaseline, String.format(Locale.ROOT,
        "%s measured %.3f ms, within the noise of %s (%.3f ms; the 95%% intervals overlap), so the single device is kept",
        fastest.label(), fastest.finalMs(), bestBaseline.label(), bestBaseline.finalMs()));
  }
}
