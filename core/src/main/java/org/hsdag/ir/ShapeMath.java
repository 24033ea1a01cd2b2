package org.hsdag.ir;

import java.util.Arrays;

/**
 * The dim arithmetic the op types' forward rules ({@link OpRule}) share, so the builders' shapes
 * and the cost model's sizes come from one rule per op. A dim of -1 is dynamic; {@code null} means
 * the shapes do not fit the op (each caller decides whether that is an error or "no rule").
 */
final class ShapeMath {
  private ShapeMath() {}

  /**
   * Numpy broadcasting of two shapes, aligned on their last axis: a 1 stretches to the other
   * size, a dynamic dim takes it. On a conflict, null; or, when {@code lenient}, {@code b}'s size
   * (sizes the cost model assumed may conflict; it still wants a size).
   */
  static long[] broadcast(long[] a, long[] b, boolean lenient) {
    int r = Math.max(a.length, b.length);
    long[] out = new long[r];
    for (int i = 0; i < r; i++) {
      long x = i < r - a.length ? 1 : a[i - (r - a.length)];
      long y = i < r - b.length ? 1 : b[i - (r - b.length)];
      if (x == y || y == 1) {
        out[i] = x;
      } else if (x == 1 || lenient) {
        out[i] = y;
      } else if (x < 0 || y < 0) {
        out[i] = Math.max(x, y);
      } else {
        return null;
      }
    }
    return out;
  }

  /**
   * MatMul's output dims: broadcast batch axes, the rows of {@code a} and the columns of {@code b}
   * after the transposes; a rank-1 operand adds no axis (numpy). Null when the inner dims differ
   * (both known) or the batch axes do not broadcast, unless {@code lenient}.
   */
  static long[] matMul(long[] a, long[] b, boolean ta, boolean tb, boolean lenient) {
    if (a.length == 0 || b.length == 0) {
      return null;
    }
    long[] inner = inner(a, b, ta, tb);
    if (!lenient && inner[0] >= 0 && inner[1] >= 0 && inner[0] != inner[1]) {
      return null;
    }
    long[] batchA = a.length > 2 ? Arrays.copyOf(a, a.length - 2) : new long[0];
    long[] batchB = b.length > 2 ? Arrays.copyOf(b, b.length - 2) : new long[0];
    long[] batch = broadcast(batchA, batchB, lenient);
    if (batch == null) {
      return null;
    }
    int extra = (a.length > 1 ? 1 : 0) + (b.length > 1 ? 1 : 0);
    long[] out = Arrays.copyOf(batch, batch.length + extra);
    int k = batch.length;
    if (a.length > 1) {
      out[k++] = ta ? a[a.length - 1] : a[a.length - 2];
    }
    if (b.length > 1) {
      out[k] = tb ? b[b.length - 2] : b[b.length - 1];
    }
    return out;
  }

  /** The inner dims MatMul multiplies over, {@code {ka, kb}}. */
  static long[] inner(long[] a, long[] b, boolean ta, boolean tb) {
    long ka = a.length > 1 ? (ta ? a[a.length - 2] : a[a.length - 1]) : a[0];
    long kb = b.length > 1 ? (tb ? b[b.length - 1] : b[b.length - 2]) : b[0];
    return new long[] {ka, kb};
  }

  /**
   * Concat's output: the first input's dims with the inputs' sum on {@code axis} (-1 when one of
   * them is dynamic there); null when the ranks differ or the axis is out of range.
   */
  static long[] concat(long[][] in, long axisAttr) {
    if (in.length == 0) {
      return null;
    }
    long[] out = in[0].clone();
    long axis = axisAttr < 0 ? axisAttr + out.length : axisAttr;
    if (axis < 0 || axis >= out.length) {
      return null;
    }
    long sum = 0;
    for (long[] s : in) {
      if (s.length != out.length) {
        return null;
      }
      sum = sum < 0 || s[(int) axis] < 0 ? -1 : sum + s[(int) axis];
    }
    out[(int) axis] = sum;
    return out;
  }

  /** Gather's output: {@code data[:axis] + indices[batchDims:] + data[axis+1:]}. */
  static long[] gather(long[] data, long[] indices, int axis, int batchDims) {
    long[] out = new long[data.length - 1 + indices.length - batchDims];
    int k = 0;
    for (int a = 0; a < axis; a++) {
      out[k++] = data[a];
    }
    for (int a = batchDims; a < indices.length; a++) {
      out[k++] = indices[a];
    }
    for (int a = axis + 1; a < data.length; a++) {
      out[k++] = data[a];
    }
    return out;
  }

  /** {@code ir} with its dynamic axes filled from {@code in}'s, those dynamic in {@code inIr}, in order. */
  static long[] inOrder(long[] in, long[] inIr, long[] ir) {
    if (in.length != inIr.length) {
      return null;
    }
    int[] dynamicIn = dynamicAxes(inIr);
    int[] dynamicOut = dynamicAxes(ir);
    if (dynamicIn.length != dynamicOut.length) {
      return null;
    }
    long[] out = ir.clone();
    for (int k = 0; k < dynamicOut.length; k++) {
      out[dynamicOut[k]] = in[dynamicIn[k]];
    }
    return out;
  }

  private static int[] dynamicAxes(long[] dims) {
    return java.util.stream.IntStream.range(0, dims.length).filter(a -> dims[a] < 0).toArray();
  }
}
