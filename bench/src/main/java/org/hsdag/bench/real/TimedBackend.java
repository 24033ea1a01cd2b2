package org.hsdag.bench.real;

import java.util.Optional;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The real backend, counting where a whole {@code tune} spends its time: every measurement goes
 * through {@link OpenVinoBackend#measureWithCost}, so OpenVINO's compile and inference time is
 * known apart from hsdag's; the cost-model build ({@code costModel}: read, query and profiling
 * compiles) and {@code query_model} ({@code supports}) are timed whole. Measurements run without
 * the backend's timeout, as a default tune does. Not thread-safe beyond what the tuner needs (it
 * measures from one thread).
 */
final class TimedBackend extends ForwardingBackend {
  private final OpenVinoBackend openVino;
  private double measureMs;
  private double prepareMs;
  private double compileMs;
  private double inferMs;
  private double costModelMs;
  private double supportsMs;
  private int measurements;
  private long firstCallNs = Long.MIN_VALUE;
  private long lastReturnNs = Long.MIN_VALUE;

  TimedBackend(OpenVinoBackend delegate) {
    super(delegate);
    this.openVino = delegate;
  }

  /**
   * Totals so far, milliseconds of wall time inside each kind of backend call.
   *
   * @param measureMs whole {@code measure} calls (prepare + compile + infer + releasing the compiled model)
   * @param prepareMs hsdag's part of them before compiling (placement, names, affinities, first read_model)
   * @param compileMs OpenVINO compile_model + infer request
   * @param inferMs OpenVINO input filling, warm-up and timed inferences
   * @param costModelMs building the cost model (profiling compiles and runs on each device, then hsdag's tables)
   * @param supportsMs query_model per device
   * @param measurements measure calls
   * @param firstCallNs {@link System#nanoTime} when the first backend call began ({@code Long.MIN_VALUE}: none yet)
   * @param lastReturnNs {@link System#nanoTime} when the last backend call returned
   */
  record Totals(double measureMs, double prepareMs, double compileMs, double inferMs, double costModelMs,
      double supportsMs,
      int measurements, long firstCallNs, long lastReturnNs) {
    /** The rest of the measure calls: releasing each compiled model (OpenVINO's destructors) after its runs. */
    double releaseMs() {
      return measureMs - prepareMs - compileMs - inferMs;
    }
  }

  synchronized Totals totals() {
    return new Totals(measureMs, prepareMs, compileMs, inferMs, costModelMs, supportsMs, measurements, firstCallNs,
        lastReturnNs);
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    long t = System.nanoTime();
    try {
      return delegate.supports(graph, devices);
    } finally {
      long end = System.nanoTime();
      add(t, end, () -> supportsMs += (end - t) / 1e6);
    }
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    long t = System.nanoTime();
    OpenVinoBackend.MeasurementCost c = openVino.measureWithCost(graph, placement, protocol);
    long end = System.nanoTime();
    double wall = (end - t) / 1e6;
    add(t, end, () -> {
      measureMs += wall;
      prepareMs += c.prepareMillis();
      compileMs += c.compileMillis();
      inferMs += c.inferMillis();
      measurements++;
    });
    return c.measurement();
  }

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    if (type == CostModelSource.class) {
      // Timed, and otherwise the delegate's: a timed tune saves its cost model's measurements as any real run does.
      CostModelSource timed = new CostModelSource() {
        @Override
        public org.hsdag.cost.HeteroCostModel costModel(OpGraph graph) {
          long t = System.nanoTime();
          try {
            return openVino.costModel(graph);
          } finally {
            long end = System.nanoTime();
            add(t, end, () -> costModelMs += (end - t) / 1e6);
          }
        }

        @Override
        public Optional<String> costModelMeasurements(OpGraph graph) {
          return openVino.costModelMeasurements(graph);
        }

        @Override
        public void reuseCostModelMeasurements(OpGraph graph, String measurements) {
          openVino.reuseCostModelMeasurements(graph, measurements);
        }
      };
      return Optional.of(type.cast(timed));
    }
    return super.capability(type);
  }

  private synchronized void add(long start, long end, Runnable update) {
    if (firstCallNs == Long.MIN_VALUE) {
      firstCallNs = start;
    }
    lastReturnNs = end;
    update.run();
  }

  /** The delegate is closed by whoever opened it. */
  @Override
  public void close() {}
}
