package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasureTimeout;
import org.hsdag.tune.MachineLock;

/**
 * What a tune settles on its opened backend before the cost model's build, which measures (profiling every op):
 * the machine's turn ({@link MachineTurn}: the lock taken, waited for or refused, then held to the run's end), and
 * where a lost runtime is said ({@link MeasureTimeout#onRuntimeLost}).
 */
final class TuneTurn implements AutoCloseable {
  private final MachineTurn turn;
  private final boolean fleet;
  private final PrintWriter err;
  private final Consumer<String> notices;
  private MachineLock lock;

  /**
   * @param fleet whether the run measures on a fleet (its coordinator takes no lock)
   * @param notices where a lost runtime is said until the search's progress takes over
   */
  TuneTurn(MachineTurn turn, boolean fleet, PrintWriter err, Consumer<String> notices) {
    this.turn = turn;
    this.fleet = fleet;
    this.err = err;
    this.notices = notices;
  }

  /**
   * Takes the machine's turn for {@code backend} (once); a wait says so every 30 s.
   *
   * @throws UserInputException with {@code --no-wait} while another tune measures here
   */
  void take(LatencyBackend backend) {
    backend.capability(MeasureTimeout.class).ifPresent(t -> t.onRuntimeLost(notices));
    if (lock != null) {
      return;
    }
    try {
      lock = turn.take(backend, fleet ? null : backend, MachineLock.defaultDir(), err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the other tune", e);
    }
  }

  @Override
  public void close() throws IOException {
    if (lock != null) {
      lock.close();
      lock = null;
    }
  }
}
