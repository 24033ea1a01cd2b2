package org.hsdag.cluster;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cluster.WireMessage.MeasureTask;

/**
 * Limits on every field of a {@link MeasureTask}, checked by a worker before it allocates anything
 * for the task: a task from a buggy or hostile member that asks for two billion runs, a thousand
 * devices or an input shape of a trillion elements is refused with the reason, never attempted. The
 * placement's length must further equal the model's node count ({@link MeasuringService}).
 */
final class TaskBounds {
  /** Timed runs of one measurement (tune's protocols use tens; a final re-measurement a few hundred). */
  static final int MAX_RUNS = 10_000;
  static final int MAX_WARMUP_RUNS = 10_000;
  static final int MAX_DEVICES = 64;
  static final int MAX_NAME = 128;
  /**
   * Characters of an {@code --input-shape} text: a run sized by lengths sends every dynamic input by
   * name (a decoder with past has a hundred).
   */
  static final int MAX_SHAPE_TEXT = 16_384;
  /** Elements of one input tensor. */
  static final long MAX_SHAPE_ELEMENTS = 1L << 31;

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern NUMBER = Pattern.compile("\\d+");

  private TaskBounds() {}

  /** Why {@code t} is out of bounds, or null when every field is within them. */
  static String problem(MeasureTask t) {
    MeasurementProtocol p = t.protocol();
    if (p == null) {
      return "no measurement protocol";
    }
    if (p.runs() > MAX_RUNS || p.warmupRuns() > MAX_WARMUP_RUNS) {
      return "the protocol asks for " + p.warmupRuns() + " warm-up and " + p.runs() + " timed runs (at most "
          + MAX_WARMUP_RUNS + " and " + MAX_RUNS + ")";
    }
    if (t.modelSha256() == null || !SHA256.matcher(t.modelSha256()).matches()) {
      return "the model hash is not a SHA-256 in hex";
    }
    if (t.backend() == null || t.profile() == null || t.backend().length() > MAX_NAME
        || t.profile().length() > MAX_NAME) {
      return "backend or profile missing or longer than " + MAX_NAME + " characters";
    }
    if (t.devices().isEmpty() || t.devices().size() > MAX_DEVICES) {
      return "the placement names " + t.devices().size() + " devices (1 to " + MAX_DEVICES + ")";
    }
    for (String d : t.devices()) {
      if (d == null || d.isEmpty() || d.length() > MAX_NAME) {
        return "a device name is empty or longer than " + MAX_NAME + " characters";
      }
    }
    for (int d : t.deviceOf()) {
      if (d < 0 || d >= t.devices().size()) {
        return "the placement puts a node on device index " + d + " of " + t.devices().size();
      }
    }
    return shapeProblem(t.inputShape());
  }

  /** Every tensor of an {@code --input-shape} text has at most {@link #MAX_SHAPE_ELEMENTS} elements. */
  static String shapeProblem(String shape) {
    if (shape == null) {
      return null;
    }
    if (shape.length() > MAX_SHAPE_TEXT) {
      return "the input shape text has " + shape.length() + " characters (at most " + MAX_SHAPE_TEXT + ")";
    }
    for (String tensor : shape.split(";", -1)) {
      long elements = 1;
      Matcher m = NUMBER.matcher(tensor.substring(tensor.lastIndexOf('=') + 1));
      while (m.find()) {
        String digits = m.group();
        if (digits.length() > 11) {
          return "input shape dimension " + digits + " is too large";
        }
        long dim = Long.parseLong(digits);
        elements = dim > MAX_SHAPE_ELEMENTS ? dim : elements * dim; // both factors at most 2^31: no overflow
        if (elements > MAX_SHAPE_ELEMENTS) {
          return "an input tensor of more than " + MAX_SHAPE_ELEMENTS + " elements (" + tensor.strip() + ")";
        }
      }
    }
    return null;
  }
}
