package org.hsdag.ir;

import static org.hsdag.ir.ShapeConstants.DYN;
import static org.hsdag.ir.ShapeConstants.MAX_ALTERNATIVES;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Pure functions over shape vectors: how one op's input dims map to its output dims. */
final class ShapeVectors {
  private ShapeVectors() {}

  /** All combinations of per-position options with at most one -1, in option order. */
  static void combine(long[][] options, int p, long[] acc, List<long[]> out) {
    if (out.size() >= MAX_ALTERNATIVES) {
      return;
    }
    if (p == options.length) {
      if (Arrays.stream(acc).filter(x -> x == -1).count() <= 1) {
        out.add(acc.clone());
      }
      return;
    }
    for (long x : options[p]) {
      acc[p] = x;
      combine(options, p + 1, acc, out);
    }
  }

  /** Permutations q with out[i] = in[q[i]] (dynamic matching dynamic), lowest-index choices first. */
  static List<long[]> permutations(long[] in, long[] out) {
    List<long[]> found = new ArrayList<>();
    if (in.length == out.length) {
      permute(in, out, 0, new long[out.length], new boolean[in.length], found);
    }
    return found;
  }

  private static void permute(long[] in, long[] out, int i, long[] acc, boolean[] used, List<long[]> found) {
    if (found.size() >= MAX_ALTERNATIVES) {
      return;
    }
    if (i == out.length) {
      found.add(acc.clone());
      return;
    }
    for (int j = 0; j < in.length; j++) {
      if (!used[j] && in[j] == out[i]) {
        used[j] = true;
        acc[i] = j;
        permute(in, out, i + 1, acc, used, found);
        used[j] = false;
      }
    }
  }

  /**
   * Positions of {@code longer} that are not in {@code shorter}, matching the rest in order (a
   * removed or inserted dim is 1); null when {@code shorter} is not such a subsequence.
   */
  static long[] removedAxes(long[] longer, long[] shorter) {
    List<Long> removed = new ArrayList<>();
    int j = 0;
    for (int i = 0; i < longer.length; i++) {
      int rest = longer.length - i;
      boolean mustRemove = rest > shorter.length - j && (j >= shorter.length || longer[i] != shorter[j]);
      if (!mustRemove && j < shorter.length && longer[i] == shorter[j]) {
        j++;
      } else {
        removed.add((long) i);
      }
    }
    return j == shorter.length ? removed.stream().mapToLong(Long::longValue).toArray() : null;
  }

  /**
   * The axes where {@code in} and {@code out} differ, topped up with the last other axes (only
   * size-1 ones when {@code onlyOnes}, as a kept reduced axis is) until there are {@code count}.
   */
  static long[] changedAxes(long[] in, long[] out, int count, boolean onlyOnes) {
    Set<Long> a = new TreeSet<>();
    for (int i = 0; i < in.length; i++) {
      if (in[i] != out[i]) {
        a.add((long) i);
      }
    }
    for (int i = in.length - 1; i >= 0 && a.size() < count; i--) {
      if (!onlyOnes || out[i] == 1) {
        a.add((long) i);
      }
    }
    return a.stream().mapToLong(Long::longValue).toArray();
  }

  /** A target position meaning "the last dynamic dim" (a sequence length: batch comes first, hidden sizes are static). */
  static final int LAST_DYNAMIC = -2;

  /** The dim of a shape that a dynamic target entry at {@code pos} (the k-th dynamic one) stands for. */
  static int dynamicDim(long[] shape, int pos, int ordinal) {
    if (pos == LAST_DYNAMIC) {
      int last = -1;
      for (int j = 0; j < shape.length; j++) {
        last = shape[j] == DYN ? j : last;
      }
      return last;
    }
    if (pos >= 0 && pos < shape.length && shape[pos] == DYN) {
      return pos;
    }
    int seen = 0;
    int first = -1;
    for (int j = 0; j < shape.length; j++) {
      if (shape[j] == DYN) {
        if (seen++ == ordinal) {
          return j;
        }
        first = first < 0 ? j : first;
      }
    }
    return first;
  }
}
