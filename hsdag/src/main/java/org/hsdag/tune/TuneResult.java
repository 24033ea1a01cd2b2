package org.hsdag.tune;

import java.util.List;
import org.hsdag.search.Candidate;
import org.hsdag.search.Decision;
import org.hsdag.search.StopReason;

/**
 * The outcome of a tuning run.
 *
 * @param status how the session ended
 * @param stop why the search stopped
 * @param stopReason the same for humans, with the numbers
 * @param steps search steps (proposals, cache hits included)
 * @param measurements search measurements (placements actually timed)
 * @param cacheHits proposals answered from the cache
 * @param failures search measurements that failed
 * @param elapsedSeconds wall time, earlier sessions of a resumed run included
 * @param candidates final candidates, baselines first, in label order of the re-measurement
 * @param best the winner of the final re-measurement (a split placement must be clearly faster than
 *     the fastest single device, else that device wins), or null when nothing ran
 * @param decision how the winner was chosen
 * @param decisionText the same for humans
 * @param backend backend name
 * @param profile backend profile
 * @param simulated whether numbers are simulated
 * @param reference the device speedups are stated against ({@link org.hsdag.placement.DeviceKind#reference})
 * @param time where the wall time went (what {@code --time} bounds)
 */
public record TuneResult(
    RunStatus status,
    StopReason stop,
    String stopReason,
    int steps,
    int measurements,
    int cacheHits,
    int failures,
    double elapsedSeconds,
    List<Candidate> candidates,
    Candidate best,
    Decision decision,
    String decisionText,
    String backend,
    String profile,
    boolean simulated,
    String reference,
    TimeSpent time) {

  public TuneResult {
    candidates = List.copyOf(candidates);
  }

  /** The baseline speedups are stated against: the whole model on the {@link #reference} device, or null. */
  public Candidate referenceBaseline() {
    return baseline(reference);
  }

  /** The single-device baseline on {@code device}, or null. */
  public Candidate baseline(String device) {
    for (Candidate c : candidates) {
      if (c.baseline() && c.label().equals(org.hsdag.search.Finalist.baselineLabel(device))) {
        return c;
      }
    }
    return null;
  }

  /** The fastest single-device baseline that ran, or null. */
  public Candidate bestBaseline() {
    Candidate b = null;
    for (Candidate c : candidates) {
      if (c.baseline() && c.ok() && (b == null || c.finalMs() < b.finalMs())) {
        b = c;
      }
    }
    return b;
  }
}
