package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tune} whose runtime child is stopped (SIGSTOP) past the measurement deadline and later crashed
 * (SIGSEGV) during a measurement: the tune says so each time, goes on with a fresh child and exits 0; both placements
 * are logged as failed with those reasons, and neither is measured again, in the run or on resume. Asserts what
 * happened, never how long it took (the waits are failure guards).
 */
@Tag("openvino")
class RealTuneIsolationTest {
  private static final long PATIENCE_MS = 300_000;
  private static final String STOPPED = "no answer in 15 s (the runtime was ended)";
  private static final String CRASHED = "crashed the runtime (signal 11, SIGSEGV)";

  @TempDir
  Path tmp;

  @Test
  void aStoppedThenCrashedRuntimeChildFailsTwoPlacementsAndTheTuneGoesOnExitsZeroAndResumes() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path out = tmp.resolve("run");
    Path log = out.resolve("log.jsonl");
    AtomicReference<Thread> tune = new AtomicReference<>();
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> {
      tune.set(Thread.currentThread());
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
      // The fresh child, stopped while the tune waits for it inside a measurement, then crashed in the thread that
      // makes the native calls (tgkill) and continued: it dies before it can answer.
      await(() -> runtimeChild().filter(p -> p != stopped).flatMap(RealTuneIsolationTest::servingThread).isPresent(),
          run, "a new child serving");
      long crashed = runtimeChild().orElseThrow();
      long serving = servingThread(crashed).orElseThrow();
      signal(crashed, "STOP");
      await(() -> measuring(tune.get()), run, "a measurement waiting for the stopped child");
      Process p = new ProcessBuilder("python3", "-c", "import ctypes; ctypes.CDLL(None).syscall(234, " + crashed
          + ", " + serving + ", 11)").inheritIO().start(); // tgkill(pid, tid, SIGSEGV)
      assertEquals(0, p.waitFor());
      signal(crashed, "CONT");
      CliRun r = run.get(PATIENCE_MS, TimeUnit.MILLISECONDS);
      assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
      assertTrue(r.err().contains("the runtime child was lost during a measurement (" + STOPPED), r.err());
      assertTrue(r.err().contains("the runtime child was lost during a measurement (" + CRASHED), r.err());
    } finally {
      runtimeChild().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    List<LogRecord> first = fresh(log);
    int hung = failedWith(first, STOPPED);
    int crash = failedWith(first, CRASHED);
    assertEquals(0, measuredAfter(first, hung), "the stopped placement never measured again: " + first);
    assertEquals(0, measuredAfter(first, crash), "the crashed placement never measured again: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed");

    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "14", "--no-report");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<LogRecord> all = fresh(log);
    assertTrue(all.size() > first.size(), "the resume measured more");
    assertEquals(0, measuredAfter(all, hung), "never measured again on resume: " + all);
    assertEquals(0, measuredAfter(all, crash), "never measured again on resume: " + all);
  }

  /** The log's measurements taken (not answered from the cache), an empty list while it is unreadable. */
  private static List<LogRecord> fresh(Path log) {
    try {
      return RunLog.read(log).records().stream().filter(LogRecord::hasMeasurement)
          .filter(r -> !Boolean.TRUE.equals(r.cached())).toList();
    } catch (Exception e) {
      return List.of(); // not written yet, or a line half written: look again
    }
  }

  private static String reason(LogRecord r) {
    return r.reason() == null ? "" : r.reason();
  }

  /** The index of the one failed measurement whose reason starts with {@code reason}. */
  private static int failedWith(List<LogRecord> records, String reason) {
    List<Integer> at = new java.util.ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      if (reason(records.get(i)).startsWith(reason)) {
        at.add(i);
      }
    }
    assertEquals(1, at.size(), "one measurement failed with " + reason + ": " + records);
    return at.get(0);
  }

  /** Measurements taken after record {@code failed} of its placement. */
  private static long measuredAfter(List<LogRecord> records, int failed) {
    String placement = records.get(failed).assignment();
    return records.subList(failed + 1, records.size()).stream().filter(r -> placement.equals(r.assignment())).count();
  }

  /** The newest runtime child of this JVM alive. */
  private static Optional<Long> runtimeChild() {
    try (Stream<ProcessHandle> children = ProcessHandle.current().children()) {
      return children.filter(ProcessHandle::isAlive)
          .filter(h -> h.info().commandLine().orElse("").contains("org.hsdag.openvino.RuntimeChildMain"))
          .max(Comparator.comparing(h -> h.info().startInstant().orElse(java.time.Instant.EPOCH)))
          .map(ProcessHandle::pid);
    }
  }

  /** Whether {@code t} waits for the runtime child inside a measurement. */
  private static boolean measuring(Thread t) {
    List<StackTraceElement> s = Arrays.asList(t.getStackTrace());
    return s.stream().anyMatch(f -> f.getClassName().endsWith("openvino.RuntimeChild") && f.getMethodName()
        .equals("call")) && s.stream().anyMatch(f -> f.getClassName().endsWith("openvino.MeasurementLimit"));
  }

  /** The child's thread that makes the native calls, by its name in the process table; empty before it is named. */
  private static Optional<Long> servingThread(long pid) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path t : tasks.toList()) {
        if (Files.readString(t.resolve("comm")).strip().equals("hsdag-runtime")) {
          return Optional.of(Long.parseLong(t.getFileName().toString()));
        }
      }
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      // the process or a thread ended meanwhile
    }
    return Optional.empty();
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
