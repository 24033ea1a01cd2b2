package org.hsdag.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many measurements each worker delivered in this run (tries abandoned or refused are not counted). */
final class WorkerTally {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final Map<String, String> excluded = new ConcurrentHashMap<>();

  /**
   * A tally that starts from the counts in {@code file} (a resumed run's {@code workers.json}), or from zero.
   */
  static WorkerTally resumed(Path file) {
    WorkerTally t = new WorkerTally();
    if (file == null || !Files.isRegularFile(file)) {
      return t;
    }
    try {
      JsonNode doc = new ObjectMapper().readTree(file.toFile());
      doc.path("measurements_by_worker").fields()
          .forEachRemaining(e -> t.counts.put(e.getKey(), new AtomicInteger(Math.max(0, e.getValue().asInt()))));
      doc.path("excluded_workers").fields().forEachRemaining(e -> t.excluded.put(e.getKey(), e.getValue().asText()));
    } catch (IOException e) {
      // An unreadable file is rewritten with this run's counts.
    }
    return t;
  }

  void add(String worker) {
    counts.computeIfAbsent(worker, w -> new AtomicInteger()).incrementAndGet();
  }

  /** Notes that {@code worker} was excluded from the run, and why (the first reason is kept). */
  void exclude(String worker, String why) {
    excluded.putIfAbsent(worker, why);
  }

  /** Excluded worker to why, sorted by name. */
  Map<String, String> excluded() {
    return new TreeMap<>(excluded);
  }

  int count(String worker) {
    AtomicInteger c = counts.get(worker);
    return c == null ? 0 : c.get();
  }

  /** Worker name to count, sorted by name. */
  Map<String, Integer> snapshot() {
    Map<String, Integer> out = new TreeMap<>();
    counts.forEach((w, c) -> out.put(w, c.get()));
    return out;
  }
}
