package org.hsdag.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend whose every measurement takes {@code extra} more wall time, its numbers unchanged: the
 * simulator answers in microseconds, so this stands in for a real measurement's duration when the
 * cluster's own overhead and speed-up are measured ({@code worker --extra-time}, {@link ClusterFigures}).
 */
final class DelayedBackend extends ForwardingBackend implements KeyedMeasurement {
  private final Duration extra;

  DelayedBackend(LatencyBackend delegate, Duration extra) {
    super(delegate);
    this.extra = extra;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    pause();
    return delegate.measure(graph, placement, protocol);
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
    pause();
    Optional<KeyedMeasurement> keyed = delegate.capability(KeyedMeasurement.class);
    return keyed.isPresent() ? keyed.get().measure(graph, placement, protocol, key)
        : delegate.measure(graph, placement, protocol);
  }

  private void pause() {
    long end = System.nanoTime() + extra.toNanos();
    for (long left = extra.toNanos(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        throw new IllegalStateException("interrupted while measuring");
      }
    }
  }

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    if (type == KeyedMeasurement.class) {
      return delegate.capability(KeyedMeasurement.class).isPresent() ? Optional.of(type.cast(this)) : Optional.empty();
    }
    return super.capability(type);
  }
}
