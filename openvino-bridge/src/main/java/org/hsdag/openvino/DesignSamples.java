package org.hsdag.openvino;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The designed-split measurements of a cost fit taken so far ({@link HeteroProfiling#fitCosts}), kept with the
 * profiled kernels ({@link ProfiledKernels#design}) so that a build stopped midway (a killed tune) continues where
 * it stopped instead of measuring them again.
 *
 * @param planned the measurements the fit plans in all (designed placements times rounds; fewer when one fails)
 * @param placements each designed placement measured at least once, in design order
 */
public record DesignSamples(int planned, List<Sampled> placements) {
  /** Nothing measured yet. */
  public static final DesignSamples NONE = new DesignSamples(0, List.of());

  public DesignSamples {
    placements = placements == null ? List.of() : List.copyOf(placements);
  }

  /**
   * One designed placement's measurements.
   *
   * @param label the design's label ({@code CPU alone}, {@code 2 boundaries CPU first}, ...)
   * @param deviceOfOp the cost model op's device, as designed (a saved sample counts only for the same placement)
   * @param micros its latency in each round measured so far, µs
   * @param failed why it could not be measured (a refusal is not retried), or null
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out, never shared; a record for its JSON form
  public record Sampled(String label, int[] deviceOfOp, List<Double> micros, String failed) {
    public Sampled {
      deviceOfOp = deviceOfOp.clone();
      micros = micros == null ? List.of() : List.copyOf(micros);
    }

    @Override
    public int[] deviceOfOp() {
      return deviceOfOp.clone();
    }

    /** Whether this is the design {@code label} placing the ops as {@code assignment} does. */
    boolean is(String otherLabel, int[] assignment) {
      return label.equals(otherLabel) && Arrays.equals(deviceOfOp, assignment);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Sampled s && s.is(label, deviceOfOp) && s.micros.equals(micros)
          && java.util.Objects.equals(s.failed, failed);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(label, Arrays.hashCode(deviceOfOp), micros, failed);
    }

    @Override
    public String toString() {
      return label + " " + micros + (failed == null ? "" : " failed: " + failed);
    }
  }

  /** What was saved of the design {@code label} placing the ops as {@code deviceOfOp} does. */
  Optional<Sampled> of(String label, int[] deviceOfOp) {
    return placements.stream().filter(s -> s.is(label, deviceOfOp)).findFirst();
  }

  /** Measurements taken (a failed placement's attempt counts once). */
  public int measurements() {
    return placements.stream().mapToInt(s -> s.micros().size() + (s.failed() == null ? 0 : 1)).sum();
  }
}
