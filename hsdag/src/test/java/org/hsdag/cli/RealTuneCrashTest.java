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
    Crashed c = crashedAt("search:1", LogRecord.PHASE_SEARCH);
    assertTrue(c.run().out().contains("failed measurements by reason (search and final rounds): " + CRASHED),
        c.run().out());
    assertResumeNeverMeasuresIt(c);
  }

  @Test
  void aCrashInABaselineFailsThatDeviceAloneAndTheTuneGoesOnWithTheOtherExitsZeroAndResumesWithoutIt()
      throws Exception {
    Crashed c = crashedAt("baseline:1", LogRecord.PHASE_BASELINE);
    assertEquals("CPU-only", c.record().candidate(), "the first baseline crashed");
    assertTrue(c.records().stream().anyMatch(x -> LogRecord.PHASE_SEARCH.equals(x.phase()) && x.succeeded()),
        "the search went on: " + c.records());
    assertTrue(c.run().out().contains(CRASHED + " while"), "the summary's table says why: " + c.run().out());
    assertResumeNeverMeasuresIt(c);
  }

  @Test
  void aCrashInTheFinalRaceEndsThatFinalistsRoundsAndTheTuneStillPicksExitsZeroAndResumesWithoutIt()
      throws Exception {
    Crashed c = crashedAt("final:1", LogRecord.PHASE_FINAL);
    assertTrue(c.run().out().contains("failed in final round 0: " + CRASHED), c.run().out());
    assertResumeNeverMeasuresIt(c);
  }

  /**
   * A tune whose child crashed in the measurement {@code crashAt} names: exit 0, the note said, that measurement
   * failed as crashed in {@code phase}, measurements on a fresh child after it, never its placement, and a pick.
   */
  private Crashed crashedAt(String crashAt, String phase) throws Exception {
    Path out = tmp.resolve("run");
    CliRun r = tuneCrashingAt(crashAt, out);
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains(NOTE), r.err());
    List<LogRecord> first = fresh(out.resolve("log.jsonl"));
    int crash = failedWith(first, CRASHED);
    assertEquals(phase, first.get(crash).phase(), first.get(crash).toString());
    assertEquals(0, measuredAfter(first, crash), "the crashed placement never measured again: " + first);
    assertTrue(first.subList(crash + 1, first.size()).stream().anyMatch(LogRecord::succeeded),
        "measured on a fresh child after the crash: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed with a pick");
    return new Crashed(r, out, first, crash);
  }

  /** A crashed run: its output, folder, the measurements it took, and which of them crashed. */
  private record Crashed(CliRun run, Path out, List<LogRecord> records, int at) {
    LogRecord record() {
      return records.get(at);
    }
  }

  /** A resume with a larger budget (no fault injected) measures more, never the crashed placement. */
  private static void assertResumeNeverMeasuresIt(Crashed c) {
    CliRun resumed = CliRun.of("tune", "--resume", "--out", c.out().toString(), "--budget", "8", "--no-report");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<LogRecord> all = fresh(c.out().resolve("log.jsonl"));
    assertTrue(all.size() > c.records().size(), "the resume measured more: " + all);
    assertEquals(0, measuredAfter(all, c.at()), "never measured again on resume: " + all);
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
