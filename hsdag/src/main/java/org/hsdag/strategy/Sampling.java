package org.hsdag.strategy;

import java.util.SplittableRandom;

/** Categorical sampling on the Java side, so a strategy's seed alone fixes its choices. */
final class Sampling {
  private Sampling() {}

  /** An index drawn with probability softmax(logits). */
  static int categorical(float[] logits, SplittableRandom rng) {
    double max = Double.NEGATIVE_INFINITY;
    for (float l : logits) {
      max = Math.max(max, l);
    }
    double[] p = new double[logits.length];
    double s = 0;
    for (int i = 0; i < p.length; i++) {
      p[i] = Math.exp(logits[i] - max);
      s += p[i];
    }
    double r = rng.nextDouble() * s;
    for (int i = 0; i < p.length; i++) {
      r -= p[i];
      if (r < 0) {
        return i;
      }
    }
    // Rounding left r >= 0: the last index with positive mass.
    for (int i = p.length - 1; i >= 0; i--) {
      if (p[i] > 0) {
        return i;
      }
    }
    return 0;
  }
}
