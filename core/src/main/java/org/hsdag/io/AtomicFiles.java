package org.hsdag.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Atomic file replacement: write a temp file beside the target, force it to disk, then move it
 * over the target. A crash or a full disk leaves the previous file intact and no temp file behind.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** Writes the bytes produced by {@code body}. */
  public interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Replaces {@code target} with what {@code body} writes.
   *
   * @throws IOException naming {@code target} (never the temporary file) or the folder that failed
   */
  public static void write(Path target, Body body) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
      keepOrDefaultPermissions(tmp, target);
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
          OutputStream out = Channels.newOutputStream(ch)) {
        OutputStream buffered = new java.io.BufferedOutputStream(out, 1 << 16);
        body.writeTo(buffered);
        buffered.flush();
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      // The temporary file is ours, not the user's: report the file they asked for.
      throw IoErrors.naming(target, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // Only after a failure (a moved file is gone): that failure is the one to report.
        }
      }
    }
  }

  /** Temp files are created 0600; the result should look like any file the user writes (or keep the old file's mode). */
  private static void keepOrDefaultPermissions(Path tmp, Path target) throws IOException {
    if (!tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return;
    }
    Set<PosixFilePermission> perms = Files.exists(target)
        ? Files.getPosixFilePermissions(target)
        : PosixFilePermissions.fromString("rw-r--r--");
    Files.setPosixFilePermissions(tmp, perms);
  }

  /**
   * Creates {@code dir} if needed and checks that files can be written into it the way
   * {@link #write} does (before hours of work whose results would go there).
   *
   * @throws IOException naming the folder when it cannot be created or written
   */
  public static void checkWritableFolder(Path dir) throws IOException {
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, ".hsdag-write-check.", ".tmp");
    } catch (IOException e) {
      throw IoErrors.naming(dir, e);
    } finally {
      if (tmp != null) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  public static void writeString(Path target, String text) throws IOException {
    write(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  public static void writeBytes(Path target, byte[] bytes) throws IOException {
    write(target, out -> out.write(bytes));
  }
}
