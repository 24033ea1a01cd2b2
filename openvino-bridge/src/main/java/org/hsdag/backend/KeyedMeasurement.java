package org.hsdag.backend;

import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend whose noise is a function of a key instead of the order of calls. The tuner keys every
 * measurement by what it is (baseline d, search step s, final round r of placement p), so a
 * resumed run measures exactly what the uninterrupted run would have measured.
 */
public interface KeyedMeasurement {
  /** Like {@link org.hsdag.backend.LatencyBackend#measure} with noise drawn from {@code key}. */
  Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key);
}
