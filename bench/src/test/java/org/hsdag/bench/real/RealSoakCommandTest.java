package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.models.ModelCatalog;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench soak} on the real runtime, a tiny model and two short tunes under one busy thread: it counts them. */
@Tag("openvino")
class RealSoakCommandTest {
  @TempDir
  Path dir;

  @Test
  void twoShortRealTunesUnderLoadAreCountedWithoutInternalErrors() throws Exception {
    RealOpenVino.require();
    Path model = dir.resolve("tiny_transformer.xml");
    ModelCatalog.get("tiny_transformer").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    Path out = dir.resolve("soak");
    CliRun r = CliRun.of("bench", "soak", model.toString(), "--tunes", "2", "--load", "1", "--budget", "2",
        "--tune-option=--proxy=none", "--tune-option=--final-rounds=0", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("seed 1: exit 0") && r.out().contains("seed 2: exit 0"), r.out());
    assertTrue(r.out().contains("soak: 2 real tunes of " + model + " (openvino, CPU,CPU2, --budget 2) with 1 busy "
        + "threads: 0 internal errors, 0 ended in an error, 0 of them resumed to exit 0"), r.out());
    assertTrue(Files.exists(out.resolve("tune-1").resolve("best.json")) && Files.exists(out.resolve("tune-2")));
    assertEquals(2, CliRun.of("bench", "soak", model.toString(), "--out", out.toString()).exitCode(),
        "an existing --out is refused");
  }
}
