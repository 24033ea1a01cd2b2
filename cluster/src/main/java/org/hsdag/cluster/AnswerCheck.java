package org.hsdag.cluster;

import java.util.Arrays;
import org.hsdag.backend.Measurement;
import org.hsdag.cluster.WireMessage.MeasureTask;

/**
 * The coordinator's plausibility check of a worker's measurement, on top of the try's token: the
 * numbers must be ones the task's backend can have produced under the task's protocol. A latency
 * that is negative, zero, NaN or infinite, samples of the wrong count, a latency that is not the
 * protocol's statistic of the samples, an interval that does not hold it, or another backend's name
 * makes the answer a failed try (logged), never a measurement.
 */
final class AnswerCheck {
  private AnswerCheck() {}

  /** Why {@code m} cannot be an honest answer to {@code task}, or null when it can. */
  static String problem(MeasureTask task, Measurement m) {
    if (!task.backend().equals(m.backend()) || !task.profile().equals(m.profile())) {
      return "measured with " + m.backend() + "/" + m.profile() + ", the task asks for " + task.backend() + "/"
          + task.profile();
    }
    if (!m.ok()) {
      return null; // a failed measurement carries its reason and no number
    }
    double[] samples = m.samplesMillis();
    if (samples.length < 1 || samples.length > task.protocol().runs()) {
      return samples.length + " samples for a protocol of " + task.protocol().runs() + " timed runs";
    }
    if (Arrays.stream(samples).anyMatch(x -> !(x > 0) || Double.isInfinite(x))) {
      return "a sample that is not a positive finite time";
    }
    double expected = task.protocol().reduce(samples);
    if (!(m.latencyMillis() > 0) || Double.compare(expected, m.latencyMillis()) != 0) {
      return "latency " + m.latencyMillis() + " ms is not the protocol's statistic of its samples (" + expected
          + " ms)";
    }
    boolean interval = Double.isFinite(m.ciLowMillis()) && Double.isFinite(m.ciHighMillis());
    if (interval && !(m.ciLowMillis() <= m.latencyMillis() && m.latencyMillis() <= m.ciHighMillis())) {
      return "latency " + m.latencyMillis() + " ms outside its own interval [" + m.ciLowMillis() + ", "
          + m.ciHighMillis() + "]";
    }
    return null;
  }
}
