package org.hsdag.cli;

import static org.hsdag.cli.RealTuneLog.failedWith;
import static org.hsdag.cli.RealTuneLog.fresh;
import static org.hsdag.cli.RealTuneLog.measuredAfter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.tune.LogRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tune} whose runtime child crashes (SIGSEGV) inside one chosen measurement — a search step, a
 * single-device baseline, a final-race round — by the backend's test fault injector, so the crash lands there and
 * nowhere else however loaded the machine is: the tune says so, goes on with a fresh child and exits 0; the placement
 * is logged as failed with that reason and never measured again, in the run or on resume. Asserts what happened,
 * never how long it took.
 */
@Tag("openvino")
class RealTuneCrashTest {
  /** The backend's test fault injector (org.hsdag.openvino.RuntimeFaultInjector): its system property. */
  private static final String INJECTOR = "hsdag.testFaultInjector.crashRuntimeAt";
  private static final String CRASHED = "crashed the runtime (signal 11, SIGSEGV)";
  private static final String NOTE = "the runtime child was lost during a measurement (" + CRASHED;

  @TempDir
  Path tmp;

  @Test
  void aCrashInASearchMeasurementFailsThatPlacementOnlyAndTheTuneGoesOnExitsZeroAndResumesWithoutIt()
      throws Exception {
    Path out = tmp.resolve("run");
    CliRun r = tuneCrashingAt("search:1", out);
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains(NOTE), r.err());
    assertTrue((r.out() + r.err()).contains("failed measurements by reason (search and final rounds): " + CRASHED),
        r.out() + r.err());
    List<LogRecord> first = fresh(out.resolve("log.jsonl"));
    int crash = failedWith(first, CRASHED);
    assertEquals(LogRecord.PHASE_SEARCH, first.get(crash).phase(), first.get(crash).toString());
    assertTrue(first.subList(crash + 1, first.size()).stream().anyMatch(LogRecord::succeeded),
        "measured on a fresh child after the crash: " + first);
    assertEquals(0, measuredAfter(first, crash), "the crashed placement never measured again: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed");
    assertResumeNeverMeasuresIt(out, first, crash);
  }

  @Test
  void aCrashInABaselineFailsThatDeviceAloneAndTheTuneGoesOnWithTheOtherExitsZeroAndResumesWithoutIt()
      throws Exception {
    Path out = tmp.resolve("run");
    CliRun r = tuneCrashingAt("baseline:1", out);
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains(NOTE), r.err());
    List<LogRecord> first = fresh(out.resolve("log.jsonl"));
    int crash = failedWith(first, CRASHED);
    assertEquals(LogRecord.PHASE_BASELINE, first.get(crash).phase(), first.get(crash).toString());
    assertEquals("CPU-only", first.get(crash).candidate(), "the first baseline crashed");
    assertEquals(0, measuredAfter(first, crash), "the crashed baseline never measured again: " + first);
    assertTrue(first.stream().anyMatch(x -> LogRecord.PHASE_SEARCH.equals(x.phase()) && x.succeeded()),
        "the search went on: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed");
    assertResumeNeverMeasuresIt(out, first, crash);
  }

  @Test
  void aCrashInTheFinalRaceEndsThatFinalistsRoundsAndTheTuneStillPicksExitsZeroAndResumesWithoutIt()
      throws Exception {
    Path out = tmp.resolve("run");
    CliRun r = tuneCrashingAt("final:1", out);
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains(NOTE), r.err());
    List<LogRecord> first = fresh(out.resolve("log.jsonl"));
    int crash = failedWith(first, CRASHED);
    assertEquals(LogRecord.PHASE_FINAL, first.get(crash).phase(), first.get(crash).toString());
    assertEquals(0, measuredAfter(first, crash), "the crashed finalist never measured again: " + first);
    assertTrue(first.subList(crash + 1, first.size()).stream().anyMatch(LogRecord::succeeded),
        "the race went on on a fresh child: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the race picked a placement");
    assertResumeNeverMeasuresIt(out, first, crash);
  }

  /** A resume with a larger budget (no fault injected) measures more, never the crashed placement. */
  private static void assertResumeNeverMeasuresIt(Path out, List<LogRecord> first, int crash) {
    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "8", "--no-report");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<LogRecord> all = fresh(out.resolve("log.jsonl"));
    assertTrue(all.size() > first.size(), "the resume measured more: " + all);
    assertEquals(0, measuredAfter(all, crash), "never measured again on resume: " + all);
  }

  /** A real tune on CPU,CPU2 whose child crashes in the measurement {@code crashAt} names. */
  private CliRun tuneCrashingAt(String crashAt, Path out) throws Exception {
    Path model = RealTinyModel.write(tmp);
    // Long enough that only a crash ends a measurement, however slow the machine.
    System.setProperty(INJECTOR, crashAt);
    try {
      return CliRun.of("tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2:precision=f32",
          "--devices", "CPU,CPU2", "--proxy", "none", "--budget", "5", "--patience", "0", "--top-k", "1",
          "--final-rounds", "2", "--load-retakes", "0", "--measure-timeout", "10m", "--seed", "2", "--no-report",
          "--out", out.toString());
    } finally {
      System.clearProperty(INJECTOR);
    }
  }
}
