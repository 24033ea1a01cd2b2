package org.hsdag.backend;

import java.util.List;
import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * Something that can time a placed model: the embedded simulator ({@code sim}) or real OpenVINO
 * ({@code openvino}). Every number it produces carries {@link #name()} and {@link #profile()}.
 */
public interface LatencyBackend extends AutoCloseable {
  /** {@code sim} or {@code openvino}. */
  String name();

  /** The simulator profile name, or a description of the real machine. */
  String profile();

  /** Whether numbers come from a model of a machine rather than from hardware. */
  boolean simulated();

  /** The devices this backend offers, in its preferred order. */
  List<DeviceInfo> devices();

  /** Which of {@code devices} can run each node of {@code graph}. */
  SupportMatrix supports(OpGraph graph, DeviceSet devices);

  /**
   * Times {@code placement} of {@code graph}. Never throws for a placement that cannot run: that
   * is a failed {@link Measurement} with the reason.
   */
  Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol);

  /**
   * An optional capability of this backend — {@link KeyedMeasurement}, {@link DeviceTimeBreakdown}
   * — or empty. The one place capabilities are discovered: callers ask here rather than test the
   * class, so a decorator can forward its delegate's capabilities.
   */
  default <T> Optional<T> capability(Class<T> type) {
    return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
  }

  @Override
  default void close() {}
}
