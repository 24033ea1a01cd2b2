package org.hsdag.tune;

import java.util.function.LongSupplier;

/**
 * The wall clock of a tune session, from the command's start (so the cost-model build counts): the
 * run's seconds so far, earlier sessions of a resumed run included, where they went, and what a
 * measurement costs here, so that {@code --time} bounds the whole run: the search stops while the
 * final race still fits, and the race starts no round that no longer fits.
 */
public final class RunClock {
  private final LongSupplier nanos;
  private final long start;
  private double earlier;
  private double setupEnd = Double.NaN;
  private double baselinesEnd = Double.NaN;
  private double searchEnd = Double.NaN;
  private double fastestSeconds = Double.NaN;
  private long measureStart = -1;
  private long raceRoundStart = -1;
  private int raceRoundMeasurements;
  private double raceMean = Double.NaN;

  /**
   * A clock reading {@code nanos} (e.g. {@code System::nanoTime}), started at {@code startNanos} on it.
   */
  public RunClock(LongSupplier nanos, long startNanos) {
    this.nanos = nanos;
    this.start = startNanos;
  }

  /** A clock of the system's monotonic time, started now. */
  public static RunClock startingNow() {
    return new RunClock(System::nanoTime, System.nanoTime());
  }

  /** Earlier sessions of the run took {@code seconds} (their last logged elapsed time). */
  void continueAfter(double seconds) {
    earlier = Math.max(earlier, seconds);
  }

  /** The run's wall seconds so far, earlier sessions included. */
  public double elapsed() {
    return earlier + (nanos.getAsLong() - start) / 1e9;
  }

  void setupDone() {
    setupEnd = elapsed();
  }

  void baselinesDone() {
    baselinesEnd = elapsed();
  }

  void searchDone() {
    searchEnd = elapsed();
  }

  /** A measurement starts on the backend. */
  void measuring() {
    measureStart = nanos.getAsLong();
  }

  /** The measurement started last ended; {@code ok}: it ran (a failure or refusal says little of what one costs). */
  void measured(boolean ok) {
    if (measureStart >= 0 && ok) {
      double seconds = (nanos.getAsLong() - measureStart) / 1e9;
      fastestSeconds = Double.isNaN(fastestSeconds) ? seconds : Math.min(fastestSeconds, seconds);
    }
    measureStart = -1;
  }

  /**
   * What a race measurement is expected to cost before the race ran a round: the fastest successful
   * measurement of this session (a race re-measures placements compiled before, so it compiles no more
   * than the cheapest one did), 0 before any.
   */
  double raceMeasurementSeconds() {
    return Double.isNaN(fastestSeconds) ? 0 : fastestSeconds;
  }

  /**
   * A final-race round of {@code measurements} is about to start (or would): the round before it, if any,
   * tells what a race measurement costs (a placement compiled before re-measures faster than a new one).
   */
  void raceRound(int measurements) {
    if (raceRoundStart >= 0 && raceRoundMeasurements > 0) {
      raceMean = (nanos.getAsLong() - raceRoundStart) / 1e9 / raceRoundMeasurements;
    }
    raceRoundStart = nanos.getAsLong();
    raceRoundMeasurements = measurements;
  }

  /** What {@code count} race measurements would take: at the race's own mean once a round ran, else {@link #forMeasurements}. */
  double forRaceMeasurements(int count) {
    return Double.isNaN(raceMean) ? forMeasurements(count) : count * raceMean;
  }

  /** What {@code count} race measurements would take before the race ran a round ({@link #raceMeasurementSeconds}). */
  double forMeasurements(int count) {
    return count * raceMeasurementSeconds();
  }

  /** Where this session's time went so far, under the time limit {@code limitSeconds} (0: none). */
  TimeSpent spent(long limitSeconds) {
    double now = elapsed();
    double setup = orNow(setupEnd, now);
    double baselines = orNow(baselinesEnd, now);
    double search = orNow(searchEnd, now);
    return new TimeSpent(earlier, setup - earlier, baselines - setup, search - baselines, now - search, limitSeconds);
  }

  private static double orNow(double mark, double now) {
    return Double.isNaN(mark) ? now : mark;
  }
}
