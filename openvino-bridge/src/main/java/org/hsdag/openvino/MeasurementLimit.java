package org.hsdag.openvino;

import java.time.Duration;
import java.util.Locale;

/**
 * The deadline of the next real measurement in the runtime child: a fixed one ({@code
 * --measure-timeout}), or by default {@value #FACTOR} × the slowest measurement that succeeded so
 * far (its whole wall time, compile included; the first ones are a tune's single-device baselines),
 * at least {@link #FLOOR}; before any succeeded, {@link #FIRST}. Mutable, owned by one backend.
 */
final class MeasurementLimit {
  static final Duration FLOOR = Duration.ofSeconds(30);
  static final int FACTOR = 10;
  /** Before any measurement succeeded: room for a first compile of a large model on a busy machine. */
  static final Duration FIRST = Duration.ofMinutes(10);

  private Duration fixed;
  private long slowestNanos;

  /** A fixed deadline for every measurement, or null for the default rule. */
  synchronized void fixed(Duration limit) {
    if (limit != null && (limit.isNegative() || limit.isZero())) {
      throw new IllegalArgumentException("a measurement deadline must be positive (got " + limit + ")");
    }
    fixed = limit;
  }

  /** A measurement succeeded after {@code wallNanos} (compile included). */
  synchronized void succeeded(long wallNanos) {
    slowestNanos = Math.max(slowestNanos, wallNanos);
  }

  /** The deadline of the next measurement. */
  synchronized Duration next() {
    if (fixed != null) {
      return fixed;
    }
    if (slowestNanos == 0) {
      return FIRST;
    }
    long scaled = slowestNanos > Long.MAX_VALUE / FACTOR ? Long.MAX_VALUE : slowestNanos * FACTOR;
    return Duration.ofNanos(Math.max(FLOOR.toNanos(), scaled));
  }

  /**
   * Runs {@code measurement} on the isolated {@code runtime} within {@link #next()}; a success's wall time feeds the
   * rule. A child that crashes or does not answer in time makes the measurement fail ({@link RuntimeLostException}).
   */
  MeasurementCost bounded(OpenVinoRuntime runtime, java.util.function.Supplier<MeasurementCost> measurement) {
    long t = System.nanoTime();
    MeasurementCost c;
    runtime.deadline(next());
    try {
      c = measurement.get();
    } finally {
      runtime.deadline(null);
    }
    if (c.measurement().ok()) {
      succeeded(System.nanoTime() - t);
    }
    return c;
  }

  /** The rule in words, with the deadline it gives now. */
  String rule() {
    if (fixed != null) {
      return describe(fixed) + " per measurement (--measure-timeout)";
    }
    return "max(" + describe(FLOOR) + ", " + FACTOR + " x the slowest measurement so far, compile included; "
        + describe(FIRST) + " before one succeeded), now " + describe(next()) + "; --measure-timeout sets it";
  }

  /** {@code 30 s}, {@code 1.5 s}, {@code 250 ms}. */
  static String describe(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + " ms";
    }
    return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
