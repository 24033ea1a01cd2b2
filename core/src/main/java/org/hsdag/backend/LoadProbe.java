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
        for (long child : descendants()) {
          try {
            own.add(Files.readString(Path.of("/proc", Long.toString(child), "stat")));
          } catch (IOException e) {
            // ended between listing and reading: its time is lost to this sample only
          }
        }
        return LoadSample.parse(Files.readString(stat), own);
      } catch (IOException | UncheckedIOException | NumberFormatException e) {
        return Optional.empty();
      }
    };
  }

  /**
   * This process's live descendants, from each thread's {@code /proc/self/task/<tid>/children} (a few small files,
   * where {@link ProcessHandle#descendants} reads the stat of every process on the machine, twice per measurement);
   * {@link ProcessHandle#descendants} where the kernel has no such files.
   */
  static List<Long> descendants() {
    List<Long> found = new ArrayList<>();
    if (!childrenOf(ProcessHandle.current().pid(), found)) {
      ProcessHandle.current().descendants().forEach(p -> found.add(p.pid()));
    }
    return found;
  }

  /** Adds every descendant of {@code pid} to {@code found}; false when its threads' children files cannot be read. */
  private static boolean childrenOf(long pid, List<Long> found) {
    List<Long> children = new ArrayList<>();
    try (var threads = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : threads) {
        Path file = task.resolve("children");
        if (!Files.exists(file)) {
          if (Files.isDirectory(task)) {
            return false; // a kernel without these files
          }
          continue; // a thread that just ended
        }
        try {
          for (String c : Files.readString(file).trim().split(" ", -1)) {
            if (!c.isEmpty()) {
              children.add(Long.parseLong(c));
            }
          }
        } catch (IOException e) {
          // that thread ended between listing and reading: it has no children left
        }
      }
    } catch (IOException | java.nio.file.DirectoryIteratorException e) {
      return false;
    }
    for (long c : children) {
      found.add(c);
      childrenOf(c, found);
    }
    return true;
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
