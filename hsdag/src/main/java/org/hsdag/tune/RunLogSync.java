package org.hsdag.tune;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.hsdag.io.IoErrors;

/**
 * Forces a {@link RunLog}'s file to disk on one background thread: a request while a flush is queued joins it (one
 * flush covers every line written before it starts). The lines are written before they are reported, so a killed
 * process loses none; the flush only guards against an OS crash or power loss, and a disk flush per record (some
 * milliseconds each, twice per measurement) no longer sits on the tune's path. A flush that fails is thrown by the
 * next append, sync or close.
 */
final class RunLogSync {
  private final FileChannel channel;
  private final Path file;
  private final ExecutorService flusher;
  private final AtomicBoolean queued = new AtomicBoolean();
  private final AtomicReference<IOException> failure = new AtomicReference<>();

  RunLogSync(FileChannel channel, Path file) {
    this.channel = channel;
    this.file = file;
    this.flusher = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "run-log-sync");
      t.setDaemon(true); // a process that ends without close loses no line: each was written before it was reported
      return t;
    });
  }

  /** Flushes soon what was written so far. */
  void request() {
    if (!queued.getAndSet(true)) {
      flusher.execute(() -> {
        queued.set(false);
        flush();
      });
    }
  }

  private void flush() {
    try {
      if (channel.isOpen()) {
        channel.force(false);
      }
    } catch (IOException e) {
      failure.compareAndSet(null, IoErrors.naming(file, e));
    }
  }

  /** Throws the failure of a background flush, once. */
  void rethrow() throws IOException {
    IOException e = failure.getAndSet(null);
    if (e != null) {
      throw e;
    }
  }

  /** Flushes now, on the caller's thread. */
  void now() throws IOException {
    rethrow();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw IoErrors.naming(file, e);
    }
  }

  /** Ends the background thread after its queued flush, then flushes once more. */
  void close() throws IOException {
    flusher.shutdown();
    try {
      flusher.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    now();
  }
}
