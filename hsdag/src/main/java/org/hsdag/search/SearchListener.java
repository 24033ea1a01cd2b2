package org.hsdag.search;

import java.io.IOException;

/**
 * Hooks into a running search, called on the engine's thread: the run folder logs every step and
 * checkpoints between batches, the CLI shows progress, bench records curves.
 */
public interface SearchListener {
  /** A listener that ignores everything. */
  SearchListener NONE = new SearchListener() {};

  /**
   * A step is done: measured, answered from the cache, or — {@code replayed} — taken from the log of
   * the run being resumed.
   */
  default void step(SearchStep step, SearchProgress progress, boolean replayed) throws IOException {}

  /**
   * Step {@code index} is about to measure {@code placement} on the backend (not for a cached, replayed or
   * prefetched one): a run log records it first, so a measurement that ends the process is known on resume.
   */
  default void measuring(int index, org.hsdag.placement.Placement placement) throws IOException {}

  /** The strategy was told a whole batch: the moment its state is consistent enough to checkpoint. */
  default void told(SearchProgress progress) throws IOException {}
}
