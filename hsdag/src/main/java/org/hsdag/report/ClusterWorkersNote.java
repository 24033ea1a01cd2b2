package org.hsdag.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The report's line on a fleet run: who measured, and who was excluded for disagreeing. */
final class ClusterWorkersNote {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ClusterWorkersNote() {}

  /** "Measured by N cluster workers: …" from {@code workers.json} (runs with {@code --cluster}), or null. */
  static String read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    JsonNode doc = JSON.readTree(Files.readAllBytes(file));
    List<String> parts = new ArrayList<>();
    doc.path("measurements_by_worker").fields()
        .forEachRemaining(e -> parts.add("`" + e.getKey() + "` " + e.getValue().asInt()));
    List<String> excluded = new ArrayList<>();
    doc.path("excluded_workers").fields()
        .forEachRemaining(e -> excluded.add("`" + e.getKey() + "` (" + e.getValue().asText() + ")"));
    return "Measured by " + parts.size() + " cluster worker" + (parts.size() == 1 ? "" : "s")
        + " (measurements this session): " + String.join(", ", parts) + (excluded.isEmpty() ? ""
            : ". Excluded, their figures disagreeing with the others' beyond the noise: "
                + String.join("; ", excluded));
  }
}
