package org.hsdag.cost;

/** Word-wise operations on fixed-width bitsets stored as rows of a {@code long[]} ({@code w} words per row). */
final class Bitsets {
  private Bitsets() {}

  static void set(long[] a, int offset, int bit) {
    a[offset + (bit >>> 6)] |= 1L << (bit & 63);
  }

  static void or(long[] a, int aOffset, long[] b, int bOffset, int w) {
    for (int i = 0; i < w; i++) {
      a[aOffset + i] |= b[bOffset + i];
    }
  }

  static boolean any(long[] a, int offset, int w) {
    for (int i = 0; i < w; i++) {
      if (a[offset + i] != 0) {
        return true;
      }
    }
    return false;
  }

  static boolean intersects(long[] a, int aOffset, long[] b, int bOffset, int w) {
    for (int i = 0; i < w; i++) {
      if ((a[aOffset + i] & b[bOffset + i]) != 0) {
        return true;
      }
    }
    return false;
  }
}
