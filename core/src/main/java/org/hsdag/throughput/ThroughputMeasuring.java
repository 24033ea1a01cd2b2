package org.hsdag.throughput;

import java.util.Optional;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A backend capability: it measures throughput (the time per inference with requests in flight)
 * instead of latency, and gives both figures of a placement. Commands and the planner ask for this
 * interface, never for the backend that implements it.
 */
public interface ThroughputMeasuring {
  /** The requests in flight asked for (0: the devices of each placement + 1). */
  int requested();

  /** Both noise-free figures of {@code placement}, or null when it cannot run. */
  ObjectiveFigures figures(OpGraph graph, Placement placement);

  /** Requests in flight for a placement over {@code devices}: the number asked for, else the devices + 1. */
  static int requestsFor(int requested, DeviceSet devices) {
    return requested > 0 ? requested : devices.size() + 1;
  }

  /**
   * {@code backend} measuring throughput with {@code requests} in flight (0: the devices of each
   * placement + 1).
   *
   * @throws UnsupportedOperationException when {@code backend} cannot measure throughput
   */
  static LatencyBackend measuring(LatencyBackend backend, int requests) {
    return ThroughputBackend.wrap(backend, requests);
  }

  /**
   * What gives both figures of a placement on {@code backend}: its own throughput capability, else
   * one with {@code requested} in flight when the backend can measure throughput; empty when it cannot.
   */
  static Optional<ThroughputMeasuring> figuresOf(LatencyBackend backend, int requested) {
    var own = backend.capability(ThroughputMeasuring.class);
    if (own.isPresent()) {
      return own;
    }
    try {
      return Optional.of(ThroughputBackend.wrap(backend, requested));
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
  }
}
