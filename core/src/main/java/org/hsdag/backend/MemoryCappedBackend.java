package org.hsdag.backend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.Placement;

/**
 * A backend with the user's device capacities ({@code --memory}) on top of what it knows itself
 * (for the openvino backend, what its devices report): its {@link DeviceMemorySource} answers with
 * both, and a placement that does not fit is refused without being run, as the simulator fails it.
 * The simulator takes the user's capacities into its profile instead ({@code SimBackend#withMemoryLimits}).
 */
public final class MemoryCappedBackend extends ForwardingBackend implements DeviceMemorySource, ThroughputMeasurement {
  private final MemoryLimits user;
  private final Optional<DeviceMemorySource> own;

  /**
   * @throws IllegalArgumentException when {@code user} names a device {@code delegate} does not have
   */
  public MemoryCappedBackend(LatencyBackend delegate, MemoryLimits user) {
    super(delegate);
    List<String> names = delegate.devices().stream().map(DeviceInfo::name).toList();
    user.requireWithin(names, "the devices of backend " + delegate.name());
    this.user = user;
    this.own = delegate.capability(DeviceMemorySource.class);
  }

  @Override
  public MemoryLimits capacities() {
    return own.map(DeviceMemorySource::capacities).orElse(MemoryLimits.NONE).overriddenBy(user);
  }

  @Override
  public Map<String, Long> overheads() {
    return own.map(DeviceMemorySource::overheads).orElse(Map.of());
  }

  @Override
  public String capacitySource() {
    Map<String, String> given = new LinkedHashMap<>();
    user.capacities().forEach((d, b) -> given.put(d, ByteSizes.format(b)));
    return "--memory " + given + own.map(s -> "; otherwise " + s.capacitySource()).orElse("");
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return refusal(graph, placement).orElseGet(() -> delegate.measure(graph, placement, protocol));
  }

  /** A placement that does not fit is refused without being run, as for latency. */
  @Override
  public Measurement measureThroughput(OpGraph graph, Placement placement, MeasurementProtocol protocol,
      int requests) {
    ThroughputMeasurement throughput = delegateThroughput();
    return refusal(graph, placement)
        .orElseGet(() -> throughput.measureThroughput(graph, placement, protocol, requests));
  }

  private Optional<Measurement> refusal(OpGraph graph, Placement placement) {
    Optional<String> oom = memoryCheck(graph, placement.devices(), MemoryLimits.NONE).violation(placement);
    return oom.map(o -> Measurement.failed(MemoryCheck.REJECTED + o + " (capacities: " + capacitySource() + ")",
        name(), profile()));
  }
}
