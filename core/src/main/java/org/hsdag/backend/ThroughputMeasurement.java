package org.hsdag.backend;

import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend capability ({@link LatencyBackend#capability}): the backend measures throughput itself,
 * on its runtime, with several inference requests in flight. Each sample of the returned
 * {@link Measurement} is a time per inference at steady state in ms (1000 / inferences per second
 * over a window of completions), so everything that minimises a measured figure maximises
 * inferences per second. The real backend has it; the simulator's throughput is the {@code
 * throughput} package's model of its pipeline instead.
 */
public interface ThroughputMeasurement {
  /**
   * The time per inference of {@code placement} with {@code requests} inferences in flight: the
   * protocol's warm-up runs and runs are counted in rounds of {@code requests} completions. Never
   * throws for a placement that cannot run: that is a failed {@link Measurement} with the reason.
   */
  Measurement measureThroughput(OpGraph graph, Placement placement, MeasurementProtocol protocol, int requests);
}
