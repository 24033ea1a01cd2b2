package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hsdag.cli.RealTuneLog.failedWith;
import static org.hsdag.cli.RealTuneLog.fresh;
import static org.hsdag.cli.RealTuneLog.measuredAfter;
import static org.hsdag.cli.RealTuneLog.reason;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.hsdag.tune.LogRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tune} whose runtime child is stopped (SIGSTOP) past the measurement deadline: the tune says so,
 * goes on with a fresh child and exits 0; the placement is logged as failed with that reason and not measured again,
 * in the run or on resume. Asserts what happened, never how long it took (the waits are failure guards).
 */
@Tag("openvino")
class RealTuneIsolationTest {
  private static final long PATIENCE_MS = 300_000;
  private static final String STOPPED = "no answer in 15 s (the runtime was ended)";

  @TempDir
  Path tmp;

  @Test
  void aStoppedRuntimeChildFailsItsPlacementAndTheTuneGoesOnExitsZeroAndResumes() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path out = tmp.resolve("run");
    Path log = out.resolve("log.jsonl");
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> {
      return CliRun.of("tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2:precision=f32",
          "--devices", "CPU,CPU2", "--proxy", "none", "--budget", "10", "--patience", "0", "--top-k", "1",
          "--final-rounds", "2", "--measure-timeout", "15s", "--seed", "2", "--no-report", "--out", out.toString());
    });
    try {
      // A first search step measured: the child is the one measuring now. Stopped, it answers nothing.
      await(() -> fresh(log).stream().anyMatch(r -> LogRecord.PHASE_SEARCH.equals(r.phase())), run, "a search step");
      long stopped = runtimeChild().orElseThrow();
      signal(stopped, "STOP");
      await(() -> fresh(log).stream().anyMatch(r -> reason(r).startsWith(STOPPED)), run, "the stopped measurement");
      assertFalse(ProcessHandle.of(stopped).map(ProcessHandle::isAlive).orElse(false), "the stopped child was ended");
      CliRun r = run.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
      assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
      assertTrue(r.err().contains("the runtime child was lost during a measurement (" + STOPPED), r.err());
    } finally {
      runtimeChild().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    List<LogRecord> first = fresh(log);
    int hung = failedWith(first, STOPPED);
    assertEquals(0, measuredAfter(first, hung), "the stopped placement never measured again: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed");

    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "14", "--no-report");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<LogRecord> all = fresh(log);
    assertTrue(all.size() > first.size(), "the resume measured more");
    assertEquals(0, measuredAfter(all, hung), "never measured again on resume: " + all);
  }

  /** The newest runtime child of this JVM alive. */
  private static Optional<Long> runtimeChild() {
    try (Stream<ProcessHandle> children = ProcessHandle.current().children()) {
      return children.filter(ProcessHandle::isAlive).filter(RealTuneIsolationTest::isRuntimeChild)
          .max(Comparator.comparing(h -> h.info().startInstant().orElse(java.time.Instant.EPOCH)))
          .map(ProcessHandle::pid);
    }
  }

  /** Read from /proc: {@link ProcessHandle.Info#commandLine} is empty for a command line this long. */
  private static boolean isRuntimeChild(ProcessHandle h) {
    try {
      String cmd = new String(Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "cmdline")),
          java.nio.charset.StandardCharsets.ISO_8859_1);
      return cmd.contains("org.hsdag.openvino.RuntimeChildMain");
    } catch (java.io.IOException e) {
      return false; // ended meanwhile
    }
  }

  private static void signal(long pid, String sig) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -" + sig + " " + pid);
  }

  /** Waits until {@code condition} holds; fails when the tune ended first or the guard passed. */
  private static void await(BooleanSupplier condition, CompletableFuture<CliRun> run, String what) throws Exception {
    long deadline = System.currentTimeMillis() + PATIENCE_MS;
    while (!condition.getAsBoolean()) {
      if (run.isDone()) {
        CliRun r = run.get();
        throw new AssertionError("the tune ended before " + what + ": " + r.out() + r.err());
      }
      assertTrue(System.currentTimeMillis() < deadline, "never saw " + what);
      Thread.sleep(20);
    }
  }
}
