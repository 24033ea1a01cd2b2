package org.hsdag.ir;

import java.util.Set;

/**
 * The output shape of one op from the concrete shapes of its inputs, as OpenVINO's shape inference
 * computes it after the model's inputs were reshaped, for the dims the IR leaves dynamic. The IR
 * holds no constant values (they are in the {@code .bin}), so axes, orders and reshape patterns
 * are read from how the IR's own port dims moved:
 *
 * <ul>
 *   <li>same-shape ops (activations, Convert, MVN, Softmax ...): input 0's shape;
 *   <li>element-wise ops: numpy broadcasting of every input (OpenVINO's {@code NUMPY} rule);
 *   <li>MatMul: broadcast batch axes, rows of input 0, columns of input 1 (transposes applied);
 *   <li>Concat: the inputs' sum on the {@code axis} attribute;
 *   <li>Gather: {@code data[:axis] + indices[batch_dims:] + data[axis+1:]}, the axis being the last
 *       one that reproduces the IR's static output dims;
 *   <li>Reshape, Squeeze, Unsqueeze: the output's dynamic axes take the input's dynamic axes in
 *       order ({@code special_zero} patterns such as {@code [0,0,12,64]}), checked against the
 *       element count, else the one axis the element count solves;
 *   <li>any other op (Transpose, reductions, slices ...): the output's dynamic axes take input 0's
 *       dynamic axes in order when both have as many (a Transpose moves dims, it keeps their order
 *       among the dynamic ones in every IR hsdag has met).
 * </ul>
 *
 * The dim arithmetic is {@link ShapeMath}'s, shared with the builders' {@link OpShapes#infer}. An
 * op none of these covers leaves its dynamic axes unknown ({@code -1}); the cost model's tensor
 * shapes then take its assumed batch or sequence. Ops whose output size is data ({@code Range}, {@code
 * Broadcast} to a computed shape, {@code NonZero}) have no rule.
 */
final class IrDimRules {
  private IrDimRules() {}

  /** Ops whose output 0 has the shape of input 0 (other inputs, if any, are scalars or axes). */
  static final Set<String> SAME_SHAPE = Set.of("Convert", "ConvertLike", "Relu", "ReLU", "Gelu", "Sigmoid",
      "Tanh", "Exp", "Log", "Sqrt", "Erf", "Abs", "Negative", "Swish", "HSwish", "HSigmoid", "Mish", "SoftPlus",
      "Clamp", "Elu", "Floor", "Ceiling", "Round", "Sin", "Cos", "Sign", "MVN", "Softmax", "SoftMax", "LogSoftmax",
      "NormalizeL2", "FakeQuantize", "PRelu", "PReLU", "Selu", "SoftSign", "LogicalNot", "GRN", "LRN", "CumSum");

  /** Element-wise ops with numpy broadcasting over all their inputs. */
  static final Set<String> BROADCASTING = Set.of("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum",
      "Minimum", "SquaredDifference", "FloorMod", "Mod", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
      "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalXor", "Select");

  /** Ops whose output size is a runtime value: no rule from the input shapes. */
  private static final Set<String> DATA_SIZED = Set.of("Range", "Broadcast", "NonZero", "Tile", "Interpolate",
      "NonMaxSuppression", "TopK", "Loop", "TensorIterator", "If");

  /**
   * Output {@code port} of {@code node}, whose IR dims are {@code ir}, from its concrete input
   * shapes {@code in}; entries the rules cannot tell are -1 (null when no rule applies).
   */
  static long[] infer(OpNode node, int port, long[][] in, long[] ir) {
    String type = node.type();
    if (in.length == 0 || DATA_SIZED.contains(type)) {
      return null;
    }
    long[] out;
    if (SAME_SHAPE.contains(type)) {
      out = port == 0 ? in[0] : null;
    } else if (BROADCASTING.contains(type)) {
      out = broadcast(in);
    } else {
      out = switch (type) {
        case "MatMul" -> in.length == 2 ? matMul(node, in[0], in[1]) : null;
        case "Concat" -> concat(node, in);
        case "Gather" -> in.length >= 2 ? gather(node, in[0], in[1], ir) : null;
        case "Reshape", "Squeeze", "Unsqueeze" -> reshape(in[0], node.inputs().get(0).dims(), ir);
        default -> inOrder(in[0], node.inputs().get(0).dims(), ir);
      };
    }
    return out != null && out.length == ir.length ? out : null;
  }

  /**
   * The output of an op whose size is data (Range, Broadcast, Tile) from the values of its shape
   * inputs, {@code value.apply(k)} being input k's value or null; null when a value is unknown.
   */
  static long[] dataSized(OpNode node, long[][] in, java.util.function.IntFunction<long[]> value) {
    switch (node.type()) {
      case "Range" -> {
        long[] start = value.apply(0);
        long[] stop = value.apply(1);
        long[] step = value.apply(2);
        if (start == null || stop == null || step == null || start.length != 1 || stop.length != 1
            || step.length != 1 || step[0] == 0) {
          return null;
        }
        return new long[] {Math.max(0, Math.floorDiv(stop[0] - start[0] + step[0] - Long.signum(step[0]), step[0]))};
      }
      case "Broadcast" -> {
        long[] target = in.length > 1 ? value.apply(1) : null;
        String mode = node.attribute("mode");
        if (target == null || (mode != null && !mode.equalsIgnoreCase("numpy") && !mode.equalsIgnoreCase(
            "bidirectional"))) {
          return null;
        }
        return mode != null && mode.equalsIgnoreCase("bidirectional") ? broadcast(in[0], target) : target;
      }
      case "Tile" -> {
        long[] reps = in.length > 1 ? value.apply(1) : null;
        if (reps == null) {
          return null;
        }
        int rank = Math.max(reps.length, in[0].length);
        long[] out = new long[rank];
        for (int a = 0; a < rank; a++) {
          int i = a - (rank - in[0].length);
          int r = a - (rank - reps.length);
          out[a] = (i >= 0 ? in[0][i] : 1) * (r >= 0 ? reps[r] : 1);
        }
        return out;
      }
      default -> {
        return null;
      }
    }
  }

  /** Numpy broadcasting of every input (a conflict between assumed sizes takes the later one). */
  static long[] broadcast(long[]... shapes) {
    long[] out = new long[0];
    for (long[] s : shapes) {
      out = ShapeMath.broadcast(out, s, true);
    }
    return out;
  }

  private static long[] matMul(OpNode node, long[] a, long[] b) {
    return ShapeMath.matMul(a, b, OpAttributes.isTrue(node.attribute("transpose_a")),
        OpAttributes.isTrue(node.attribute("transpose_b")), true);
  }

  private static long[] concat(OpNode node, long[][] in) {
    String attr = node.attribute("axis");
    return attr == null ? null : ShapeMath.concat(in, Integer.parseInt(attr.trim()));
  }

  private static long[] gather(OpNode node, long[] data, long[] indices, long[] ir) {
    String b = node.attribute("batch_dims");
    int batchDims = b == null ? 0 : Integer.parseInt(b.trim());
    if (batchDims < 0) {
      batchDims += indices.length;
    }
    // The last axis that fits: a select such as hidden[:, 0] fits axis 0 too, but batches are not gathered.
    for (int axis = data.length - 1; axis >= Math.max(batchDims, 0); axis--) {
      long[] out = ShapeMath.gather(data, indices, axis, batchDims);
      if (fits(out, ir)) {
        return out;
      }
    }
    return null;
  }

  /** True when {@code out} has {@code ir}'s rank and agrees with each of its static dims. */
  private static boolean fits(long[] out, long[] ir) {
    if (out.length != ir.length) {
      return false;
    }
    for (int a = 0; a < ir.length; a++) {
      if (ir[a] >= 0 && ir[a] != out[a]) {
        return false;
      }
    }
    return true;
  }

  /**
   * A reshape's output: the dynamic axes in order from the input's, kept when the element count
   * agrees; else the first dynamic axis whose size the element count solves, the others in order.
   */
  private static long[] reshape(long[] in, long[] inIr, long[] ir) {
    long total = product(in);
    long[] ordered = inOrder(in, inIr, ir);
    if (ordered != null && product(ordered) == total) {
      return ordered;
    }
    long[] base = ordered != null ? ordered : ir.clone();
    for (int a = 0; a < ir.length; a++) {
      if (ir[a] >= 0) {
        continue;
      }
      long[] out = base.clone();
      out[a] = 1;
      long rest = 1;
      boolean known = true;
      for (int o = 0; o < out.length; o++) {
        known &= out[o] >= 0;
        rest *= Math.max(out[o], 1);
      }
      if (known && rest > 0 && total % rest == 0) {
        out[a] = total / rest;
        return out;
      }
    }
    return null;
  }

  /** {@code ir} with its dynamic axes filled from {@code in}'s, those dynamic in {@code inIr}, in order. */
  private static long[] inOrder(long[] in, long[] inIr, long[] ir) {
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

  private static long product(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }
}
