package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.models.TinyModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One seed, one run: the same short HSDAG tune, repeated in separate processes two at a time,
 * writes the same log line for line (timestamps and elapsed times aside). Every other child forces
 * a garbage collection every 2 ms, so collections fall at arbitrary moments of the search: a
 * result that depends on when memory is collected, as the policy gradient once did (1 of 13 long
 * runs diverged), shows up here.
 */
class TuneDeterminismTest {
  private static final int RUNS = 10;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A failure guard for a hung child, not a timing check. */
  private static final long PATIENCE_S = 300;

  @TempDir
  Path tmp;

  private Process start(Path model, Path out, boolean pressure) throws IOException {
    List<String> jvm = pressure ? List.of("-XX:+UseSerialGC", "-Dhsdag.test.collectEveryMs=2") : List.of();
    List<String> cmd = CliChild.command(jvm, List.of(
        "tune", model.toString(), "--devices", "CPU,GPU.1", "--backend", "sim", "--strategy", "hsdag",
        "--seed", "1", "--budget", "30", "--top-k", "1", "--final-rounds", "1", "--no-report", "--out", out.toString(),
        "--quiet"));
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(out.resolveSibling(out.getFileName() + ".txt").toFile())
        .start();
  }

  /** The log's lines without the fields that measure wall-clock time (and the checksum chain over them). */
  private static List<String> timelessLog(Path run) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("log.jsonl"))) {
      ObjectNode record = (ObjectNode) JSON.readTree(line);
      record.remove(List.of("time", "elapsed_s", "chain"));
      lines.add(record.toString());
    }
    return lines;
  }

  @Test
  void sameSeedWritesTheSameLogInEveryRunTwoRunsAtATime() throws Exception {
    Path model = tmp.resolve("tiny_transformer.xml");
    TinyModels.transformer().writeTo(model, 7);
    List<Path> runs = new ArrayList<>();
    for (int i = 0; i < RUNS; i += 2) {
      Path a = tmp.resolve("run-" + i);
      Path b = tmp.resolve("run-" + (i + 1));
      Process pa = start(model, a, false);
      Process pb = start(model, b, true);
      for (Process p : List.of(pa, pb)) {
        try {
          if (!p.waitFor(PATIENCE_S, TimeUnit.SECONDS)) {
            throw new AssertionError("a tune child did not finish within " + PATIENCE_S + " s");
          }
        } finally {
          p.destroyForcibly();
        }
      }
      for (Path run : List.of(a, b)) {
        Path console = run.resolveSibling(run.getFileName() + ".txt");
        int code = run.equals(a) ? pa.exitValue() : pb.exitValue();
        assertEquals(0, code, () -> "tune failed: " + readQuietly(console));
        runs.add(run);
      }
    }
    List<String> first = timelessLog(runs.get(0));
    for (Path run : runs.subList(1, runs.size())) {
      List<String> other = timelessLog(run);
      for (int i = 0; i < Math.min(first.size(), other.size()); i++) {
        int line = i + 1;
        assertEquals(first.get(i), other.get(i), () -> run.getFileName() + " differs from run-0 at log line " + line);
      }
      assertEquals(first.size(), other.size(), run.getFileName() + ": number of log lines");
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }
}
