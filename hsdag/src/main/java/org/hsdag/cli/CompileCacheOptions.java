package org.hsdag.cli;

import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.LatencyBackend;
import picocli.CommandLine.Option;

/**
 * The {@code --compile-cache-mb} picocli mixin of the commands that measure ({@code tune},
 * {@code apply}, {@code bench}): how much memory the real backend may keep compiled models in, so
 * that a placement measured again is not compiled again (docs/real-hardware-cache.md). The
 * simulator compiles nothing and ignores it.
 */
public final class CompileCacheOptions {
  @Option(names = "--compile-cache-mb", paramLabel = "MB",
      description = "openvino backend: memory for compiled models kept for reuse within the run, so each distinct "
          + "placement compiles once (least recently used released first; 0: compile on every measurement). Default: "
          + "half of MemAvailable less 4x the model's weights.")
  Long compileCacheMb;

  /**
   * Sets the budget of {@code backend}'s compiled models when it keeps them, and returns it.
   *
   * @throws UserInputException for a negative size ({@code backend} is closed then)
   */
  public LatencyBackend apply(LatencyBackend backend) {
    if (compileCacheMb == null) {
      return backend;
    }
    if (compileCacheMb < 0) {
      backend.close();
      throw new UserInputException("--compile-cache-mb must be >= 0 (0 keeps no compiled model; got "
          + compileCacheMb + ")");
    }
    backend.capability(CompileCaching.class).ifPresent(c -> c.compileCacheBudget(
        Math.multiplyExact(compileCacheMb, 1024L * 1024), "--compile-cache-mb " + compileCacheMb));
    return backend;
  }
}
