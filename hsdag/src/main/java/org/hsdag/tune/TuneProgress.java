package org.hsdag.tune;

/**
 * A snapshot of the search for progress displays.
 *
 * @param step search steps done (proposals, cache hits included)
 * @param measurements search measurements done (placements actually timed)
 * @param budget the measurement budget
 * @param lastMs latency of the last step (NaN when it failed)
 * @param bestMs best search latency so far, single-device baselines included (NaN if none)
 * @param referenceMs the reference device's single-device baseline (NaN before it ran or when it cannot run the model)
 * @param reference how that baseline is labelled, e.g. {@code CPU-only} ({@link org.hsdag.placement.DeviceKind#reference})
 * @param elapsedSeconds wall time of the run so far, earlier sessions of a resumed run included
 * @param backend backend name
 * @param profile backend profile
 * @param simulated whether the numbers are simulated
 */
public record TuneProgress(
    int step,
    int measurements,
    int budget,
    double lastMs,
    double bestMs,
    double referenceMs,
    String reference,
    double elapsedSeconds,
    String backend,
    String profile,
    boolean simulated) {

  /** Speedup of the best so far over the reference baseline, NaN when either is unknown. */
  public double speedupOverReference() {
    return referenceMs / bestMs;
  }
}
