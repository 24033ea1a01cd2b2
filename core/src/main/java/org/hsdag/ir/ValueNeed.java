package org.hsdag.ir;

import static org.hsdag.ir.ShapeConstants.DYN;

import java.util.Arrays;

/** What a tensor's value must be. Immutable. */
final class ValueNeed {
  private final long[] want;
  private final long[] fill;
  private final int[] pos;

  /**
   * @param want required entries, {@link ShapeConstants#DYN} where the dim is dynamic
   * @param fill what a Const writes at a {@link ShapeConstants#DYN} entry (-1 to infer, 0 to copy, ...)
   * @param pos for a {@link ShapeConstants#DYN} entry, the axis of the target it describes
   */
  ValueNeed(long[] want, long[] fill, int[] pos) {
    this.want = want.clone();
    this.fill = fill.clone();
    this.pos = pos.clone();
  }

  static ValueNeed of(long... values) {
    int[] pos = new int[values.length];
    Arrays.setAll(pos, i -> i);
    return new ValueNeed(values, values, pos);
  }

  int length() {
    return want.length;
  }

  long want(int i) {
    return want[i];
  }

  long fill(int i) {
    return fill[i];
  }

  int pos(int i) {
    return pos[i];
  }

  long[] materialize() {
    long[] v = new long[want.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = want[i] == DYN ? fill[i] : want[i];
    }
    return v;
  }

  int ordinal(int i) {
    int k = 0;
    for (int j = 0; j < i; j++) {
      if (want[j] == DYN) {
        k++;
      }
    }
    return k;
  }

  ValueNeed slice(int from, int to) {
    return new ValueNeed(Arrays.copyOfRange(want, from, to), Arrays.copyOfRange(fill, from, to),
        Arrays.copyOfRange(pos, from, to));
  }

  /** True when {@code value} is this need (a dynamic entry may hold DYN or the fill). */
  boolean matches(long[] value) {
    if (value.length != want.length) {
      return false;
    }
    for (int i = 0; i < value.length; i++) {
      long w = want[i];
      boolean ok = w == DYN ? value[i] == DYN || value[i] == fill[i] : value[i] == w;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
