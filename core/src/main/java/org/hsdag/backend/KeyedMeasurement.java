package org.hsdag.backend;

import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend capability ({@link LatencyBackend#capability}): a measurement's noise is a function of a
 * key instead of the order of calls. The search engine keys every measurement by what is measured
 * (run seed, placement, round), so a resumed run measures exactly what the uninterrupted run would
 * have, and one run's numbers do not depend on which other runs shared the backend.
 */
public interface KeyedMeasurement {
  /** Like {@link LatencyBackend#measure} with noise drawn from {@code key}. */
  Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key);
}
