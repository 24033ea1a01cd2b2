package org.hsdag.openvino;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.hsdag.io.AtomicFiles;

/**
 * The private folders of runtime children ({@link RuntimeChild}): each records the processes it belongs to (the
 * tune and, once started, its child) in a file {@value #OWNERS}, so that a folder a killed tune left behind
 * ({@code kill -9} runs no cleanup) is removed by the next start, and a folder of a tune still running never is.
 * A folder is stale when it is this user's, holds that file, and none of the processes it names is alive (a
 * process is the one recorded only if it also started when recorded: a reused process id keeps the folder).
 */
final class RuntimeFolders {
  /** The folders' name prefix, under the system's temporary folder. */
  static final String PREFIX = "hsdag-runtime-";
  /** The file naming the folder's processes: one {@code pid start-epoch-millis} a line (-1: start unknown). */
  static final String OWNERS = "owners";
  /** Start times this close are the same process's. */
  private static final long SAME_START_MS = 2000;

  private RuntimeFolders() {}

  /** The system's temporary folder, where children's folders are made. */
  static Path root() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** A new folder under {@code root} (0700), owned by this process, after sweeping the stale ones there. */
  static Path create(Path root) throws IOException {
    Path dir = Files.createTempDirectory(root, PREFIX);
    record(dir, ProcessHandle.current().pid());
    sweep(root, dir);
    return dir;
  }

  /** Adds process {@code pid} (the child, once it said hello) to the processes {@code dir} belongs to. */
  static void record(Path dir, long pid) throws IOException {
    Path file = dir.resolve(OWNERS);
    List<String> lines = new ArrayList<>(Files.isRegularFile(file) ? Files.readAllLines(file) : List.of());
    long start = ProcessHandle.of(pid).flatMap(p -> p.info().startInstant()).map(Instant::toEpochMilli).orElse(-1L);
    lines.add(pid + " " + start);
    AtomicFiles.writeString(file, String.join("\n", lines) + "\n");
  }

  /**
   * Removes the stale folders under {@code root} other than {@code own} (whose owner is the user to compare with).
   *
   * @return the folders removed
   */
  static List<Path> sweep(Path root, Path own) {
    List<Path> removed = new ArrayList<>();
    UserPrincipal me;
    try {
      me = Files.getOwner(own, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return removed;
    }
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, PREFIX + "*")) {
      dirs.forEach(found::add);
    } catch (IOException | RuntimeException e) {
      return removed;
    }
    for (Path d : found) {
      if (!d.equals(own) && stale(d, me)) {
        try {
          delete(d);
          removed.add(d);
        } catch (IOException | RuntimeException e) {
          // removed meanwhile by another start, or not removable: a folder left behind is harmless
        }
      }
    }
    return removed;
  }

  /** Whether {@code dir} is {@code me}'s, names its processes, and none of them is alive. */
  static boolean stale(Path dir, UserPrincipal me) {
    try {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
          || !me.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS))) {
        return false;
      }
      Path file = dir.resolve(OWNERS);
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return false; // no record (being made, or made by an older version): not ours to judge
      }
      List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
      if (lines.isEmpty()) {
        return false;
      }
      for (String line : lines) {
        String[] f = line.trim().split("\\s+", -1);
        if (f.length != 2 || alive(Long.parseLong(f[0]), Long.parseLong(f[1]))) {
          return false;
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether process {@code pid} runs and is the one that started at {@code startMillis} (-1: any). Start times are
   * compared loosely (the kernel counts them in ticks): only a process clearly started at another time is another.
   */
  static boolean alive(long pid, long startMillis) {
    Optional<ProcessHandle> p = ProcessHandle.of(pid);
    if (p.isEmpty() || !p.get().isAlive()) {
      return false;
    }
    Optional<Instant> start = p.get().info().startInstant();
    return startMillis < 0 || start.isEmpty() || Math.abs(start.get().toEpochMilli() - startMillis) <= SAME_START_MS;
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
