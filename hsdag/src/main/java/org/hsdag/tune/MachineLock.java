package org.hsdag.tune;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * One real tune measuring per machine: a second one would count the first's inferences as foreign load (and
 * slow it down). A lock on {@value #FILE} in the user's hsdag cache (or {@code -Dhsdag.machine.lock.dir}, which
 * tests set per fork so that they never wait on each other), taken with {@link FileChannel#tryLock}: the
 * operating system releases it when the process ends, however it ends. The holder writes its pid into the file
 * so that the waiting tune can name it. The simulator needs no lock.
 */
public final class MachineLock implements AutoCloseable {
  public static final String FILE = "measuring.lock";
  /** The system property that moves the lock's folder. */
  public static final String DIR_PROPERTY = "hsdag.machine.lock.dir";

  private final FileChannel channel;
  private final FileLock lock;

  private MachineLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock's folder: {@value #DIR_PROPERTY}, else {@code $XDG_CACHE_HOME/hsdag}, else {@code ~/.cache/hsdag}. */
  public static Path defaultDir() {
    String dir = System.getProperty(DIR_PROPERTY);
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("hsdag");
  }

  /** The lock if free now, else null ({@code holder} gets who holds it). */
  public static MachineLock tryAcquire(Path dir, Consumer<String> holder) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException sameProcess) {
      l = null;
    }
    if (l == null) {
      holder.accept(Files.readString(file, StandardCharsets.UTF_8).trim());
      ch.close();
      return null;
    }
    ch.truncate(0);
    ch.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(false);
    return new MachineLock(ch, l);
  }

  /**
   * Takes the lock, waiting while another tune holds it; {@code progress} gets a line when the wait starts and
   * then every {@code reportEverySeconds}.
   *
   * @throws InterruptedException when the wait is interrupted (Ctrl-C)
   */
  public static MachineLock acquire(Path dir, Consumer<String> progress, long reportEverySeconds)
      throws IOException, InterruptedException {
    String[] pid = {""};
    long start = System.nanoTime();
    long reported = -1;
    while (true) {
      MachineLock l = tryAcquire(dir, h -> pid[0] = h);
      if (l != null) {
        if (reported >= 0) {
          progress.accept("the other tune finished; measuring now (waited " + seconds(start) + " s)");
        }
        return l;
      }
      long waited = seconds(start);
      if (reported < 0 || waited - reported >= reportEverySeconds) {
        reported = waited;
        progress.accept(busy(pid[0]) + "; waiting for it before measuring anything, the cost model's profiling too ("
            + waited + " s so far; --share-machine measures alongside it, each counting the other as load)");
      }
      Thread.sleep(500);
    }
  }

  /** "another hsdag tune (pid N) is measuring on this machine". */
  public static String busy(String pid) {
    return "another hsdag tune (" + (pid.isEmpty() ? "pid unknown" : "pid " + pid) + ") is measuring on this machine";
  }

  private static long seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000_000L;
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
