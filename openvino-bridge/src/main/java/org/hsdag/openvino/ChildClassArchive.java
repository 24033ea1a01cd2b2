package org.hsdag.openvino;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The runtime child's class-data archive (AppCDS), a file the launcher names per build in {@value #PROPERTY}: a
 * child maps it when it exists, else writes one at its exit to a part file of its own that {@link #settle} renames
 * into place, so concurrent first children each write a whole archive and a reader never sees half of one. The
 * JVM checks the archive and starts without it, silently, when it is missing, stale or damaged.
 */
final class ChildClassArchive {
  /** The archive's path; the launcher sets it only when the class path is jars (the JVM maps no class folder). */
  static final String PROPERTY = "hsdag.runtime.child.cds";

  private static final String PART = ".part.";
  private static final String DUMP = "-XX:ArchiveClassesAtExit=";

  private ChildClassArchive() {}

  /** The child's JVM options for the archive named by the system property (none without one). */
  static List<String> options() {
    String archive = System.getProperty(PROPERTY, "");
    return archive.isEmpty() ? List.of() : options(Path.of(archive), ProcessHandle.current().pid());
  }

  /** Maps {@code archive} when it is there, else writes one at exit to a part named after this process. */
  static List<String> options(Path archive, long pid) {
    // A name of its own per child (two may start at once), ending in the writing tune's pid: the launcher removes
    // parts whose tune is gone.
    String dump = Files.isRegularFile(archive) ? "-XX:SharedArchiveFile=" + archive
        : DUMP + archive + PART + UUID.randomUUID() + "." + pid;
    return List.of("-Xshare:auto", "-Xlog:cds*=off", dump);
  }

  /** The part file a child started with {@code command} writes at its exit, if it writes one. */
  static Optional<Path> partOf(List<String> command) {
    return command.stream().filter(a -> a.startsWith(DUMP)).map(a -> Path.of(a.substring(DUMP.length())))
        .findFirst();
  }

  /**
   * After the child wrote {@code part} and ended with {@code exitStatus}: a whole archive (status 0) replaces the
   * archive at once; anything else is removed.
   */
  static void settle(Path part, int exitStatus) {
    String name = part.getFileName().toString();
    Path archive = part.resolveSibling(name.substring(0, name.lastIndexOf(PART)));
    try {
      if (exitStatus == 0 && Files.isRegularFile(part) && Files.size(part) > 0) {
        Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      // no archive this time: the next child starts without one and writes it
    } finally {
      try {
        Files.deleteIfExists(part);
      } catch (IOException e) {
        // a part left behind is removed by the launcher once its tune is gone
      }
    }
  }
}
