package org.hsdag.backend;

import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A real backend whose every measurement carries the foreign load during it
 * ({@link Measurement#load()}): the probe is read before and after each measurement, and a
 * measurement taken under more load than the {@link LoadPolicy} allows is taken again, or kept
 * flagged — never silently trusted. Once a measurement was kept flagged after all its re-takes,
 * the load is not a passing burst: the next measurements are flagged without re-takes (which would
 * only triple their cost) until one comes in under the limit. A simulated backend is returned
 * unwrapped by {@link #wrap}.
 */
public final class LoadWatchingBackend extends ForwardingBackend implements LoadWatch, ThroughputMeasurement {
  private final LoadProbe probe;
  private final LoadPolicy policy;
  private MeasurementLoad last;
  private LoadTally tally = LoadTally.NONE;
  private boolean persistent;

  public LoadWatchingBackend(LatencyBackend delegate, LoadProbe probe, LoadPolicy policy) {
    super(delegate);
    this.probe = probe;
    this.policy = policy;
  }

  /** {@code backend} watched with {@code policy} through {@code /proc}, or itself when simulated or already watched. */
  public static LatencyBackend wrap(LatencyBackend backend, LoadPolicy policy) {
    if (backend.simulated() || backend.capability(LoadWatch.class).isPresent()) {
      return backend;
    }
    return new LoadWatchingBackend(backend, LoadProbe.proc(), policy);
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return watched(() -> delegate.measure(graph, placement, protocol));
  }

  /** A throughput measurement watched and re-taken under the same policy (when the delegate measures throughput). */
  @Override
  public Measurement measureThroughput(OpGraph graph, Placement placement, MeasurementProtocol protocol,
      int requests) {
    ThroughputMeasurement throughput = delegateThroughput();
    return watched(() -> throughput.measureThroughput(graph, placement, protocol, requests));
  }

  private Measurement watched(java.util.function.Supplier<Measurement> measurement) {
    Measurement kept = null;
    MeasurementLoad keptLoad = null;
    int retakes = persistentLoad() ? 0 : policy.retakes();
    for (int attempt = 0; attempt <= retakes; attempt++) {
      Optional<LoadSample> before = probe.sample();
      Measurement m = measurement.get();
      Optional<LoadSample> after = widened(before, probe.sample());
      Optional<MeasurementLoad> load = before.isPresent() && after.isPresent()
          ? LoadSample.between(before.get(), after.get()) : Optional.empty();
      if (load.isEmpty()) {
        return record(m, null);
      }
      if (kept == null || load.get().foreignCores() < keptLoad.foreignCores()) {
        kept = m;
        keptLoad = load.get();
      }
      // A failure is the placement's, not the machine's: it is not taken again.
      if (!m.ok() || !policy.tooLoaded(load.get())) {
        return record(m, load.get().after(attempt, false));
      }
    }
    return record(kept, keptLoad.after(retakes, policy.tooLoaded(keptLoad)));
  }

  /**
   * {@code after}, or a later sample when no clock tick passed since {@code before}: a measurement on a
   * kept compiled model of a small graph can be shorter than a tick, and would carry no load. The window
   * then also holds a few milliseconds of this process's idle time (own time is not foreign).
   */
  private Optional<LoadSample> widened(Optional<LoadSample> before, Optional<LoadSample> after) {
    Optional<LoadSample> a = after;
    for (int i = 0; i < 10 && before.isPresent() && a.isPresent()
        && LoadSample.between(before.get(), a.get()).isEmpty(); i++) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return a;
      }
      a = probe.sample();
    }
    return a;
  }

  private synchronized boolean persistentLoad() {
    return persistent;
  }

  private synchronized Measurement record(Measurement m, MeasurementLoad load) {
    last = load;
    if (load != null && m.ok()) {
      persistent = load.flagged();
    }
    if (load == null) {
      return m;
    }
    tally = tally.plus(load);
    return m.withLoad(load);
  }

  @Override
  public synchronized Optional<MeasurementLoad> lastLoad() {
    return Optional.ofNullable(last);
  }

  @Override
  public synchronized LoadTally tally() {
    return tally;
  }

  @Override
  public LoadPolicy policy() {
    return policy;
  }
}
