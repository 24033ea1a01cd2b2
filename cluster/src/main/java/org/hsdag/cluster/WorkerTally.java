package org.hsdag.cluster;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many measurements each worker delivered in this run (tries abandoned or refused are not counted). */
final class WorkerTally {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  void add(String worker) {
    counts.computeIfAbsent(worker, w -> new AtomicInteger()).incrementAndGet();
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
