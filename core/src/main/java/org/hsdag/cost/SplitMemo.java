package org.hsdag.cost;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last splits {@link HeteroSplit} computed, by placement (a model device per op), least recently
 * used first out. A split depends on the placement alone, never on the costs, so every model that
 * shares one {@link HeteroSplit} (the corrected and re-fitted models of a run: {@code
 * HeteroCostModel#withDeviceCosts} and its kin) shares its memo. A search evaluates the same
 * placements again and again: the planner's local search re-plans on each corrected model from the
 * same candidates, the veto re-ranks every measured placement after each measurement, the finalist
 * choice ranks the measured ones once more. Thread-safe; a hit returns what a fresh split would.
 */
final class SplitMemo {
  /** Bytes of memo a split may hold (two ints per op per entry: the key and the roots). */
  static final long BUDGET_BYTES = 32L << 20;
  /** Entries at most, whatever the model's size. */
  static final int MAX_ENTRIES = 8192;

  /** One split; its arrays are read, never changed, by whoever holds it. */
  static final class Entry {
    private final int[] rootOfOp;
    private final int[] subModelsByDevice;
    private final int count;
    private final boolean refused;

    /**
     * @param rootOfOp the first op of each op's sub-model (-1 where the split sets none)
     * @param subModelsByDevice sub-models per model device (indices up to the highest device placed)
     * @param count sub-models
     * @param refused whether HETERO refuses the placement ({@link ShapeBoundaries})
     */
    Entry(int[] rootOfOp, int[] subModelsByDevice, int count, boolean refused) {
      this.rootOfOp = rootOfOp;
      this.subModelsByDevice = subModelsByDevice;
      this.count = count;
      this.refused = refused;
    }

    int[] rootOfOp() {
      return rootOfOp;
    }

    int[] subModelsByDevice() {
      return subModelsByDevice;
    }

    int count() {
      return count;
    }

    boolean refused() {
      return refused;
    }

    /** Writes the roots into {@code rootOfOp}, adds the sub-models per device to {@code subModelsByDevice} (if not null); returns the count. */
    int copyTo(int[] rootOfOp, int[] subModelsByDevice) {
      for (int i = 0; i < rootOfOp.length && i < this.rootOfOp.length; i++) {
        if (this.rootOfOp[i] >= 0) {
          rootOfOp[i] = this.rootOfOp[i];
        }
      }
      if (subModelsByDevice != null) {
        for (int d = 0; d < subModelsByDevice.length && d < this.subModelsByDevice.length; d++) {
          subModelsByDevice[d] += this.subModelsByDevice[d];
        }
      }
      return count;
    }
  }

  private final int capacity;
  private final Map<Key, Entry> entries;
  private long hits;
  private long misses;

  /** A memo for a model of {@code opCount} ops, within {@link #BUDGET_BYTES}. */
  static SplitMemo forOps(int opCount) {
    return new SplitMemo((int) Math.max(16, Math.min(MAX_ENTRIES, BUDGET_BYTES / (8L * Math.max(1, opCount) + 64))));
  }

  /** A memo of at most {@code capacity} splits. */
  SplitMemo(int capacity) {
    this.capacity = capacity;
    entries = new LinkedHashMap<>(64, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The memoised split of {@code deviceOfOp}, computed by {@code split} (outside the lock) when it is not there. */
  Entry computeIfAbsent(int[] deviceOfOp, java.util.function.Function<int[], Entry> split) {
    Entry e = get(deviceOfOp);
    if (e == null) {
      e = split.apply(deviceOfOp);
      put(deviceOfOp, e);
    }
    return e;
  }

  /** The memoised split of {@code deviceOfOp}, or null. */
  synchronized Entry get(int[] deviceOfOp) {
    Entry e = entries.get(new Key(deviceOfOp));
    if (e == null) {
      misses++;
    } else {
      hits++;
    }
    return e;
  }

  /** Remembers the split of {@code deviceOfOp} (copied). */
  synchronized void put(int[] deviceOfOp, Entry e) {
    entries.put(new Key(deviceOfOp.clone()), e);
  }

  /** Splits it holds at most. */
  int capacity() {
    return capacity;
  }

  /** Lookups answered so far, and those not. */
  synchronized long[] hitsAndMisses() {
    return new long[] {hits, misses};
  }

  /** A placement as a map key (its array is not copied: the caller copies what it stores). */
  private static final class Key {
    private final int[] devices;
    private final int hash;

    Key(int[] devices) {
      this.devices = devices;
      this.hash = Arrays.hashCode(devices);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.devices, devices);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
