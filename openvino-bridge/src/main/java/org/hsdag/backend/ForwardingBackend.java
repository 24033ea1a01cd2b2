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

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    return type.isInstance(this) ? Optional.of(type.cast(this)) : delegate.capability(type);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
