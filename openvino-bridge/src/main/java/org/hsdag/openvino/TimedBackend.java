package org.hsdag.openvino;

import java.util.Locale;
import java.util.Optional;
import org.hsdag.backend.CallTiming;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.backend.ThroughputMeasurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The real backend, counting where a whole {@code tune} spends its time: every measurement goes
 * through {@link OpenVinoBackend#measureWithCost}, so OpenVINO's compile and inference time is
 * known apart from hsdag's; the cost-model build ({@code costModel}: read, query and profiling
 * compiles) and {@code query_model} ({@code supports}) are timed whole. Measurements run without
 * the backend's timeout, as a default tune does. Not thread-safe beyond what the tuner needs (it
 * measures from one thread). A real {@code tune} states the same shares in its summary and report
 * ({@link #shares}); {@code bench real-runtime-figures --sections tune} prints them in detail.
 */
public final class TimedBackend extends ForwardingBackend implements ThroughputMeasurement, CallTiming {
  private final OpenVinoBackend openVino;
  private double measureMs;
  private double prepareMs;
  private double compileMs;
  private double inferMs;
  private double costModelMs;
  private double costModelRuntimeMs;
  private double supportsMs;
  private int measurements;
  private long firstCallNs = Long.MIN_VALUE;
  private long lastReturnNs = Long.MIN_VALUE;
  private final boolean owns;
  /** The runtime's busy time before this backend opened (starting it, registering the test devices): not counted. */
  private final long busyAtOpenNs;

  /** Times {@code delegate}, which whoever opened it closes. */
  public TimedBackend(OpenVinoBackend delegate) {
    this(delegate, false);
  }

  TimedBackend(OpenVinoBackend delegate, boolean owns) {
    super(delegate);
    this.openVino = delegate;
    this.owns = owns;
    this.busyAtOpenNs = busyNs();
  }

  /** Wall time waiting on the runtime's calls so far, every call; -1 where the runtime does not count it. */
  private long busyNs() {
    java.util.Map<String, Long> busy = openVino.runtimeBusyNanos();
    return busy.isEmpty() ? -1 : busy.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Totals so far, milliseconds of wall time inside each kind of backend call.
   *
   * @param measureMs whole {@code measure} calls (prepare + compile + infer + releasing the compiled model)
   * @param prepareMs hsdag's part of them before compiling (placement, names, affinities, first read_model)
   * @param compileMs OpenVINO compile_model + infer request
   * @param inferMs OpenVINO input filling, warm-up and timed inferences
   * @param costModelMs building the cost model (profiling compiles and runs on each device, then hsdag's tables)
   * @param costModelRuntimeMs the runtime's calls while building it (its profiling); {@code costModelMs} where the
   *     runtime does not count its calls
   * @param supportsMs query_model per device
   * @param measurements measure calls
   * @param firstCallNs {@link System#nanoTime} when the first backend call began ({@code Long.MIN_VALUE}: none yet)
   * @param lastReturnNs {@link System#nanoTime} when the last backend call returned
   * @param runtimeMs every call to the runtime since this backend opened (the phases above, reading the model, the
   *     runtime's shape inference on a split's boundaries, setting affinities), or -1 where it is not counted
   */
  public record Totals(double measureMs, double prepareMs, double compileMs, double inferMs, double costModelMs,
      double costModelRuntimeMs, double supportsMs, int measurements, long firstCallNs, long lastReturnNs,
      double runtimeMs) {
    /** The rest of the measure calls: releasing each compiled model (OpenVINO's destructors) after its runs. */
    public double releaseMs() {
      return measureMs - prepareMs - compileMs - inferMs;
    }

    /** The runtime's calls outside the phases named: reading the model, boundary shape inference, affinities. */
    public double otherRuntimeMs() {
      return Math.max(0, runtimeMs - phasesMs());
    }

    /** OpenVINO's part of the wall: the phases named, and every other call to the runtime where it is counted. */
    public double openVinoMs() {
      return phasesMs() + otherRuntimeMs();
    }

    private double phasesMs() {
      return compileMs + inferMs + releaseMs() + costModelRuntimeMs + supportsMs;
    }
  }

  public synchronized Totals totals() {
    long busy = busyNs();
    return new Totals(measureMs, prepareMs, compileMs, inferMs, costModelMs, costModelRuntimeMs, supportsMs,
        measurements, firstCallNs, lastReturnNs, busy < 0 ? -1 : (busy - busyAtOpenNs) / 1e6);
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
    return timed(() -> openVino.measureWithCost(graph, placement, protocol));
  }

  /** A throughput measurement, timed by phase as a latency one. */
  @Override
  public Measurement measureThroughput(OpGraph graph, Placement placement, MeasurementProtocol protocol,
      int requests) {
    return timed(() -> openVino.measureThroughputWithCost(graph, placement, protocol, requests));
  }

  private Measurement timed(java.util.function.Supplier<MeasurementCost> measurement) {
    long t = System.nanoTime();
    MeasurementCost c = measurement.get();
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
          long busy = busyNs();
          try {
            return openVino.costModel(graph);
          } finally {
            long end = System.nanoTime();
            // hsdag's tables and fit between the runtime's calls are hsdag's own time, where the runtime counts them.
            double runtime = busy < 0 ? (end - t) / 1e6 : (busyNs() - busy) / 1e6;
            add(t, end, () -> {
              costModelMs += (end - t) / 1e6;
              costModelRuntimeMs += runtime;
            });
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

        @Override
        public void costModelProgress(OpGraph graph, java.util.function.Consumer<String> sink) {
          openVino.costModelProgress(graph, sink);
        }

        @Override
        public boolean costModelPending(OpGraph graph) {
          return openVino.costModelPending(graph);
        }

        @Override
        public Optional<String> costModelMeasured(OpGraph graph) {
          return openVino.costModelMeasured(graph);
        }

        @Override
        public Optional<FitError> costModelError(OpGraph graph) {
          return openVino.costModelError(graph);
        }

        @Override
        public Optional<org.hsdag.cost.BoundaryOracle> runtimeBoundaryOracle(OpGraph graph) {
          return openVino.runtimeBoundaryOracle(graph);
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

  /**
   * Where {@code wallSeconds} went: {@code wall 190.2 s (...): OpenVINO compile 95.0 s (50 %),
   * inference 56.0 s (29 %), ...; hsdag's own 25.5 s (13.4 %)}. hsdag's own time is the wall less every OpenVINO call
   * (compile, inference, releasing compiled models, the cost model's profiling, query_model, and where the runtime
   * counts its calls every other one: reading the model, its shape inference on a split's boundaries, setting
   * affinities; hsdag's tables and fit inside the cost-model build are hsdag's), as {@code bench
   * real-runtime-figures --sections tune} counts it.
   */
  @Override
  public String shares(Elsewhere elsewhere, double wallSeconds) {
    Totals t = totals();
    double wall = wallSeconds * 1e3;
    double own = wall - t.openVinoMs() - elsewhere.millis();
    String away = elsewhere.measurements() == 0 && elsewhere.millis() == 0 ? ""
        : String.format(Locale.ROOT, "waiting for %s %.1f s (%.0f %%) for %d measurements; ", elsewhere.where(),
            elsewhere.millis() / 1e3, 100 * elsewhere.millis() / wall, elsewhere.measurements());
    return String.format(Locale.ROOT, "wall %.1f s (this session, since the command started): OpenVINO compile %.1f s "
        + "(%.0f %%), inference %.1f s (%.0f %%), releasing compiled models %.1f s, cost-model profiling %.1f s (%.0f %%), "
        + "query_model %.1f s, reading the model, boundary shape inference and affinities %.1f s; %shsdag's own %.1f s "
        + "(%.1f %%) over %d measure calls", wall / 1e3,
        t.compileMs() / 1e3, 100 * t.compileMs() / wall, t.inferMs() / 1e3, 100 * t.inferMs() / wall,
        t.releaseMs() / 1e3, t.costModelRuntimeMs() / 1e3, 100 * t.costModelRuntimeMs() / wall, t.supportsMs() / 1e3,
        t.otherRuntimeMs() / 1e3, away, own / 1e3, 100 * own / wall, t.measurements());
  }

  /** Closes the real backend when {@link OpenVinoBackend#timed} opened this around it; otherwise whoever opened it closes it. */
  @Override
  public void close() {
    if (owns) {
      delegate.close();
    }
  }
}
