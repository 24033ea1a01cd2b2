package org.hsdag.backend;

import java.time.Duration;

/**
 * A real backend whose measurements have a deadline (the {@code --measure-timeout} option): a
 * measurement past it is failed with the reason and the backend goes on with a fresh runtime.
 */
public interface MeasureTimeout {
  /** Sets every measurement's deadline to {@code limit}; null restores the backend's default rule. */
  void measureTimeout(Duration limit);

  /** The deadline rule in force, for the run's notes (e.g. {@code max(30 s, 10 × the slowest measurement …)}). */
  String measureTimeoutRule();

  /**
   * {@code sink} is told, in one sentence, each time the backend ended or lost its runtime (a crash, or no
   * answer by a deadline) and what that cost, as it happens: a measurement then fails, a build goes on without it.
   */
  default void onRuntimeLost(java.util.function.Consumer<String> sink) {}
}
