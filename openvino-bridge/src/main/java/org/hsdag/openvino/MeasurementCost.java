package org.hsdag.openvino;

import org.hsdag.backend.Measurement;

/**
 * Where the wall time of one measurement went, in milliseconds (0 for a phase it never reached):
 * {@code prepareMillis} is hsdag's own work before OpenVINO compiles (resolving the placement,
 * checking names, reading the model on first use, setting every node's affinity),
 * {@code compileMillis} OpenVINO's {@code compile_model} on HETERO with its infer request,
 * {@code inferMillis} filling the inputs plus the warm-up and timed inferences.
 */
public record MeasurementCost(Measurement measurement, double prepareMillis, double compileMillis,
    double inferMillis) {
  /** A stage's start time when the measurement never reached it. */
  static final long NOT_REACHED = Long.MIN_VALUE;

  /** The cost of a measurement started at {@code start} that ended before compiling. */
  static MeasurementCost beforeCompile(Measurement m, long start) {
    return since(m, start, NOT_REACHED, NOT_REACHED);
  }

  /** The cost of a measurement started at {@code start} whose compile and inference started as given ({@link #NOT_REACHED}: never). */
  static MeasurementCost since(Measurement m, long start, long compiling, long inferring) {
    long end = System.nanoTime();
    double prepare = ((compiling == NOT_REACHED ? end : compiling) - start) / 1e6;
    double compile = compiling == NOT_REACHED ? 0 : ((inferring == NOT_REACHED ? end : inferring) - compiling) / 1e6;
    double infer = inferring == NOT_REACHED ? 0 : (end - inferring) / 1e6;
    return new MeasurementCost(m, prepare, compile, infer);
  }
}
