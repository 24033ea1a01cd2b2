package org.hsdag.io;

/** Small helpers for the text hsdag prints. */
public final class Words {
  private Words() {}

  /** {@code n} and {@code noun}, plural unless n is 1: {@code 1 sub-model}, {@code 3 sub-models}. */
  public static String count(long n, String noun) {
    return n + " " + (n == 1 ? noun : noun + "s");
  }
}
