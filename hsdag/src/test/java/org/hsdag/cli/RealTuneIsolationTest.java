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
 * A real {@code tune} whose runtime child hangs in a search measurement, past the measurement deadline: the tune says
 * so, goes on with a fresh child and exits 0; the placement is logged as failed with that reason and not measured
 * again, in the run or on resume. The hang is the child's own, by the backend's test fault injector: a child stopped
 * with SIGSTOP answers as soon as anyone continues it (a tool that pauses and resumes the machine's processes does).
 * Asserts what happened, never how long it took.
 */
@Tag("openvino")
class RealTuneIsolationTest {
  /** The backend's test fault injector (org.hsdag.openvino.RuntimeFaultInjector): its system property for a hang. */
  private static final String INJECTOR = "hsdag.testFaultInjector.hangRuntimeAt";
  private static final String HUNG = "no answer in 15 s (the runtime was ended)";

  @TempDir
  Path tmp;

  @Test
  void aHungRuntimeChildFailsItsPlacementAndTheTuneGoesOnExitsZeroAndResumes() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path out = tmp.resolve("run");
    Path log = out.resolve("log.jsonl");
    CliRun r;
    System.setProperty(INJECTOR, "search:1"); // the first split measured: its child hangs as it starts
    try {
      r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2:precision=f32",
          "--devices", "CPU,CPU2", "--proxy", "none", "--budget", "10", "--patience", "0", "--top-k", "1",
          "--final-rounds", "2", "--measure-timeout", "15s", "--seed", "2", "--no-report", "--out", out.toString());
    } finally {
      System.clearProperty(INJECTOR);
    }
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains("the runtime child was lost during a measurement (" + HUNG), r.err());
    List<LogRecord> first = fresh(log);
    int hung = failedWith(first, HUNG);
    assertEquals(LogRecord.PHASE_SEARCH, first.get(hung).phase(), first.get(hung).toString());
    assertEquals(0, measuredAfter(first, hung), "the hung placement never measured again: " + first);
    assertTrue(first.subList(hung + 1, first.size()).stream().anyMatch(LogRecord::succeeded),
        "measured on a fresh child after the hang: " + first);
    assertTrue(Files.exists(out.resolve("best.json")), "the run completed");

    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "14", "--no-report");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<LogRecord> all = fresh(log);
    assertTrue(all.size() > first.size(), "the resume measured more");
    assertEquals(0, measuredAfter(all, hung), "never measured again on resume: " + all);
  }
}
