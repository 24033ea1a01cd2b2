package org.hsdag.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads the machine's CPU counters ({@link LoadSample}); empty where they cannot be read. */
@FunctionalInterface
public interface LoadProbe {
  Optional<LoadSample> sample();

  /** A probe that never answers (no {@code /proc}: the load is unknown). */
  LoadProbe NONE = Optional::empty;

  /** Linux: {@code /proc/stat} and {@code /proc/self/stat}; empty elsewhere or when they cannot be read. */
  static LoadProbe proc() {
    return proc(Path.of("/proc/stat"), Path.of("/proc/self/stat"));
  }

  /** Reads the two files given (tests pass fakes). */
  static LoadProbe proc(Path stat, Path self) {
    return () -> {
      try {
        return LoadSample.parse(Files.readString(stat), Files.readString(self));
      } catch (IOException | UncheckedIOException | NumberFormatException e) {
        return Optional.empty();
      }
    };
  }
}
