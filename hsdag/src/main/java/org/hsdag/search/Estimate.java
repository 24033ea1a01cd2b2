package org.hsdag.search;

import org.hsdag.backend.Measurement;

/**
 * A latency a strategy is told instead of a measurement: a cost model's estimate for a placement not
 * worth measuring. A learner may learn from it like from a measurement, but never treat it as one
 * (e.g. as the best placement to imitate).
 */
public final class Estimate {
  /** The backend name an estimate carries. */
  public static final String BACKEND = "cost-model estimate";

  private Estimate() {}

  /** An estimate of {@code millis}. */
  public static Measurement of(double millis) {
    return new Measurement(true, new double[] {millis}, millis, millis, millis, 0, null, BACKEND,
        "corrected cost model");
  }

  /** Whether {@code m} is an estimate rather than a measurement. */
  public static boolean is(Measurement m) {
    return BACKEND.equals(m.backend());
  }
}
