package org.hsdag.search;

import java.io.IOException;
import org.hsdag.backend.Measurement;

/** Hooks into the final re-measurement: the run folder logs each measurement, the CLI shows progress. */
public interface RemeasureListener {
  RemeasureListener NONE = new RemeasureListener() {};

  /** The re-measurement starts: {@code total} measurements. */
  default void started(int total) {}

  /**
   * Round {@code round} of {@code finalist} is done ({@code fresh}: measured now; otherwise taken
   * from the log of the run being resumed); {@code done} of {@code total}.
   */
  default void measured(Finalist finalist, int round, Measurement m, boolean fresh, int done, int total)
      throws IOException {}

  /**
   * The re-measurement is over after {@code done} measurements: fewer than announced when finalists left
   * the race after the last measurement announced (a progress display ends at {@code done} of {@code done}).
   */
  default void ended(int done) throws IOException {}

  /**
   * Whether round {@code round}, {@code measurements} fresh measurements, may start (a time limit); false ends
   * the race with the rounds done, as if fewer had been asked for (none: the search measurements decide).
   */
  default boolean roundFits(int round, int measurements) {
    return true;
  }
}
