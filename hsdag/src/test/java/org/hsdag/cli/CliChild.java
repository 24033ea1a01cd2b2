package org.hsdag.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-process entry point: runs the CLI through {@link CliRun}, passes its output on and exits
 * with its code. With {@code -Dhsdag.test.collectEveryMs=N} a daemon thread also forces a garbage
 * collection every N ms, so collections land at arbitrary points of the run (memory pressure).
 */
public final class CliChild {
  private CliChild() {}

  /** The command line that runs {@code cliArgs} in a child JVM on this test's classpath. */
  public static List<String> command(List<String> jvmArgs, List<String> cliArgs) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true", "-Dai.djl.offline=true"));
    String lockDir = System.getProperty("hsdag.machine.lock.dir");
    if (lockDir != null) {
      // Real tunes of this test fork wait on each other only, not on other forks' or the user's.
      cmd.add("-Dhsdag.machine.lock.dir=" + lockDir);
    }
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CliChild.class.getName()));
    cmd.addAll(cliArgs);
    return cmd;
  }

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
