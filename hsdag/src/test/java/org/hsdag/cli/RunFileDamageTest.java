package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resume never believes a run file that changed after hsdag wrote it, and never dies of a damaged checkpoint. */
class RunFileDamageTest {
  @TempDir
  Path tmp;

  private CliRun tune(Path model, Path out, String strategy, int budget) {
    return CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", strategy,
        "--budget", String.valueOf(budget), "--top-k", "1", "--final-rounds", "2", "--no-report", "--out",
        out.toString());
  }

  @Test
  void aCompletedRunWhoseLogWasEditedIsRefusedWithFileAndLine() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    assertEquals(ExitCodes.OK, tune(model, out, "random", 12).exitCode());
    Path log = out.resolve("log.jsonl");
    String best = Files.readString(out.resolve("best.json"));
    List<String> lines = new ArrayList<>(Files.readAllLines(log));
    int edited = -1;
    for (int i = 0; i < lines.size() && edited < 0; i++) {
      if (lines.get(i).contains("\"phase\":\"final\"") && lines.get(i).contains("\"latency_ms\":")) {
        lines.set(i, lines.get(i).replaceFirst("\"latency_ms\":[0-9.eE-]+", "\"latency_ms\":1.0"));
        edited = i + 1;
      }
    }
    assertTrue(edited > 0, "the run has a final-phase measurement to edit");
    Files.write(log, lines);
    String before = Files.readString(log);

    CliRun r = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "14");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    List<String> err = r.err().lines().toList();
    assertTrue(err.get(err.size() - 1).equals("hsdag: " + log + ":" + edited
        + ": was changed after it was written (its checksum does not match)"), r.err());
    assertEquals(before, Files.readString(log), "a refused resume changes nothing");
    assertEquals(best, Files.readString(out.resolve("best.json")));
  }

  @Test
  void aTruncatedCheckpointPointerMeansReplayingTheLog() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    assertEquals(ExitCodes.OK, tune(model, out, "hsdag", 12).exitCode());
    Path latest = out.resolve("checkpoint/latest.json");
    assertTrue(Files.isRegularFile(latest), "the hsdag strategy checkpoints");
    String text = Files.readString(latest);
    Files.writeString(latest, text.substring(0, text.length() / 2));

    CliRun r = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "16");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.err().contains("latest.json") && r.err().contains("replaying the whole log"), r.err());
    assertNotEquals(-1, r.out().indexOf("ms"), r.out());
  }
}
