package org.hsdag.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.tune.DamagedRunFileException;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunNotes;
import org.hsdag.tune.Tuner;

/**
 * What the live view shows, read from a run folder alone (manifest, log, notes, result), so a running, killed or
 * finished run reads the same way: phase and progress, the best-so-far series with the single-device lines, the
 * candidates with their intervals, the cost model's predictions against the measurements, the best placement,
 * load warnings and, once the run is over, its result.
 */
public final class ViewState {
  private ViewState() {}

  /** Search points kept in the series: a long run is thinned to this many (the best ones always kept). */
  static final int MAX_POINTS = 2000;
  /** Candidates listed during the search (the fastest measured so far). */
  static final int TOP = 5;

  private static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper();

  /** The state of the run in {@code dir} as the page's JSON. */
  public static ObjectNode of(Path dir) throws IOException {
    ObjectNode o = JSON.createObjectNode();
    JsonNode manifest = readJson(dir.resolve(RunManifest.FILE));
    List<LogRecord> records;
    try {
      records = RunLog.read(dir.resolve(Tuner.LOG_FILE)).records();
    } catch (DamagedRunFileException e) {
      o.put("phase", "damaged");
      o.put("error", e.getMessage());
      return o;
    }
    o.set("run", run(manifest));
    JsonNode result = readJson(dir.resolve(Tuner.RESULT_FILE));
    JsonNode notes = readJson(dir.resolve(RunNotes.FILE));
    o.put("phase", phase(manifest, records, result));
    o.put("live", isLive(records));
    o.put("elapsed_s", records.isEmpty() ? 0 : nz(records.get(records.size() - 1).elapsedS()));
    List<LogRecord> measured = records.stream().filter(LogRecord::hasMeasurement).toList();
    o.set("progress", progress(manifest, measured));
    o.set("baselines", baselines(measured));
    o.set("series", series(measured));
    o.set("candidates", result != null && result.has("candidates") ? resultCandidates(result) : candidates(measured));
    o.set("trust", trust(measured, notes));
    o.set("placement", placement(manifest, measured, result));
    o.set("load", load(measured, notes));
    if (result != null) {
      o.set("final", finalPick(result, Files.isRegularFile(dir.resolve("report.html"))));
    }
    return o;
  }

  private static JsonNode readJson(Path file) throws IOException {
    try {
      return JSON.readTree(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      return null;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return null; // being replaced: the next poll reads it whole (run files are written atomically)
    }
  }

  private static ObjectNode run(JsonNode manifest) {
    ObjectNode r = JSON.createObjectNode();
    if (manifest == null) {
      return r;
    }
    for (String key : List.of("model_name", "backend", "profile", "simulated", "nodes")) {
      if (manifest.has(key)) {
        r.set(key, manifest.get(key));
      }
    }
    JsonNode config = manifest.path("config");
    r.set("devices", config.path("devices"));
    r.set("strategy", config.path("strategy"));
    return r;
  }

  /** starting, cost-model build, baselines, search, final race, then completed, interrupted or failed. */
  static String phase(JsonNode manifest, List<LogRecord> records, JsonNode result) {
    if (manifest == null) {
      return "starting";
    }
    LogRecord last = null;
    for (LogRecord r : records) {
      if (!LogRecord.MEASURING.equals(r.type())) {
        last = r;
      }
    }
    if (last == null || LogRecord.HEADER.equals(last.type())) {
      return last == null ? "cost-model build" : "baselines";
    }
    if (LogRecord.FOOTER.equals(last.type())) {
      return "completed".equals(last.status()) && result == null ? "writing the report" : String.valueOf(last.status());
    }
    return switch (String.valueOf(last.phase())) {
      case LogRecord.PHASE_BASELINE -> "baselines";
      case LogRecord.PHASE_FINAL -> "final race";
      default -> "search";
    };
  }

  /** No footer after the last header: running now, or killed (the page says when the log last grew). */
  private static boolean isLive(List<LogRecord> records) {
    for (int i = records.size() - 1; i >= 0; i--) {
      String type = records.get(i).type();
      if (LogRecord.FOOTER.equals(type)) {
        return false;
      }
      if (LogRecord.HEADER.equals(type)) {
        return true;
      }
    }
    return true;
  }

  private static ObjectNode progress(JsonNode manifest, List<LogRecord> measured) {
    ObjectNode p = JSON.createObjectNode();
    long search = measured.stream().filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase())).count();
    long timed = measured.stream().filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase())
        && !Boolean.TRUE.equals(r.cached())).count();
    p.put("steps", search);
    p.put("measurements", timed);
    p.put("failures", measured.stream().filter(r -> !r.succeeded()).count());
    p.put("final_measurements", measured.stream().filter(r -> LogRecord.PHASE_FINAL.equals(r.phase())).count());
    JsonNode config = manifest == null ? null : manifest.path("config");
    if (config != null) {
      p.put("budget", config.path("budget").asInt());
      p.put("time_limit_s", config.path("time_limit_seconds").asLong());
      p.put("final_rounds", config.path("final_rounds").asInt());
      p.put("top_k", config.path("top_k").asInt());
    }
    return p;
  }

  private static ArrayNode baselines(List<LogRecord> measured) {
    Map<String, LogRecord> last = new LinkedHashMap<>();
    for (LogRecord r : measured) {
      if (LogRecord.PHASE_BASELINE.equals(r.phase()) && r.candidate() != null) {
        last.put(r.candidate(), r);
      }
    }
    ArrayNode a = JSON.createArrayNode();
    last.forEach((label, r) -> {
      ObjectNode b = a.addObject().put("label", label);
      interval(b, r);
      if (!r.succeeded()) {
        b.put("failed", r.reason() == null ? "failed" : r.reason());
      }
    });
    return a;
  }

  private static ArrayNode series(List<LogRecord> measured) {
    List<LogRecord> search = measured.stream().filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase())).toList();
    int stride = Math.max(1, (search.size() + MAX_POINTS - 1) / MAX_POINTS);
    ArrayNode a = JSON.createArrayNode();
    double best = Double.NaN;
    for (int i = 0; i < search.size(); i++) {
      LogRecord r = search.get(i);
      boolean improved = r.succeeded() && !(r.latencyMs() >= best);
      if (improved) {
        best = r.latencyMs();
      }
      if (i % stride != 0 && !improved && i != search.size() - 1) {
        continue;
      }
      ObjectNode s = a.addObject().put("step", r.step() == null ? i : r.step());
      if (r.succeeded()) {
        s.put("ms", r.latencyMs());
      }
      if (!Double.isNaN(best)) {
        s.put("best_ms", best);
      }
      s.put("cached", Boolean.TRUE.equals(r.cached()));
    }
    return a;
  }

  /** During the search: the fastest distinct placements measured; in the final race: each finalist's rounds. */
  private static ArrayNode candidates(List<LogRecord> measured) {
    List<LogRecord> fin = measured.stream().filter(r -> LogRecord.PHASE_FINAL.equals(r.phase())).toList();
    ArrayNode a = JSON.createArrayNode();
    if (!fin.isEmpty()) {
      Map<String, List<LogRecord>> by = new LinkedHashMap<>();
      fin.stream().filter(LogRecord::succeeded).forEach(r -> by.computeIfAbsent(r.candidate(), k -> new ArrayList<>())
          .add(r));
      by.forEach((label, rs) -> {
        double[] ms = rs.stream().mapToDouble(LogRecord::latencyMs).sorted().toArray();
        ObjectNode c = a.addObject().put("label", label).put("ms", ms[ms.length / 2])
            .put("low_ms", rs.stream().mapToDouble(r -> nz(r.ciLowMs())).min().orElse(Double.NaN))
            .put("high_ms", rs.stream().mapToDouble(r -> nz(r.ciHighMs())).max().orElse(Double.NaN))
            .put("rounds", rs.size()).put("baseline", label.endsWith("-only"));
        c.set("ops_per_device", JSON.valueToTree(rs.get(0).opsPerDevice()));
      });
      sortByMs(a);
      return a;
    }
    Map<String, LogRecord> distinct = new LinkedHashMap<>();
    for (LogRecord r : measured) {
      if (r.succeeded() && !Boolean.TRUE.equals(r.cached())) {
        distinct.merge(r.placement(), r, (x, y) -> x.latencyMs() <= y.latencyMs() ? x : y);
      }
    }
    distinct.values().stream().sorted(Comparator.comparingDouble(LogRecord::latencyMs)).limit(TOP).forEach(r -> {
      ObjectNode c = a.addObject().put("label", label(r)).put("rounds", 0)
          .put("baseline", LogRecord.PHASE_BASELINE.equals(r.phase()));
      interval(c, r);
      c.set("ops_per_device", JSON.valueToTree(r.opsPerDevice()));
    });
    return a;
  }

  private static ArrayNode resultCandidates(JsonNode result) {
    ArrayNode a = JSON.createArrayNode();
    for (JsonNode c : result.path("candidates")) {
      ObjectNode n = a.addObject().put("label", c.path("label").asText()).put("ms", c.path("latency_ms").asDouble())
          .put("low_ms", c.path("ci95_low_ms").asDouble()).put("high_ms", c.path("ci95_high_ms").asDouble())
          .put("rounds", c.path("rounds").asInt()).put("baseline", c.path("baseline").asBoolean());
      n.set("ops_per_device", c.path("ops_per_device"));
    }
    sortByMs(a);
    return a;
  }

  private static void sortByMs(ArrayNode a) {
    List<JsonNode> sorted = new ArrayList<>();
    a.forEach(sorted::add);
    sorted.sort(Comparator.comparingDouble(n -> n.path("ms").asDouble(Double.MAX_VALUE)));
    a.removeAll();
    a.addAll(sorted);
  }

  /** Each measurement the cost model had predicted (before it ran), with what it measured. */
  private static ObjectNode trust(List<LogRecord> measured, JsonNode notes) {
    ObjectNode t = JSON.createObjectNode();
    ArrayNode points = t.putArray("points");
    for (LogRecord r : measured) {
      if (r.succeeded() && r.predictedMs() != null && !LogRecord.PHASE_FINAL.equals(r.phase())
          && !Boolean.TRUE.equals(r.cached())) {
        points.addObject().put("predicted_ms", r.predictedMs()).put("ms", r.latencyMs()).put("label", label(r));
      }
    }
    if (notes != null && notes.hasNonNull("trust")) {
      t.put("summary", notes.get("trust").asText());
    }
    return t;
  }

  /** The best placement so far (the result's once the run is over), for the per-device drawing. */
  private static ObjectNode placement(JsonNode manifest, List<LogRecord> measured, JsonNode result) {
    ObjectNode p = JSON.createObjectNode();
    String wanted = result == null ? null : result.path("best").path("placement").asText(null);
    LogRecord best = null;
    for (LogRecord r : measured) {
      if (!r.succeeded() || r.assignment() == null || LogRecord.PHASE_FINAL.equals(r.phase())) {
        continue;
      }
      if (wanted != null ? wanted.equals(r.placement()) : best == null || r.latencyMs() < best.latencyMs()) {
        best = r;
      }
    }
    if (best == null) {
      return p;
    }
    p.put("label", wanted != null ? result.path("best").path("label").asText() : label(best));
    p.put("assignment", best.assignment());
    p.set("ops_per_device", JSON.valueToTree(best.opsPerDevice()));
    if (manifest != null) {
      p.set("devices", manifest.path("config").path("devices"));
    }
    return p;
  }

  private static ObjectNode load(List<LogRecord> measured, JsonNode notes) {
    ObjectNode l = JSON.createObjectNode();
    long withLoad = measured.stream().filter(r -> r.load() != null).count();
    long flagged = measured.stream().filter(r -> r.load() != null && r.load().flagged()).count();
    l.put("measured", withLoad).put("flagged", flagged);
    measured.stream().filter(r -> r.load() != null).mapToDouble(r -> r.load().foreignCores()).max()
        .ifPresent(x -> l.put("max_foreign_cores", x));
    if (notes != null && notes.hasNonNull("load")) {
      l.put("summary", notes.get("load").asText());
    }
    return l;
  }

  private static ObjectNode finalPick(JsonNode result, boolean report) {
    ObjectNode f = JSON.createObjectNode();
    for (String key : List.of("status", "decision", "stop_reason", "simulated")) {
      if (result.has(key)) {
        f.set(key, result.get(key));
      }
    }
    f.set("best", result.path("best"));
    f.put("report", report);
    return f;
  }

  private static String label(LogRecord r) {
    return r.candidate() != null ? r.candidate() : r.step() != null ? "step " + r.step() : r.placement();
  }

  private static void interval(ObjectNode n, LogRecord r) {
    if (r.latencyMs() != null) {
      n.put("ms", r.latencyMs());
    }
    if (r.ciLowMs() != null && r.ciHighMs() != null) {
      n.put("low_ms", r.ciLowMs()).put("high_ms", r.ciHighMs());
    }
  }

  private static double nz(Double x) {
    return x == null ? Double.NaN : x;
  }
}
