package org.hsdag.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.hsdag.models.ModelCatalog;

/**
 * Run folders for the live view's tests: one real (simulated) tune, and a copy of it that is replayed line by line,
 * as a running tune writes it (the log's lines are copied whole, so their checksums stay valid).
 */
final class ViewRuns {
  private ViewRuns() {}

  /** The run's own files a finished tune leaves beside its log. */
  static final List<String> FINISHED_FILES = List.of("result.json", "notes.json", "objective.json", "best.json",
      "report.html", "report.md");

  /** Tunes the bundled tiny_transformer on the simulator into {@code dir}: baselines, a short search, a final race. */
  static Path finishedRun(Path work) throws IOException {
    Path model = work.resolve("tiny_transformer.xml");
    ModelCatalog.get("tiny_transformer").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    Path dir = work.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy",
        "random", "--budget", "12", "--patience", "0", "--top-k", "3", "--final-rounds", "2", "--out",
        dir.toString(), "--quiet");
    assertEquals(0, r.exitCode(), r.err());
    return dir;
  }

  /** A run being replayed: the manifest and the first lines of the finished run's log. */
  static final class Replay {
    private final Path from;
    private final Path to;
    private final List<String> lines;
    private int written;

    Replay(Path from, Path to) throws IOException {
      this.from = from;
      this.to = to;
      Files.createDirectories(to);
      Files.copy(from.resolve("manifest.json"), to.resolve("manifest.json"));
      lines = Files.readAllLines(from.resolve("log.jsonl"), StandardCharsets.UTF_8);
      Files.writeString(to.resolve("log.jsonl"), "");
    }

    /** Appends log lines until {@code measurements} measurement records of {@code phase} are written. */
    void untilMeasurements(String phase, int measurements) throws IOException {
      int seen = 0;
      for (int i = 0; i < written; i++) {
        seen += isMeasurement(lines.get(i), phase) ? 1 : 0;
      }
      List<String> more = new ArrayList<>();
      while (written < lines.size() && seen < measurements) {
        String line = lines.get(written++);
        seen += isMeasurement(line, phase) ? 1 : 0;
        more.add(line);
      }
      append(more);
    }

    /** Appends the rest of the log, then the files a finished tune writes. */
    void finish() throws IOException {
      append(lines.subList(written, lines.size()));
      written = lines.size();
      for (String f : FINISHED_FILES) {
        if (Files.exists(from.resolve(f))) {
          Files.copy(from.resolve(f), to.resolve(f));
        }
      }
    }

    private void append(List<String> more) throws IOException {
      StringBuilder sb = new StringBuilder();
      more.forEach(l -> sb.append(l).append('\n'));
      Files.writeString(to.resolve("log.jsonl"), sb.toString(), StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND);
    }

    private static boolean isMeasurement(String line, String phase) {
      return line.contains("\"type\":\"measurement\"") && line.contains("\"phase\":\"" + phase + "\"");
    }
  }
}
