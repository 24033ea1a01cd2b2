package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.tune.MachineLock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real tunes on one machine: while the first (a child JVM, sharing this test fork's lock folder) measures,
 * a second with {@code --no-wait} exits 2 at once naming the first's pid, and creates nothing.
 */
@Tag("openvino")
class RealMachineTurnTest {
  /** Generous bound on how long the child may take to start measuring (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 300_000;

  @TempDir
  Path tmp;

  @Test
  void aSecondRealTuneRefusesWhileTheFirstMeasures() throws Exception {
    Path model = RealTinyModel.write(tmp);
    List<String> real = List.of("--backend", "openvino", "--test-device", "CPU2:precision=f32", "--devices",
        "CPU,CPU2");
    List<String> first = new java.util.ArrayList<>(List.of("tune", model.toString(), "--budget", "100000",
        "--patience", "0", "--quiet", "--no-report", "--out", tmp.resolve("first").toString()));
    first.addAll(real);
    Path firstLog = tmp.resolve("first.log");
    Process child = new ProcessBuilder(CliChild.command(List.of(), first)).redirectErrorStream(true)
        .redirectOutput(firstLog.toFile()).start();
    try {
      String pid = Long.toString(child.pid());
      long deadline = System.currentTimeMillis() + PATIENCE_MS;
      while (!pid.equals(holder())) {
        assertTrue(child.isAlive(), () -> "the first tune ended: " + read(firstLog));
        assertTrue(System.currentTimeMillis() < deadline, "the first tune never started measuring");
        Thread.sleep(100);
      }
      Path second = tmp.resolve("second");
      List<String> args = new java.util.ArrayList<>(List.of("tune", model.toString(), "--no-wait", "--out",
          second.toString()));
      args.addAll(real);
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
      assertEquals("hsdag: another hsdag tune (pid " + pid + ") is measuring on this machine; not waiting for it "
          + "(--no-wait): run again once it has finished, or with --share-machine to measure alongside it",
          r.err().strip());
      assertFalse(Files.exists(second), "the refused tune created its run folder");
      assertTrue(child.isAlive(), "the first tune was disturbed");
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** The pid written in this fork's lock while another process holds it; null while it is free. */
  private static String holder() throws java.io.IOException {
    String[] h = {null};
    MachineLock free = MachineLock.tryAcquire(MachineLock.defaultDir(), s -> h[0] = s);
    if (free != null) {
      free.close();
    }
    return h[0];
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (java.io.IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
