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
}
