package org.hsdag.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the machine's CPU counters ({@link LoadSample}); empty where they cannot be read. */
@FunctionalInterface
public interface LoadProbe {
  Optional<LoadSample> sample();

  /** A probe that never answers (no {@code /proc}: the load is unknown). */
  LoadProbe NONE = Optional::empty;

  /**
   * Linux: {@code /proc/stat}, and {@code /proc/self/stat} plus that of every live descendant (the isolated runtime
   * child does the measuring: its CPU time is this run's own, not foreign load); empty elsewhere or when they cannot
   * be read.
   */
  static LoadProbe proc() {
    Path stat = Path.of("/proc/stat");
    return () -> {
      try {
        List<String> own = new ArrayList<>();
        own.add(Files.readString(Path.of("/proc/self/stat")));
        ProcessHandle.current().descendants().forEach(child -> {
          try {
            own.add(Files.readString(Path.of("/proc", Long.toString(child.pid()), "stat")));
          } catch (IOException e) {
            // ended between listing and reading: its time is lost to this sample only
          }
        });
        return LoadSample.parse(Files.readString(stat), own);
      } catch (IOException | UncheckedIOException | NumberFormatException e) {
        return Optional.empty();
      }
    };
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
