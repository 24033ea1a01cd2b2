package org.hsdag.backend;

/**
 * A real backend that keeps compiled models for reuse within a session, under a memory budget
 * (the {@code --compile-cache-mb} option): the budget can be set, and the compile figures read.
 */
public interface CompileCaching {
  /** No budget given: the backend derives one from the machine's free memory and the model's weights. */
  long DEFAULT_BUDGET = -1;

  /**
   * Sets the memory kept compiled models may take: {@code bytes}, 0 to keep none (every measurement
   * compiles, as before), or {@link #DEFAULT_BUDGET}; {@code source} says where it comes from.
   * Models kept beyond a smaller budget are released at once.
   */
  void compileCacheBudget(long bytes, String source);

  /** The compile figures of this session so far. */
  CompileStats compileStats();
}
