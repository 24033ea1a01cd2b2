package org.hsdag.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Two-device placements of ops in topological order, for checking predictions (sub-model counts,
 * cost models) against the real runtime: mostly a few contiguous runs along the topological order (1 to
 * {@code maxChanges} device changes), plus single-op flips of a one-device placement. Not
 * independent coin flips per op: HETERO would cut those into hundreds of sub-models, whose start
 * costs would swamp everything the comparison is meant to show.
 */
public final class SplitPlacements {
  private SplitPlacements() {}

  /**
   * {@code count} distinct placements over {@code ops} ops, device 0 or 1 per op: the first {@code
   * flips} are one-device placements with one op on the other device, the rest contiguous runs with
   * 1, 2, …, {@code maxChanges}, 1, 2, … device changes at random positions, starting on a random
   * device. The same arguments give the same list.
   *
   * @throws IllegalArgumentException when {@code ops} is too small for that many distinct placements
   */
  public static List<int[]> generate(int ops, int count, int flips, int maxChanges, long seed) {
    if (count < 0 || flips < 0 || flips > count || maxChanges < 1) {
      throw new IllegalArgumentException("Expected 0 <= flips <= count and maxChanges >= 1");
    }
    if (ops < maxChanges + 1 || (flips > 0 && 2L * ops < flips) || (count > flips && ops < 2)) {
      throw new IllegalArgumentException(
          ops + " ops are too few for " + count + " placements with up to " + maxChanges + " changes");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    Set<String> seen = new HashSet<>();
    List<int[]> out = new ArrayList<>(count);
    int attempts = 0;
    while (out.size() < count) {
      if (++attempts > 1000 * (count + 1)) {
        throw new IllegalArgumentException("cannot find " + count + " distinct placements of " + ops + " ops");
      }
      int[] p;
      if (out.size() < flips) {
        int base = rnd.nextInt(2);
        p = new int[ops];
        Arrays.fill(p, base);
        p[rnd.nextInt(ops)] = 1 - base;
      } else {
        p = runs(ops, 1 + (out.size() - flips) % maxChanges, rnd);
      }
      if (seen.add(Arrays.toString(p))) {
        out.add(p);
      }
    }
    return List.copyOf(out);
  }

  /** Device changes between consecutive ops of {@code p} (its runs minus one). */
  public static int changes(int[] p) {
    int c = 0;
    for (int i = 1; i < p.length; i++) {
      if (p[i] != p[i - 1]) {
        c++;
      }
    }
    return c;
  }

  /** {@code changes} device changes at distinct random positions in 1..ops-1. */
  private static int[] runs(int ops, int changes, SplittableRandom rnd) {
    boolean[] cut = new boolean[ops];
    int placed = 0;
    while (placed < changes) {
      int at = 1 + rnd.nextInt(ops - 1);
      if (!cut[at]) {
        cut[at] = true;
        placed++;
      }
    }
    int[] p = new int[ops];
    int d = rnd.nextInt(2);
    for (int i = 0; i < ops; i++) {
      if (cut[i]) {
        d = 1 - d;
      }
      p[i] = d;
    }
    return p;
  }
}
