package org.hsdag.backend;

import java.util.List;
import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A decorator's base: everything goes to {@code delegate} unless overridden, and capabilities the
 * decorator does not have itself are the delegate's.
 */
public abstract class ForwardingBackend implements LatencyBackend {
  protected final LatencyBackend delegate;

  protected ForwardingBackend(LatencyBackend delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String profile() {
    return delegate.profile();
  }

  @Override
  public boolean simulated() {
    return delegate.simulated();
  }

  @Override
  public List<DeviceInfo> devices() {
    return delegate.devices();
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    return delegate.supports(graph, devices);
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return delegate.measure(graph, placement, protocol);
  }

  /**
   * This decorator when it has {@code type}, else the delegate's. A decorator that forwards {@link
   * ThroughputMeasurement} (with its own policy around it) has it only when its delegate has it.
   */
  @Override
  public <T> Optional<T> capability(Class<T> type) {
    if (type == ThroughputMeasurement.class && delegate.capability(type).isEmpty()) {
      return Optional.empty();
    }
    return type.isInstance(this) ? Optional.of(type.cast(this)) : delegate.capability(type);
  }

  /** The delegate's {@link ThroughputMeasurement} (for decorators that forward it). */
  protected final ThroughputMeasurement delegateThroughput() {
    return delegate.capability(ThroughputMeasurement.class).orElseThrow(
        () -> new UnsupportedOperationException("backend " + delegate.name() + " cannot measure throughput"));
  }

  @Override
  public void close() {
    delegate.close();
  }
}
