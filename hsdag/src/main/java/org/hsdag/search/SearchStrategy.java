package org.hsdag.search;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;

/**
 * A placement search in ask–tell form, so the tuner and {@code bench} drive every method (HSDAG,
 * random, BRKGA, Placeto, RNN, single-device, AUTO emulation) alike and at equal budgets.
 *
 * <p>Protocol: {@link #init} once; then repeatedly {@link #propose} one placement and {@link
 * #observe} its measurement, in that order, until the budget is spent or {@link #finished()}.
 * Given the same seed and the same measurements, the sequence of proposals is identical (this is
 * what makes resume and replay exact).
 */
public interface SearchStrategy {
  /** Short method name for logs and tables, e.g. {@code hsdag}, {@code random}. */
  String name();

  void init(SearchContext context);

  /** The next placement to measure (on every node of the graph). */
  Placement propose();

  /** The measurement of the placement last proposed (failed measurements included). */
  void observe(Placement placement, Measurement measurement);

  /** True when the strategy has nothing more to propose (e.g. a single-device baseline). */
  default boolean finished() {
    return false;
  }

  /** Writes everything needed to continue exactly (parameters, optimiser, RNG, counters). */
  default void saveState(Path dir) throws IOException {}

  /** Restores what {@link #saveState} wrote; called after {@link #init}. */
  default void restoreState(Path dir) throws IOException {}
}
