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
 * @param timeLimitSeconds the search's time limit ({@code --time}), 0 for none
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
    boolean simulated,
    long timeLimitSeconds) {

  /** A budget this large means "until the time limit" ({@code --time} without {@code --budget}). */
  public static final int UNLIMITED_BUDGET = 1_000_000;

  /**
   * {@code 12/120 measurements}, or with a time limit {@code 12 measurements, 8 of 20 s} (the budget
   * too when one was given): what bounds the search, in the units that bound it.
   */
  public String budgetText() {
    String done = measurements + (budget >= UNLIMITED_BUDGET && timeLimitSeconds > 0 ? "" : "/" + budget)
        + " measurement" + (measurements == 1 && budget >= UNLIMITED_BUDGET ? "" : "s");
    return timeLimitSeconds > 0
        ? String.format(java.util.Locale.ROOT, "%s, %.0f of %d s", done,
            Math.min(elapsedSeconds, (double) timeLimitSeconds),
            timeLimitSeconds)
        : done;
  }

  /** Speedup of the best so far over the reference baseline, NaN when either is unknown. */
  public double speedupOverReference() {
    return referenceMs / bestMs;
  }
}
