package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.hsdag.backend.Backends;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.tune.MachineLock;

/**
 * What a real tune does while another hsdag tune measures on this machine ({@link MachineLock}): wait for it
 * (the default), refuse at once ({@code --no-wait}), or measure alongside it ({@code --share-machine}).
 */
enum MachineTurn {
  WAIT, REFUSE, SHARE;

  /** The turn the options ask for; both at once is bad input. */
  static MachineTurn of(boolean shareMachine, boolean noWait) {
    if (shareMachine && noWait) {
      throw new UserInputException("--share-machine and --no-wait cannot be combined (one measures alongside the "
          + "other tune, the other refuses to)");
    }
    return shareMachine ? SHARE : noWait ? REFUSE : WAIT;
  }

  /**
   * With {@code --no-wait}, refuses before anything is opened or built when the backend named (or injected)
   * measures on hardware here and another tune holds the lock. {@code auto} is known only once open: {@link
   * #take} refuses then.
   *
   * @param backendName the backend the run asks for
   * @param injected a backend given by the caller, or null
   * @param fleet whether the run measures on a fleet (its coordinator takes no lock)
   */
  void refuseEarly(String backendName, LatencyBackend injected, boolean fleet, Path lockDir) throws IOException {
    boolean real = injected != null ? !injected.simulated()
        : Backends.provider(backendName).map(p -> !p.simulated()).orElse(false);
    if (this == REFUSE && real && !fleet) {
      takeNow(lockDir).close(); // only a look: the run takes it for good once its backend is open
    }
  }

  /**
   * The machine's measuring lock for a real backend measuring here (null: the simulator, a fleet, {@code
   * --share-machine}): waited for, saying so every 30 s on {@code err}, or refused at once.
   */
  MachineLock take(LatencyBackend backend, LatencyBackend measuring, Path lockDir, PrintWriter err)
      throws IOException, InterruptedException {
    if (this == SHARE || backend.simulated() || measuring != backend) {
      return null;
    }
    if (this == REFUSE) {
      return takeNow(lockDir);
    }
    return MachineLock.acquire(lockDir, line -> {
      err.println("hsdag: " + line);
      err.flush();
    }, 30);
  }

  /** The lock if free now; else one line naming the tune that holds it. */
  private static MachineLock takeNow(Path lockDir) throws IOException {
    String[] pid = {""};
    MachineLock l = MachineLock.tryAcquire(lockDir, h -> pid[0] = h);
    if (l == null) {
      throw new UserInputException(MachineLock.busy(pid[0]) + "; not waiting for it (--no-wait): run again once it "
          + "has finished, or with --share-machine to measure alongside it");
    }
    return l;
  }
}
