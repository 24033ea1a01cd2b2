package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --objective and --requests reach the run, its report and a resume; bad values are one-line usage errors. */
class ObjectiveOptionsTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  private CliRun tune(Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1",
        "--top-k", "2", "--final-rounds", "1", "--out", out.toString()));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static void assertUsageError(CliRun r, String expected) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertEquals("hsdag: " + expected, r.err().strip());
  }

  @Test
  void throughputTuneWritesItsObjectiveToTheRunAndTheReport() throws IOException {
    Path out = tmp.resolve("run");
    CliRun r = tune(out, "--budget", "6", "--objective", "throughput", "--requests", "4");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("objective: throughput (4 requests in flight)"), r.out());
    assertTrue(r.out().contains("inferences/s (4 in flight, simulated, sim/paper)"), r.out());
    RunObjective saved = RunObjective.read(out);
    assertEquals(Objective.THROUGHPUT, saved.objective());
    assertEquals(4, saved.requested());
    assertFalse(saved.figures().isEmpty());
    assertTrue(saved.figures().stream().anyMatch(RunObjective.Row::best));
    for (RunObjective.Row row : saved.figures()) {
      // With 4 requests in flight a placement is never slower per inference than alone.
      assertTrue(1000 / row.inferencesPerSecond() <= row.latencyMillis() + 1e-9, row.toString());
    }
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("Tuned for **throughput** with 4 requests in flight"), report);
    assertTrue(report.contains("inferences/s"), report);
  }

  @Test
  void resumeKeepsTheObjectiveOfTheRun() throws IOException {
    Path out = tmp.resolve("run");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "4", "--objective", "throughput").exitCode());
    CliRun more = tune(out, "--resume", "--budget", "8", "--objective", "latency");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(more.err().lines().anyMatch(l -> l.contains("ignored:") && l.contains("--objective")), more.err());
    assertTrue(more.out().contains("objective: throughput (3 requests in flight)"), more.out());
    assertEquals(Objective.THROUGHPUT, RunObjective.read(out).objective());
  }

  @Test
  void latencyIsTheDefaultAndStillReportsBothFiguresOnTheSimulator() throws IOException {
    Path out = tmp.resolve("run");
    CliRun r = tune(out, "--budget", "4");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("objective: latency"), r.out());
    assertEquals(Objective.LATENCY, RunObjective.read(out).objective());
    assertFalse(RunObjective.read(out).figures().isEmpty());
  }

  @Test
  void badObjectiveOrRequestsAreOneLineUsageErrors() {
    Path out = tmp.resolve("run");
    assertUsageError(tune(out, "--objective", "throughput", "--requests", "0"),
        "--requests must be at least 1 (got 0)");
    assertUsageError(tune(out, "--objective", "speed"), "--objective 'speed' is not one of latency, throughput");
    assertUsageError(tune(out, "--requests", "3"), "--requests applies to --objective throughput only");
    assertFalse(Files.exists(out), "nothing written");
    assertUsageError(CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--objective",
        "throughput", "--requests", "-2"), "--requests must be at least 1 (got -2)");
  }
}
