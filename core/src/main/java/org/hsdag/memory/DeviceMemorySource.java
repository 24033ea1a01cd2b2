package org.hsdag.memory;

import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;

/**
 * A backend capability ({@code LatencyBackend#capability}): the device memory the backend knows,
 * from a simulator profile or from what OpenVINO devices report. The user's {@code --memory}
 * replaces a known capacity and adds one where none is known.
 */
public interface DeviceMemorySource {
  /** Capacities the backend knows, by device name; a device without one is not limited. */
  MemoryLimits capacities();

  /** Runtime overhead per device name (absent: 0). */
  Map<String, Long> overheads();

  /** Where the capacities come from, one short phrase (e.g. {@code sim profile paper}). */
  String capacitySource();

  /** The check of {@code graph} on {@code devices} with these capacities, {@code user}'s replacing them. */
  default MemoryCheck memoryCheck(OpGraph graph, DeviceSet devices, MemoryLimits user) {
    return MemoryCheck.of(graph, devices, capacities().overriddenBy(user), overheads());
  }
}
