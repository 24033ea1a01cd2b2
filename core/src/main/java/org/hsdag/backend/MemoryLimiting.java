package org.hsdag.backend;

import org.hsdag.memory.MemoryLimits;

/**
 * A backend capability: a copy of the backend that keeps to the user's device capacities itself
 * ({@code --memory}), failing what exceeds them as out of memory. A backend without it is wrapped
 * in a {@link MemoryCappedBackend} instead.
 */
public interface MemoryLimiting {
  /** This backend with {@code limits} replacing the capacities it knows; itself when {@code limits} is empty. */
  LatencyBackend withMemoryLimits(MemoryLimits limits);
}
