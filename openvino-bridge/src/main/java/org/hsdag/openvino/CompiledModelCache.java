package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Values (compiled models) kept by key, least recently used released first so that the bytes
 * charged for them stay within a budget. Pure bookkeeping: the caller says what a value is charged,
 * and {@code release} frees what leaves (evicted, removed, cleared). Not thread-safe (the backend
 * serialises its measurements).
 *
 * @param <K> the key: everything that makes two compiled models differ
 * @param <V> what is kept
 */
final class CompiledModelCache<K, V> {
  private final LinkedHashMap<K, Charged<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Consumer<? super V> release;
  private long budgetBytes;
  private long bytes;
  private long peakBytes;
  private int peakEntries;
  private int hits;
  private int evictions;

  private record Charged<V>(V value, long bytes) {}

  /** Keeps at most {@code budgetBytes} (0: nothing); {@code release} frees a value that leaves. */
  CompiledModelCache(long budgetBytes, Consumer<? super V> release) {
    this.release = release;
    this.budgetBytes = requireBudget(budgetBytes);
  }

  private static long requireBudget(long b) {
    if (b < 0) {
      throw new IllegalArgumentException("a cache budget must be >= 0 bytes (got " + b + ")");
    }
    return b;
  }

  /** The value kept for {@code key}, now the most recently used (a hit), or null. */
  V get(K key) {
    Charged<V> c = entries.get(key);
    if (c == null) {
      return null;
    }
    hits++;
    return c.value();
  }

  /**
   * Keeps {@code value} for {@code key}, charged {@code cost} bytes, releasing the least recently used
   * values until it fits. A value that cannot fit even alone is not kept and nothing is released.
   *
   * @return whether it is kept (if not, the caller still owns it and frees it)
   * @throws IllegalStateException if {@code key} is already kept
   */
  boolean put(K key, V value, long cost) {
    if (entries.containsKey(key)) {
      throw new IllegalStateException("already kept: " + key);
    }
    long charged = Math.max(0, cost);
    if (charged > budgetBytes || budgetBytes == 0) {
      return false;
    }
    evictTo(budgetBytes - charged);
    entries.put(key, new Charged<>(value, charged));
    bytes += charged;
    peakBytes = Math.max(peakBytes, bytes);
    peakEntries = Math.max(peakEntries, entries.size());
    return true;
  }

  /** Releases the value of {@code key} (e.g. one whose inference failed); no eviction is counted. */
  void remove(K key) {
    Charged<V> c = entries.remove(key);
    if (c != null) {
      bytes -= c.bytes();
      release.accept(c.value());
    }
  }

  /** Sets the budget, releasing least recently used values until the kept ones fit. */
  void budget(long budget) {
    budgetBytes = requireBudget(budget);
    // Budget 0 keeps nothing, even values charged 0 bytes (their growth fell under a page count).
    evictTo(budgetBytes == 0 ? -1 : budgetBytes);
  }

  /** Releases every value (closing the backend, a model bound again); no eviction is counted. */
  void clear() {
    List<V> all = new ArrayList<>();
    entries.values().forEach(c -> all.add(c.value()));
    entries.clear();
    bytes = 0;
    all.forEach(release);
  }

  private void evictTo(long limit) {
    Iterator<Map.Entry<K, Charged<V>>> it = entries.entrySet().iterator();
    while (bytes > limit && it.hasNext()) {
      Charged<V> c = it.next().getValue();
      it.remove();
      bytes -= c.bytes();
      evictions++;
      release.accept(c.value());
    }
  }

  long budgetBytes() {
    return budgetBytes;
  }

  /** Bytes charged for the values kept now. */
  long bytes() {
    return bytes;
  }

  int size() {
    return entries.size();
  }

  int hits() {
    return hits;
  }

  int evictions() {
    return evictions;
  }

  long peakBytes() {
    return peakBytes;
  }

  int peakEntries() {
    return peakEntries;
  }
}
