package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * Arithmetic with a number through a scalar tensor that torch allocates. DJL's {@code
 * NDArray.mul(Number)} and its siblings wrap the number in a Java direct buffer that only the
 * garbage collector frees: autograd keeps that buffer as the saved operand of mul and div, so a
 * collection between the forward op and {@code backward} turned the gradient into garbage (the
 * cause of runs with the same seed diverging under load), and every call leaves native memory
 * waiting for a collection (RSS creep). A torch-allocated scalar is refcounted by autograd and
 * freed when its last user is.
 */
public final class Scalars {
  private Scalars() {}

  /** A 0-dim tensor holding {@code value}, of {@code like}'s type, on its manager. */
  public static NDArray scalar(NDArray like, double value) {
    return like.getManager().full(new Shape(), (float) value, like.getDataType());
  }

  /** {@code x * value}, differentiable with respect to x. */
  public static NDArray mul(NDArray x, double value) {
    try (NDArray s = scalar(x, value)) {
      return x.mul(s);
    }
  }

  /** {@code x *= value} in place; returns x. */
  public static NDArray muli(NDArray x, double value) {
    try (NDArray s = scalar(x, value)) {
      return x.muli(s);
    }
  }

  /** {@code x + value}. */
  public static NDArray add(NDArray x, double value) {
    try (NDArray s = scalar(x, value)) {
      return x.add(s);
    }
  }
}
