package org.hsdag.cli;

import java.util.concurrent.locks.LockSupport;

/**
 * Child-process entry point: runs the CLI through {@link CliRun}, passes its output on and exits
 * with its code. With {@code -Dhsdag.test.collectEveryMs=N} a daemon thread also forces a garbage
 * collection every N ms, so collections land at arbitrary points of the run (memory pressure).
 */
public final class CliChild {
  private CliChild() {}

  public static void main(String[] args) {
    long every = Long.getLong("hsdag.test.collectEveryMs", 0);
    if (every > 0) {
      Thread collector = new Thread(() -> {
        while (true) {
          System.gc();
          LockSupport.parkNanos(every * 1_000_000);
        }
      }, "gc-pressure");
      collector.setDaemon(true);
      collector.start();
    }
    CliRun run = CliRun.of(args);
    System.out.print(run.out());
    System.err.print(run.err());
    System.exit(run.exitCode());
  }
}
