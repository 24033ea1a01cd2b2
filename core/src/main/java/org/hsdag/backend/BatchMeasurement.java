package org.hsdag.backend;

import java.util.List;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * A backend capability ({@link LatencyBackend#capability}): measures several placements at once,
 * possibly in parallel on other machines (the {@code cluster} module). Every task carries its
 * {@link KeyedMeasurement} key, so a result is the same whoever measures it and in whatever order.
 */
public interface BatchMeasurement {
  /**
   * One placement to time, with the key its noise is drawn from.
   *
   * @param placement what to time
   * @param key the {@link KeyedMeasurement} key
   */
  record Task(Placement placement, long key) {}

  /**
   * Times every task; the results are in task order. A placement that cannot run is a failed
   * {@link Measurement}, never an exception.
   *
   * @throws BackendUnavailableException when no one is left to measure (a fleet without a fitting worker)
   */
  List<Measurement> measureAll(OpGraph graph, List<Task> tasks, MeasurementProtocol protocol);
}
