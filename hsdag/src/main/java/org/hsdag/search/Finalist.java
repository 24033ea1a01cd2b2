package org.hsdag.search;

import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;

/**
 * A placement entering the final re-measurement.
 *
 * @param label how tables name it ({@code CPU-only}, {@code step 98}, {@code placement})
 * @param baseline whether it is a single-device baseline
 * @param placement the placement
 * @param step the search step that found it, or -1
 * @param first its measurement so far, or null when it has none ({@code apply}); a finalist whose
 *     first measurement failed is not measured again
 */
public record Finalist(String label, boolean baseline, Placement placement, int step, Measurement first) {
  /** The single-device baseline label, e.g. {@code GPU.1-only}. */
  public static String baselineLabel(String device) {
    return device + "-only";
  }
}
