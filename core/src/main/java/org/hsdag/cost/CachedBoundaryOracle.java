package org.hsdag.cost;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link BoundaryOracle} that remembers its last answers by cut set (least recently used first
 * out), so a search asking again about a split, or about another placement with the same cuts,
 * costs one lookup. One per model: cuts name that model's nodes. Thread-safe.
 */
public final class CachedBoundaryOracle implements BoundaryOracle {
  private final BoundaryOracle inner;
  private final Map<List<Cut>, Verdict> cache;
  private long hits;
  private long misses;

  /** Keeps at most {@code capacity} answers of {@code inner}. */
  public CachedBoundaryOracle(BoundaryOracle inner, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.inner = inner;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<List<Cut>, Verdict> eldest) {
        return size() > capacity;
      }
    };
  }

  @Override
  public synchronized Verdict judge(List<Cut> cuts) {
    List<Cut> key = List.copyOf(cuts);
    Verdict v = cache.get(key);
    if (v != null) {
      hits++;
      return v;
    }
    misses++;
    v = inner.judge(key);
    cache.put(key, v);
    return v;
  }

  @Override
  public java.util.Optional<String> inputSizeProblem() {
    return inner.inputSizeProblem();
  }

  @Override
  public String source() {
    return inner.source();
  }

  /** Answers given from the cache so far, and those asked of the inner oracle. */
  public synchronized long[] hitsAndMisses() {
    return new long[] {hits, misses};
  }
}
