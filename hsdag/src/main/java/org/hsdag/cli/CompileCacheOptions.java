package org.hsdag.cli;

import java.time.Duration;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasureTimeout;
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

  @Option(names = "--measure-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "openvino backend: deadline of one measurement in the runtime's child process (e.g. 90s, 5m); past "
          + "it the child is ended, the placement recorded as failed and never measured again, and the run goes on. "
          + "Default: max(30 s, 10 x the slowest measurement so far, compile included).")
  Duration measureTimeout;

  /**
   * Sets the budget of {@code backend}'s compiled models when it keeps them, and returns it.
   *
   * @throws UserInputException for a negative size ({@code backend} is closed then)
   */
  public LatencyBackend apply(LatencyBackend backend) {
    if (measureTimeout != null) {
      if (measureTimeout.isNegative() || measureTimeout.isZero()) {
        backend.close();
        throw new UserInputException("--measure-timeout must be positive (got " + measureTimeout + ")");
      }
      backend.capability(MeasureTimeout.class).ifPresent(t -> t.measureTimeout(measureTimeout));
    }
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
