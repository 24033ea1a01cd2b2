package org.hsdag.backend;

import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend capability ({@link LatencyBackend#capability}): it can say where the compute of one inference goes: the stand-alone kernel time of
 * the operations placed on each device (fusion, transfers and per-sub-model overheads are not
 * included, so the sum need not equal the latency; the shares are what the report shows).
 */
public interface DeviceTimeBreakdown {
  /** Device name → kernel milliseconds; empty when the placement cannot run. */
  Map<String, Double> timeByDevice(OpGraph graph, Placement placement);
}
