package org.hsdag.search;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A strategy whose whole state (parameters, optimiser, RNG, counters) can be saved between batches
 * and restored after {@link SearchStrategy#init}, so a resumed run continues from a checkpoint
 * instead of replaying the whole log through the strategy. Strategies without it are replayed from
 * the first step, which is just as exact.
 */
public interface Checkpointable {
  /** Writes everything needed to continue exactly into {@code dir} (called after a {@code tell}). */
  void saveState(Path dir) throws IOException;

  /** Restores what {@link #saveState} wrote; called after {@code init} with the same context. */
  void restoreState(Path dir) throws IOException;
}
