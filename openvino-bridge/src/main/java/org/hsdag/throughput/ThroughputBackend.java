package org.hsdag.throughput;

import java.util.SplittableRandom;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.cost.SimGraph;

/**
 * A simulator that measures throughput instead of latency: each sample is the time per inference
 * (ms) at steady state with N requests in flight ({@link PipelineThroughput}), so everything that
 * minimises a measured figure — the search, the final race, the baselines — maximises inferences
 * per second. Failures, devices, support and the cost model are the simulator's own. Only the
 * simulator: the real backend has no asynchronous requests yet ({@link #wrap} refuses it).
 */
public final class ThroughputBackend extends ForwardingBackend implements KeyedMeasurement, ThroughputMeasuring {
  /** Salt so throughput noise is not the latency noise of the same key. */
  private static final long SALT = 0x7A3C_91E5_D24B_6F01L;

  private final SimBackend sim;
  private final int requested;
  private final SplittableRandom rng;

  private ThroughputBackend(LatencyBackend delegate, SimBackend sim, int requested) {
    super(delegate);
    this.sim = sim;
    this.requested = requested;
    this.rng = new SplittableRandom(sim.options().seed() ^ SALT);
  }

  /**
   * {@code backend} measuring throughput with {@code requests} in flight (0: the devices of each
   * placement + 1).
   *
   * @throws UnsupportedOperationException when {@code backend} is not the simulator
   */
  public static ThroughputBackend wrap(LatencyBackend backend, int requests) {
    if (requests < 0) {
      throw new IllegalArgumentException("--requests must be at least 1 (got " + requests + ")");
    }
    SimBackend sim = backend.capability(SimBackend.class).orElseThrow(() -> new UnsupportedOperationException(
        "throughput is measured only by the simulator so far (backend " + backend.name() + " times one request at a "
            + "time); use --backend sim or --objective latency"));
    return new ThroughputBackend(backend, sim, requests);
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
    return true;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    SplittableRandom noise;
    synchronized (rng) {
      noise = rng.split();
    }
    return measure(graph, placement, protocol, noise, () -> delegate.measure(graph, placement, protocol));
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
    SplittableRandom noise = new SplittableRandom((sim.options().seed() ^ SALT) * 0x9E3779B97F4A7C15L + key);
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
    sim.options().noise().sample(f.periodMillis(), protocol.warmupRuns(), samples, noise);
    return Measurement.of(samples, protocol, sim.evaluate(graph, placement).subModels(), name(), profile());
  }

  /** Both noise-free figures of a placement, or null when it cannot run. */
  @Override
  public ObjectiveFigures figures(OpGraph graph, Placement placement) {
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
