package org.hsdag.tune;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A run folder held by this process: its lock is taken before anything in it is written, so a
 * second {@code hsdag tune} on the same folder (or a refused command) changes nothing on disk. The
 * operating system drops the lock when the process dies, so a crash never leaves it stuck.
 */
public final class RunFolder implements AutoCloseable {
  public static final String LOCK_FILE = ".lock";

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private RunFolder(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates {@code dir} if needed and takes its lock.
   *
   * @throws RunFolderBusyException when another process (or another run in this one) holds it
   */
  public static RunFolder lock(Path dir) throws IOException {
    Files.createDirectories(dir);
    FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw new RunFolderBusyException(
          dir + " is in use by another running 'hsdag tune'; wait for it or stop it first");
    }
    return new RunFolder(dir, ch, lock);
  }

  /** The folder. */
  public Path dir() {
    return dir;
  }

  /** Whether the folder already holds a run (a manifest or a log). */
  public boolean holdsRun() {
    return Files.exists(dir.resolve(RunManifest.FILE)) || Files.exists(dir.resolve(Tuner.LOG_FILE));
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
