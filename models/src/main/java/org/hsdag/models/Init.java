package org.hsdag.models;

/**
 * How a pseudo-random weight tensor is filled: uniform values in {@code center ± halfWidth}.
 * Scales follow the usual initialisers so that inference on the generated models stays finite.
 *
 * @param center mean of the uniform distribution
 * @param halfWidth half the width of its support
 */
public record Init(float center, float halfWidth) {
  public Init {
    if (!(halfWidth >= 0) || !Float.isFinite(center)) {
      throw new IllegalArgumentException("bad init " + center + " ± " + halfWidth);
    }
  }

  /** He-uniform for a layer with {@code fanIn} inputs followed by ReLU. */
  public static Init he(long fanIn) {
    return new Init(0f, (float) Math.sqrt(6.0 / fanIn));
  }

  /** Variance-preserving uniform (std 1/sqrt(fanIn)) for linear layers. */
  public static Init linear(long fanIn) {
    return new Init(0f, (float) Math.sqrt(3.0 / fanIn));
  }

  /** Small values around zero (biases, embeddings). */
  public static Init small(float halfWidth) {
    return new Init(0f, halfWidth);
  }

  /** Values around one (normalisation scales). */
  public static Init aroundOne(float halfWidth) {
    return new Init(1f, halfWidth);
  }
}
