package org.hsdag.search;

import java.util.List;

/**
 * The outcome of a final re-measurement.
 *
 * @param candidates every finalist with its final latency, in the order given
 * @param verdict the winner and why
 * @param interrupted whether a stop request cut it short (candidates and verdict are then incomplete)
 */
public record FinalResult(List<Candidate> candidates, Verdict verdict, boolean interrupted) {
  public FinalResult {
    candidates = List.copyOf(candidates);
  }
  /**
   * Who leaves the race early, in words to append to the rounds' description ({@link FinalRounds#outclassed},
   * {@link RaceRules}), or "" when the rounds are too few for any to leave early.
   */
  public static String earlyExitNote(int rounds) {
    return rounds > SearchEngine.MIN_ROUNDS_TO_RACE
        ? " (after " + SearchEngine.MIN_ROUNDS_TO_RACE + " rounds, a finalist of the search clearly slower than the"
            + " fastest or unable to end clearly faster than a single device, and a single device clearly slower"
            + " than another, get no more; the race ends when one is left; a single device over twice the fastest"
            + " one at its first measurement does not race)"
        : "";
  }
}
