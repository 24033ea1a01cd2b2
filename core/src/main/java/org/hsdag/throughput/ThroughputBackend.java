package org.hsdag.throughput;

import java.util.SplittableRandom;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.ThroughputMeasurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.SimGraph;

/**
 * A backend that measures throughput instead of latency: each sample is the time per inference
 * (ms) at steady state with N requests in flight, so everything that minimises a measured figure —
 * the search, the final race, the baselines — maximises inferences per second. On the simulator the
 * figure is {@link PipelineThroughput}'s model of HETERO's pipeline (failures, devices, support and
 * the cost model are the simulator's own); on a backend with the {@link ThroughputMeasurement}
 * capability (the openvino backend: N asynchronous infer requests) it is measured on the runtime,
 * and there are no noise-free {@link #figures}. {@link #wrap} refuses any other backend.
 */
public final class ThroughputBackend extends ForwardingBackend implements KeyedMeasurement, ThroughputMeasuring {
  /** Salt so throughput noise is not the latency noise of the same key. */
  private static final long SALT = 0x7A3C_91E5_D24B_6F01L;

  /** The simulator, or null when {@link #real} measures. */
  private final PipelineSimulator sim;
  /** The runtime that measures throughput itself, or null on the simulator. */
  private final ThroughputMeasurement real;
  private final int requested;
  private final SplittableRandom rng;

  private ThroughputBackend(LatencyBackend delegate, PipelineSimulator sim, ThroughputMeasurement real, int requested) {
    super(delegate);
    this.sim = sim;
    this.real = real;
    this.requested = requested;
    this.rng = new SplittableRandom(sim == null ? 0 : sim.noiseSeed() ^ SALT);
  }

  /**
   * {@code backend} measuring throughput with {@code requests} in flight (0: the devices of each
   * placement + 1).
   *
   * @throws UnsupportedOperationException when {@code backend} is neither the simulator nor has {@link ThroughputMeasurement}
   */
  public static ThroughputBackend wrap(LatencyBackend backend, int requests) {
    if (requests < 0) {
      throw new IllegalArgumentException("--requests must be at least 1 (got " + requests + ")");
    }
    var sim = backend.capability(PipelineSimulator.class);
    if (sim.isPresent()) {
      return new ThroughputBackend(backend, sim.get(), null, requests);
    }
    ThroughputMeasurement real = backend.capability(ThroughputMeasurement.class)
        .orElseThrow(() -> new UnsupportedOperationException("backend " + backend.name() + " cannot measure throughput "
            + "(it times one request at a time); use --backend sim, --backend openvino or --objective latency"));
    return new ThroughputBackend(backend, null, real, requests);
  }

  /**
   * Keyed noise is the simulator's: a runtime's throughput is measured, so {@link KeyedMeasurement}
   * is offered only when the delegate offers it.
   */
  @Override
  public <T> java.util.Optional<T> capability(Class<T> type) {
    if (real != null && type == KeyedMeasurement.class) {
      return delegate.capability(type);
    }
    return super.capability(type);
  }

  /** Requests in flight for a placement over {@code devices}: the number asked for, else the devices + 1. */
  public static int requestsFor(int requested, DeviceSet devices) {
    return ThroughputMeasuring.requestsFor(requested, devices);
  }

  /** The requests asked for (0: the devices of each placement + 1). */
  @Override
  public int requested() {
    return requested;
  }

  @Override
  public boolean simulated() {
    return real == null || delegate.simulated();
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    if (real != null) {
      return real.measureThroughput(graph, placement, protocol, requestsFor(requested, placement.devices()));
    }
    SplittableRandom noise;
    synchronized (rng) {
      noise = rng.split();
    }
    return measure(graph, placement, protocol, noise, () -> delegate.measure(graph, placement, protocol));
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
    if (real != null) {
      return measure(graph, placement, protocol);
    }
    SplittableRandom noise = new SplittableRandom((sim.noiseSeed() ^ SALT) * 0x9E3779B97F4A7C15L + key);
    return measure(graph, placement, protocol, noise, () -> sim.measure(graph, placement, protocol, key));
  }

  private Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, SplittableRandom noise,
      java.util.function.Supplier<Measurement> failure) {
    ObjectiveFigures f = figures(graph, placement);
    if (f == null) {
      // The simulator's own failure (no noise drawn for a placement that cannot run).
      return failure.get();
    }
    double[] samples = new double[protocol.runs()];
    sim.sampleNoise(f.periodMillis(), protocol.warmupRuns(), samples, noise);
    return Measurement.of(samples, protocol, sim.evaluate(graph, placement).subModels(), name(), profile());
  }

  /** Whether the figures are measured on a runtime ({@link ThroughputMeasurement}) rather than simulated. */
  public boolean measuredOnRuntime() {
    return real != null;
  }

  /** Both noise-free figures of a placement on the simulator; null when it cannot run, or on a runtime (no noise-free figures). */
  @Override
  public ObjectiveFigures figures(OpGraph graph, Placement placement) {
    if (sim == null) {
      return null;
    }
    SimGraph.Evaluation ev;
    try {
      ev = sim.evaluate(graph, placement);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (!ev.ok()) {
      return null;
    }
    return ObjectiveFigures.of(sim.costModel(graph), sim.opDevices(graph, placement),
        requestsFor(requested, placement.devices()));
  }
}
