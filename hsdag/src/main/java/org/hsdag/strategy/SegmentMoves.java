package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Moves that shift where a same-device run ends, along a fixed topological order of the nodes. A
 * boundary is a position where the device changes, or either end of the order; each move gives the
 * k nodes on one side of a boundary (k = 1, 2, 4, …) the device on its other side (at an end, any
 * other device). HETERO runs sub-models in sequence, so a good placement is a few long runs and
 * such a move changes two sub-model edges at most, where flipping one node inside a run adds two.
 * {@link #stretches} lists the wider neighbourhood of any stretch of consecutive nodes on one
 * device. Nodes that may not use the new device keep theirs.
 */
final class SegmentMoves {
  private final int[] order;
  private final long[] masks;
  private final int deviceCount;

  /**
   * @param order every node once, producers before consumers
   * @param masks per node, bit d set when the node may use device d
   */
  SegmentMoves(int[] order, long[] masks, int deviceCount) {
    if (order.length != masks.length) {
      throw new IllegalArgumentException("order has " + order.length + " nodes, masks " + masks.length);
    }
    this.order = order.clone();
    this.masks = masks.clone();
    this.deviceCount = deviceCount;
  }

  /** Every distinct placement one move away from {@code deviceOf} (never {@code deviceOf} itself), in a fixed order. */
  List<int[]> around(int[] deviceOf) {
    int n = order.length;
    int[] run = new int[n];
    for (int i = 0; i < n; i++) {
      run[i] = deviceOf[order[i]];
    }
    Set<Key> moves = new LinkedHashSet<>();
    for (int b = 0; b <= n; b++) {
      if (b > 0 && b < n && run[b] == run[b - 1]) {
        continue;
      }
      for (int k = 1; k <= n; k *= 2) {
        for (int d = 0; d < deviceCount; d++) {
          // The k nodes before the boundary take the device after it (a new tail run at the end).
          if (b - k >= 0 && (b < n ? d == run[b] : d != run[n - 1])) {
            add(moves, deviceOf, b - k, b, d);
          }
          // The k nodes after it take the device before it (a new head run at the start).
          if (b + k <= n && (b > 0 ? d == run[b - 1] : d != run[0])) {
            add(moves, deviceOf, b, b + k, d);
          }
        }
      }
    }
    List<int[]> out = new ArrayList<>(moves.size());
    for (Key m : moves) {
      out.add(m.deviceOf());
    }
    return out;
  }

  /**
   * Every distinct placement that gives one stretch of k consecutive nodes of the order (k = 1, 2,
   * 4, …) one device, other than those {@link #around} lists: a new run inside a run, or one that
   * crosses a boundary. There are many (about n·log n per device), so a model should rank them.
   */
  List<int[]> stretches(int[] deviceOf) {
    Set<Key> boundary = new HashSet<>();
    for (int[] m : around(deviceOf)) {
      boundary.add(new Key(m));
    }
    int n = order.length;
    Set<Key> moves = new LinkedHashSet<>();
    for (int k = 1; k <= n; k *= 2) {
      for (int from = 0; from + k <= n; from++) {
        for (int d = 0; d < deviceCount; d++) {
          add(moves, deviceOf, from, from + k, d);
        }
      }
    }
    moves.removeAll(boundary);
    List<int[]> out = new ArrayList<>(moves.size());
    for (Key m : moves) {
      out.add(m.deviceOf());
    }
    return out;
  }

  private void add(Set<Key> moves, int[] deviceOf, int from, int to, int device) {
    int[] moved = deviceOf.clone();
    boolean changed = false;
    for (int i = from; i < to; i++) {
      int v = order[i];
      if ((masks[v] >>> device & 1L) != 0 && moved[v] != device) {
        moved[v] = device;
        changed = true;
      }
    }
    if (changed) {
      moves.add(new Key(moved));
    }
  }

  /** A device per node, compared by content (for sets of placements); immutable. */
  static final class Key {
    private final int[] deviceOf;

    Key(int[] deviceOf) {
      this.deviceOf = deviceOf.clone();
    }

    int[] deviceOf() {
      return deviceOf.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(deviceOf, k.deviceOf);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(deviceOf);
    }

    @Override
    public String toString() {
      return Arrays.toString(deviceOf);
    }
  }
}
