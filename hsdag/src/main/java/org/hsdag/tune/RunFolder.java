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
  private java.util.concurrent.ExecutorService writer;

  /** A write to the folder that may run on its background writer. */
  @FunctionalInterface
  public interface Write {
    void run() throws IOException;
  }

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

  /**
   * Runs {@code write} on the folder's one background thread, after every write queued before it, so the caller does
   * not wait for its disk flush; {@link #close} waits for it. A write that fails is the writer's to report.
   */
  public synchronized void inBackground(Write write) {
    if (writer == null) {
      writer = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "run-folder-writer");
        t.setDaemon(true);
        return t;
      });
    }
    writer.execute(() -> {
      try {
        write.run();
      } catch (IOException e) {
        // the write's own handler reports it; nothing else waits on it
      }
    });
  }

  /** Runs {@code write} now on this thread, after every background write queued before it. */
  public void inOrder(Write write) throws IOException {
    drain();
    write.run();
  }

  /** Waits for the background writes queued so far. */
  public void drain() {
    java.util.concurrent.ExecutorService w;
    synchronized (this) {
      w = writer;
      writer = null;
    }
    if (w != null) {
      w.shutdown();
      try {
        w.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() throws IOException {
    drain();
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
