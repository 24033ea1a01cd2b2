package org.hsdag.throughput;

/**
 * Both figures of one placement: the latency of one inference and the throughput with
 * {@code requests} in flight, from one backend and profile (simulated when the backend is).
 *
 * @param latencyMillis one inference alone, ms
 * @param periodMillis time per inference at steady state with {@code requests} in flight, ms
 * @param requests inferences in flight
 */
public record ObjectiveFigures(double latencyMillis, double periodMillis, int requests) {
  /** Inferences per second with {@link #requests} in flight. */
  public double inferencesPerSecond() {
    return 1000.0 / periodMillis;
  }

  /** The figure an objective minimises, ms: the latency, or the time per inference. */
  public double millis(Objective objective) {
    return objective == Objective.THROUGHPUT ? periodMillis : latencyMillis;
  }
}
