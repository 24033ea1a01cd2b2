package org.hsdag.openvino;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.hsdag.backend.Measurement;

/**
 * The backend's timeout on one real measurement, latency or throughput alike: the measurement runs
 * on a worker thread and the caller waits at most the limit; past it the measurement is failed with
 * the stage it was in ({@link Stage}: reading, compiling or inferring). The native call cannot be
 * interrupted: it finishes in the background, and the next measurement waits for it. Without a
 * limit the measurement runs on the caller's thread.
 */
final class MeasurementDeadline implements AutoCloseable {
  /** Where a measurement is, for the reason a timeout gives; written by the measuring thread. */
  static final class Stage {
    private volatile String current = "reading the model";

    /** The measurement entered {@code stage} (e.g. {@code "compiling"}). */
    void enter(String stage) {
      current = stage;
    }

    String current() {
      return current;
    }
  }

  private final Duration limit;
  private ExecutorService worker;

  /** A deadline of {@code limit} per measurement; null for none. */
  MeasurementDeadline(Duration limit) {
    this.limit = limit;
  }

  /**
   * Runs {@code measurement} within the limit.
   *
   * @param what what the measurement does, for the reason (e.g. {@code "compile + 10 runs"})
   * @param failed a failed measurement with a reason, as the backend makes one
   */
  Measurement run(String what, Function<Stage, Measurement> measurement, Function<String, Measurement> failed) {
    Stage stage = new Stage();
    if (limit == null) {
      return measurement.apply(stage);
    }
    Future<Measurement> f = worker().submit(() -> measurement.apply(stage));
    try {
      return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return failed.apply("timed out after " + limit.toMillis() + " ms while " + stage.current() + " (" + what + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed.apply("interrupted while " + stage.current());
    } catch (ExecutionException e) {
      return failed.apply(String.valueOf(e.getCause()));
    }
  }

  private synchronized ExecutorService worker() {
    if (worker == null) {
      worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "openvino-measure");
        t.setDaemon(true);
        return t;
      });
    }
    return worker;
  }

  @Override
  public synchronized void close() {
    if (worker != null) {
      worker.shutdownNow();
      worker = null;
    }
  }
}
