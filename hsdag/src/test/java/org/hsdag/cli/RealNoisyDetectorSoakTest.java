package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short real tunes of a detector-style IR (PriorBox shape chains HETERO refuses to cut) under load the test
 * makes itself, so the profiled cost model is noisy: none ends in an internal error, and each folder
 * resumes. (NoisyDetectorSoakTest runs many more on the simulator.)
 */
@Tag("openvino")
class RealNoisyDetectorSoakTest {
  @TempDir
  Path tmp;

  @Test
  void realTunesUnderLoadNeverEndInAnInternalErrorAndResume() throws Exception {
    RealOpenVino.require();
    Path model = RealRefusalTest.writePriorsModel(tmp);
    AtomicBoolean running = new AtomicBoolean(true);
    Thread load = new Thread(() -> {
      double x = 0;
      while (running.get()) {
        x += Math.sqrt(x + 1);
      }
    }, "generated-load");
    load.setDaemon(true);
    load.start();
    try {
      for (int seed = 1; seed <= 3; seed++) {
        Path out = tmp.resolve("run" + seed);
        CliRun r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2",
            "--test-device", "CPU2:precision=f32", "--budget", "4", "--final-rounds", "1", "--top-k", "1",
            "--seed", Integer.toString(seed), "--out", out.toString());
        assertFalse(r.err().contains("internal error"), r.err());
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
        CliRun again = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "5");
        assertFalse(again.err().contains("internal error"), again.err());
        assertEquals(ExitCodes.OK, again.exitCode(), again.out() + again.err());
      }
    } finally {
      running.set(false);
    }
  }
}
