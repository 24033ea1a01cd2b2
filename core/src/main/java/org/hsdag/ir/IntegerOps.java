package org.hsdag.ir;

import static org.hsdag.ir.ShapeConstants.DYN;

import java.util.Arrays;
import java.util.Set;

/**
 * Forward evaluation of one op of a small integer subgraph (ShapeOf, Gather, Concat, arithmetic
 * ...) on concrete values, {@link ShapeConstants#DYN} standing for an unknown entry; {@code null}
 * where the op cannot be evaluated on such values. Kept apart from the backward derivation that
 * calls it because it needs no state.
 */
final class IntegerOps {
  private static final Set<String> ELEMENTWISE = Set.of("Add", "Subtract", "Multiply", "Divide", "Mod", "FloorMod",
      "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual", "Maximum", "Minimum");
  private IntegerOps() {}

  static long[] apply(OpNode n, long[][] in) {
    String t = n.type();
    if (OpRule.of(t).keepsValues()) {
      return in[0];
    }
    switch (t) {
      case "Concat" -> {
        return Arrays.stream(in).flatMapToLong(Arrays::stream).toArray();
      }
      case "Gather" -> {
        if (in.length < 3 || in[2].length != 1 || (in[2][0] != 0 && in[2][0] != -1) || n.inputs().get(0).rank() != 1) {
          return null;
        }
        long[] out = new long[in[1].length];
        for (int i = 0; i < out.length; i++) {
          long k = in[1][i] < 0 ? in[1][i] + in[0].length : in[1][i];
          if (k < 0 || k >= in[0].length) {
            return null;
          }
          out[i] = in[0][(int) k];
        }
        return out;
      }
      case "Select" -> {
        int len = Math.max(in[0].length, Math.max(in[1].length, in[2].length));
        long[] out = new long[len];
        for (int i = 0; i < len; i++) {
          long c = at(in[0], i);
          long a = at(in[1], i);
          long b = at(in[2], i);
          out[i] = c == DYN ? (a == b ? a : DYN) : c != 0 ? a : b;
        }
        return out;
      }
      case "ScatterUpdate" -> {
        if (in[3].length != 1 || in[3][0] != 0 || in[1].length != in[2].length) {
          return null;
        }
        long[] out = in[0].clone();
        for (int i = 0; i < in[1].length; i++) {
          if (in[1][i] < 0 || in[1][i] >= out.length) {
            return null;
          }
          out[(int) in[1][i]] = in[2][i];
        }
        return out;
      }
      case "StridedSlice", "Slice" -> {
        return slice1d(n, in);
      }
      default -> {
        return ELEMENTWISE.contains(t) ? elementwise(n, in) : null;
      }
    }
  }

  private static long at(long[] v, int i) {
    return v.length == 1 ? v[0] : i < v.length ? v[i] : DYN;
  }

  private static long[] elementwise(OpNode n, long[][] in) {
    if (in.length != 2 || (in[0].length != in[1].length && in[0].length != 1 && in[1].length != 1)) {
      return null;
    }
    boolean pythonDiv = OpAttributes.isTrue(n.attribute("m_pythondiv")) || n.attribute("m_pythondiv") == null;
    int len = Math.max(in[0].length, in[1].length);
    long[] out = new long[len];
    for (int i = 0; i < len; i++) {
      long a = at(in[0], i);
      long b = at(in[1], i);
      if (a == DYN || b == DYN) {
        out[i] = DYN;
        continue;
      }
      if (b == 0 && (n.type().equals("Divide") || n.type().endsWith("Mod"))) {
        return null;
      }
      out[i] = switch (n.type()) {
        case "Add" -> a + b;
        case "Subtract" -> a - b;
        case "Multiply" -> a * b;
        case "Divide" -> pythonDiv ? Math.floorDiv(a, b) : a / b;
        case "Mod" -> a % b;
        case "FloorMod" -> Math.floorMod(a, b);
        case "Greater" -> a > b ? 1 : 0;
        case "GreaterEqual" -> a >= b ? 1 : 0;
        case "Less" -> a < b ? 1 : 0;
        case "LessEqual" -> a <= b ? 1 : 0;
        case "Equal" -> a == b ? 1 : 0;
        case "NotEqual" -> a != b ? 1 : 0;
        case "Maximum" -> Math.max(a, b);
        case "Minimum" -> Math.min(a, b);
        default -> throw new IllegalStateException("not an element-wise op: " + n.type());
      };
    }
    return out;
  }

  /** Slicing a 1-D vector with one bound each (the shape-subgraph case). */
  private static long[] slice1d(OpNode n, long[][] in) {
    if (n.inputs().get(0).rank() != 1 || in[1].length != 1 || in[2].length != 1 || in.length < 4 || in[3].length != 1) {
      return null;
    }
    long len = in[0].length;
    long step = in[3][0];
    if (step != 1) {
      return null;
    }
    boolean ss = "StridedSlice".equals(n.type());
    long b = ss && ShapeNeeds.mask(n, "begin_mask", 1)[0] != 0 ? 0 : in[1][0];
    long e = ss && ShapeNeeds.mask(n, "end_mask", 1)[0] != 0 ? len : in[2][0];
    b = Math.max(0, Math.min(len, b < 0 ? b + len : b));
    e = Math.max(0, Math.min(len, e < 0 ? e + len : e));
    return e <= b ? new long[0] : Arrays.copyOfRange(in[0], (int) b, (int) e);
  }

  /** True for an op whose output is a data tensor rather than a shape-sized vector or scalar. */
  static boolean isTensor(OpNode n) {
    return !n.outputs().isEmpty() && n.outputs().get(0).rank() > 1
        && Shapes.elementCount(n.outputs().get(0).dims()) > 1;
  }
}
