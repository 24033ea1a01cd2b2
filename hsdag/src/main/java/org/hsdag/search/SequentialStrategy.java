package org.hsdag.search;

import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;

/**
 * A strategy that decides one placement at a time because each proposal depends on the last
 * result (hill climbing, Placeto) or because it has no reason to batch (random search): batches of
 * one.
 */
public interface SequentialStrategy extends SearchStrategy {
  /** The next placement to measure. */
  Placement propose();

  /** The measurement of the placement last proposed. */
  void observe(Placement placement, Measurement measurement);

  @Override
  default List<Placement> ask(int limit) {
    return finished() ? List.of() : List.of(propose());
  }

  @Override
  default void tell(List<Placement> batch, List<Measurement> results) {
    for (int i = 0; i < batch.size(); i++) {
      observe(batch.get(i), results.get(i));
    }
  }
}
