package org.hsdag.throughput;

import org.hsdag.cost.HeteroCostModel;

/**
 * Both figures of one placement: the latency of one inference and the throughput with
 * {@code requests} in flight, from one backend and profile (simulated when the backend is).
 *
 * @param latencyMillis one inference alone, ms
 * @param periodMillis time per inference at steady state with {@code requests} in flight, ms
 * @param requests inferences in flight
 */
public record ObjectiveFigures(double latencyMillis, double periodMillis, int requests) {
  /**
   * Both figures of a feasible placement given as a device per op of {@code model}, noise-free:
   * the latency as {@link HeteroCostModel#evaluate} gives it, the time per inference as {@link
   * PipelineThroughput#simulatedPeriodMicros} does.
   */
  public static ObjectiveFigures of(HeteroCostModel model, int[] deviceOfOp, int requests) {
    HeteroCostModel.Evaluation e = model.evaluate(deviceOfOp);
    if (!e.ok()) {
      throw new IllegalArgumentException(
          "the placement cannot run: op " + e.failedOp() + " on device " + e.failedDevice());
    }
    double period = PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, deviceOfOp), requests);
    return new ObjectiveFigures(e.micros() / 1000.0, period / 1000.0, requests);
  }

  /** Inferences per second with {@link #requests} in flight. */
  public double inferencesPerSecond() {
    return 1000.0 / periodMillis;
  }

  /** The figure an objective minimises, ms: the latency, or the time per inference. */
  public double millis(Objective objective) {
    return objective == Objective.THROUGHPUT ? periodMillis : latencyMillis;
  }
}
