package org.hsdag.tune;

/**
 * Receives a tuning run's progress (the CLI's progress bar, plain progress lines, or nothing).
 * Called on the tuner's thread; implementations must be quick and must not throw.
 */
public interface TuneListener {
  /** A listener that ignores everything. */
  TuneListener NONE = new TuneListener() {};

  /** The search starts (or resumes with {@code progress.measurements()} already done). */
  default void searchStarted(TuneProgress progress) {}

  /** One search step finished (measured or answered from the cache). */
  default void searchStep(TuneProgress progress) {}

  /** The final interleaved re-measurement starts: {@code total} measurements. */
  default void finalStarted(int total) {}

  /** One final re-measurement finished. */
  default void finalStep(int done, int total) {}

  /** Messages worth a line (resume details, warnings). */
  default void note(String message) {}

  /** The run is over (any status). */
  default void finished(TuneResult result) {}
}
