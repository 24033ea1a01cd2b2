package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Resume after a real process death: the CLI runs in a child JVM which is killed ({@code kill -9}
 * or SIGTERM) in the middle of the search; {@code --resume} must then end exactly where an
 * uninterrupted run with the same seed ends.
 */
class TuneKillResumeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Generous bound on how long a child may take to reach the kill point (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 120_000;

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  /** Arguments of the tune command (without the word tune). */
  private List<String> tuneArgs(Path out, String budget) {
    return List.of(model.toString(), "--devices", "CPU,GPU.1", "--strategy", "random", "--budget", budget,
        "--top-k", "3", "--final-rounds", "2", "--checkpoint-every", "7", "--seed", "5", "--out", out.toString(),
        "--quiet");
  }

  private static Process startJava(Class<?> main, List<String> args) throws IOException {
    return startJava(main, args, ProcessBuilder.Redirect.DISCARD);
  }

  private static Process startJava(Class<?> main, List<String> args, ProcessBuilder.Redirect output)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-Djava.awt.headless=true", "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"),
        main.getName()));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output).start();
  }

  private static long searchLines(Path log) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    return Files.readAllLines(log).stream().filter(l -> l.contains("\"phase\":\"search\"")).count();
  }

  /** Waits until the child has logged {@code lines} search measurements or has ended. */
  private static void awaitSearchLines(Process p, Path log, long lines) throws Exception {
    long deadline = System.currentTimeMillis() + PATIENCE_MS;
    while (p.isAlive() && searchLines(log) < lines) {
      assertTrue(System.currentTimeMillis() < deadline, "the child never reached " + lines + " search steps");
      Thread.sleep(20);
    }
  }

  private static List<String> searchSequence(Path dir) throws IOException {
    return RunLog.read(dir.resolve("log.jsonl")).records().stream()
        .filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase()))
        .map(r -> r.step() + " " + r.assignment() + " " + r.samplesMs()).toList();
  }

  private static void assertSameResult(Path expected, Path actual) throws IOException {
    assertEquals(Files.readString(expected.resolve("best.json")), Files.readString(actual.resolve("best.json")));
    JsonNode a = JSON.readTree(expected.resolve("result.json").toFile());
    JsonNode b = JSON.readTree(actual.resolve("result.json").toFile());
    assertEquals(a.get("best"), b.get("best"));
    assertEquals(a.get("candidates"), b.get("candidates"));
    assertEquals(a.get("measurements"), b.get("measurements"));
    assertEquals(searchSequence(expected), searchSequence(actual));
  }

  @Test
  void killMinus9AtAKnownStepThenResumeEqualsTheUninterruptedRun() throws Exception {
    Path reference = tmp.resolve("reference");
    int code = new CommandLine(new TuneCommand(FakeBackend.cpuGpu()))
        .execute(tuneArgs(reference, "40").toArray(String[]::new));
    assertEquals(0, code);

    Path killed = tmp.resolve("killed");
    // Measurement 25 = 2 baselines + 22 search steps done, then the child hangs inside measure().
    List<String> args = new ArrayList<>(List.of("25"));
    args.addAll(tuneArgs(killed, "40"));
    Process child = startJava(TuneChild.class, args);
    try {
      awaitSearchLines(child, killed.resolve("log.jsonl"), 22);
      assertTrue(child.isAlive(), "the child hangs at the 25th measurement");
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      assertNotEquals(0, child.exitValue());
    } finally {
      child.destroyForcibly();
    }
    List<LogRecord> log = RunLog.read(killed.resolve("log.jsonl")).records();
    assertFalse(log.stream().anyMatch(r -> LogRecord.FOOTER.equals(r.type())), "a killed run has no footer");
    assertFalse(Files.exists(killed.resolve("best.json")));
    // As if the kill had hit during a write: half a line at the end.
    Files.writeString(killed.resolve("log.jsonl"), "{\"type\":\"measurement\",\"st", StandardOpenOption.APPEND);
    CliRun report = CliRun.of("report", killed.toString());
    assertEquals(0, report.exitCode(), report.err());
    String md = Files.readString(killed.resolve("report.md"));
    assertTrue(md.contains("has not completed") && md.contains("killed"), md);
    assertTrue(md.contains("--resume"), "the report says how to continue: " + md);

    FakeBackend fresh = FakeBackend.cpuGpu();
    code = new CommandLine(new TuneCommand(fresh)).execute("--resume", "--out", killed.toString(), "--quiet");
    assertEquals(0, code);
    assertSameResult(reference, killed);
    assertEquals(40 - 22 + 5 * 2, fresh.calls(), "only the missing search steps and the final rounds are measured");
  }

  @Test
  void theRealCliOnTheSimulatorResumesExactlyAfterKillMinus9() throws Exception {
    Path reference = tmp.resolve("reference");
    CliRun ref = CliRun.of(withSim(tuneArgs(reference, "300")));
    assertEquals(0, ref.exitCode(), ref.err());

    Path killed = tmp.resolve("killed");
    Process child = startJava(Main.class, List.of(withSim(tuneArgs(killed, "300"))));
    boolean killedMidway;
    try {
      awaitSearchLines(child, killed.resolve("log.jsonl"), 30);
      killedMidway = child.isAlive();
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    CliRun resumed = CliRun.of("tune", "--resume", "--out", killed.toString(), "--quiet");
    assertEquals(0, resumed.exitCode(), resumed.err());
    assertSameResult(reference, killed);
    if (killedMidway) {
      long headers = RunLog.read(killed.resolve("log.jsonl")).records().stream()
          .filter(r -> LogRecord.HEADER.equals(r.type())).count();
      assertEquals(2, headers, "two sessions");
    }
  }

  @Test
  void sigtermStopsGracefullyWithAFooterAndTheRunResumesExactly() throws Exception {
    Path reference = tmp.resolve("reference");
    assertEquals(0, CliRun.of(withSim(tuneArgs(reference, "300"))).exitCode());

    Path stopped = tmp.resolve("stopped");
    Path output = tmp.resolve("stopped.out");
    Process child = startJava(Main.class, List.of(withSim(tuneArgs(stopped, "300"))),
        ProcessBuilder.Redirect.to(output.toFile()));
    try {
      awaitSearchLines(child, stopped.resolve("log.jsonl"), 30);
      boolean alive = child.isAlive();
      child.destroy(); // SIGTERM: shutdown hooks run, as with Ctrl-C
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      if (alive) {
        String said = java.nio.file.Files.readString(output);
        assertTrue(said.contains("stopping after the current measurement") && said.contains("tune --resume --out"),
            said);
        List<LogRecord> log = RunLog.read(stopped.resolve("log.jsonl")).records();
        LogRecord last = log.get(log.size() - 1);
        assertEquals(LogRecord.FOOTER, last.type());
        assertTrue(List.of("interrupted", "completed").contains(last.status()), last.status());
      }
    } finally {
      child.destroyForcibly();
    }
    CliRun resumed = CliRun.of("tune", "--resume", "--out", stopped.toString(), "--quiet");
    assertEquals(0, resumed.exitCode(), resumed.err());
    assertSameResult(reference, stopped);
  }

  /** {@code tune ARGS --backend sim}, for the full CLI. */
  private static String[] withSim(List<String> args) {
    List<String> a = new ArrayList<>(List.of("tune"));
    a.addAll(args);
    a.addAll(List.of("--backend", "sim"));
    return a.toArray(String[]::new);
  }
}
