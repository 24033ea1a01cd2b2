package org.hsdag.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * hsdag's one shape inference, following the OpenVINO opset specifications; the runtime's own
 * inference replaces it wherever OpenVINO is loaded. Two entry points share the per-op rules:
 *
 * <ul>
 *   <li>{@link #infer}: shape and element type from the inputs' dims and the values of their
 *       integer constants (axes, target shapes, orders). The model builders fill their output
 *       ports with it and refuse what does not fit; a dim of -1 is dynamic and stays so where the
 *       rule cannot size it.
 *   <li>{@link #concrete}: the concrete dims of an IR port the XML leaves dynamic, from the
 *       concrete shapes of its inputs after the model's inputs were given sizes. The XML holds no
 *       constant values, so axes and patterns are read from how the IR's own port dims moved
 *       ({@link IrDimRules}); the cost model's tensor sizes come from it.
 * </ul>
 *
 * Ops whose size is data are sized by {@link DataSizedShapes}. Stand-in weights derive the
 * constants' values backwards from the same port dims ({@link ShapeConstants}) and check them
 * forwards with {@link #infer} ({@link DerivedValuesCheck}).
 */
public final class OpShapes {
  private OpShapes() {}

  /**
   * One input of an op.
   *
   */
  public static final class Input {
    private final ElementType type;
    private final long[] dims;
    private final long[] values;

    /**
     * @param type element type
     * @param dims static shape
     * @param values the integer values when the input is an integer Const, else null
     */
    public Input(ElementType type, long[] dims, long[] values) {
      dims = dims.clone();
      values = values == null ? null : values.clone();
      this.type = type;
      this.dims = dims;
      this.values = values;
    }

    public long[] dims() {
      return dims.clone();
    }

    public long[] values() {
      return values == null ? null : values.clone();
    }

    public int rank() {
      return dims.length;
    }

    public ElementType type() {
      return type;
    }
  }

  /** One inferred output. */
  public static final class Output {
    private final ElementType type;
    private final long[] dims;

    public Output(ElementType type, long[] dims) {
      dims = dims.clone();
      this.type = type;
      this.dims = dims;
    }

    public long[] dims() {
      return dims.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Output out && type == out.type && Arrays.equals(dims, out.dims);
    }

    @Override
    public int hashCode() {
      return type.hashCode() * 31 + Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
      return type.irName() + Arrays.toString(dims);
    }

    public ElementType type() {
      return type;
    }
  }

  /** The op types (IR spelling) this class can infer. */
  public static final List<String> SUPPORTED = List.of(
      "Parameter", "Const", "Convert", "Convolution", "Add", "Multiply", "Subtract", "Divide",
      "ReLU", "Gelu", "Tanh", "SoftMax", "MVN", "MaxPool", "AvgPool", "ReduceMean", "Reshape",
      "MatMul", "Concat", "Gather", "Transpose", "Unsqueeze", "Result");

  /**
   * Infers the outputs of an op.
   *
   * @throws IrException when the inputs do not fit the op (rank, channels, types, arity)
   */
  public static List<Output> infer(String type, Map<String, String> attrs, List<Input> in) {
    return switch (type) {
      case "Parameter", "Const" -> {
        arity(type, in, 0);
        ElementType t = ElementType.parse(attr(type, attrs, "element_type"));
        long[] dims = Shapes.parseShape(attr(type, attrs, "shape"));
        if (dims == null) {
          throw new IrException(type + ": dynamic rank is not supported by the model builders");
        }
        yield one(t, dims);
      }
      case "Convert" -> {
        arity(type, in, 1);
        yield one(ElementType.parse(attr(type, attrs, "destination_type")), in.get(0).dims());
      }
      case "Convolution" -> convolution(attrs, in);
      case "Add", "Multiply", "Subtract", "Divide" -> {
        arity(type, in, 2);
        sameType(type, in);
        yield one(in.get(0).type(), broadcast(type, in.get(0).dims(), in.get(1).dims()));
      }
      case "ReLU", "Gelu", "Tanh", "SoftMax" -> {
        arity(type, in, 1);
        if (type.equals("SoftMax")) {
          normAxis(type, Long.parseLong(attr(type, attrs, "axis")), in.get(0).rank());
        }
        yield one(in.get(0).type(), in.get(0).dims());
      }
      case "MVN" -> {
        arity(type, in, 2);
        long[] axes = constValues(type, in.get(1), "axes");
        for (long a : axes) {
          normAxis(type, a, in.get(0).rank());
        }
        yield one(in.get(0).type(), in.get(0).dims());
      }
      case "MaxPool", "AvgPool" -> pool(type, attrs, in);
      case "ReduceMean" -> reduce(attrs, in);
      case "Reshape" -> reshape(attrs, in);
      case "MatMul" -> matMul(attrs, in);
      case "Concat" -> concat(attrs, in);
      case "Gather" -> gather(attrs, in);
      case "Transpose" -> transpose(in);
      case "Unsqueeze" -> unsqueeze(in);
      case "Result" -> {
        arity(type, in, 1);
        yield List.of();
      }
      default -> throw new IrException("no shape inference for op type " + type);
    };
  }

  private static List<Output> one(ElementType t, long[] dims) {
    return List.of(new Output(t, dims));
  }

  private static String attr(String type, Map<String, String> attrs, String key) {
    String v = attrs.get(key);
    if (v == null) {
      throw new IrException(type + ": missing attribute '" + key + "'");
    }
    return v;
  }

  private static void arity(String type, List<Input> in, int n) {
    if (in.size() != n) {
      throw new IrException(type + ": expected " + n + " inputs, got " + in.size());
    }
  }

  private static void sameType(String type, List<Input> in) {
    for (Input i : in) {
      if (i.type() != in.get(0).type()) {
        throw new IrException(type + ": inputs have different element types " + in.get(0).type().irName()
            + " and " + i.type().irName());
      }
    }
  }

  private static long[] constValues(String type, Input i, String what) {
    if (i.values() == null) {
      throw new IrException(type + ": the " + what + " input must be an integer constant");
    }
    return i.values();
  }

  private static int normAxis(String type, long axis, int rank) {
    long a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw new IrException(type + ": axis " + axis + " is out of range for rank " + rank);
    }
    return (int) a;
  }

  /** Numpy broadcasting of two shapes; refuses shapes that do not broadcast. */
  static long[] broadcast(String type, long[] a, long[] b) {
    long[] out = ShapeMath.broadcast(a, b, false);
    if (out == null) {
      throw new IrException(type + ": shapes " + Arrays.toString(a) + " and " + Arrays.toString(b)
          + " do not broadcast");
    }
    return out;
  }

  /**
   * The concrete dims of output {@code port} of {@code node}, whose IR dims are {@code ir}, from
   * its inputs' concrete shapes {@code in}; entries no rule tells are -1, null when no rule applies.
   */
  public static long[] concrete(OpNode node, int port, long[][] in, long[] ir) {
    return IrDimRules.infer(node, port, in, ir);
  }

  private static long[] spatial(String type, Map<String, String> attrs, String key, int n, long fallback) {
    String v = attrs.get(key);
    long[] out = v == null ? null : Shapes.parseLongs(v);
    if (out == null) {
      out = new long[n];
      Arrays.fill(out, fallback);
    }
    if (out.length != n) {
      throw new IrException(type + ": attribute " + key + " has " + out.length + " values, expected " + n);
    }
    return out;
  }

  private static long outSize(long in, long k, long s, long d, long pb, long pe, boolean ceil, String type) {
    long eff = d * (k - 1) + 1;
    long span = in + pb + pe - eff;
    if (span < 0) {
      throw new IrException(type + ": kernel " + k + " does not fit input size " + in);
    }
    return (ceil ? Math.floorDiv(span + s - 1, s) : Math.floorDiv(span, s)) + 1;
  }

  private static void explicitPadding(String type, Map<String, String> attrs) {
    String autoPad = attrs.getOrDefault("auto_pad", "explicit");
    if (!autoPad.equals("explicit") && !autoPad.equals("notset")) {
      throw new IrException(type + ": only auto_pad=explicit is supported by the model builders (got " + autoPad + ")");
    }
  }

  private static List<Output> convolution(Map<String, String> attrs, List<Input> in) {
    String type = "Convolution";
    arity(type, in, 2);
    sameType(type, in);
    explicitPadding(type, attrs);
    long[] x = in.get(0).dims();
    long[] w = in.get(1).dims();
    if (x.length < 3 || w.length != x.length) {
      throw new IrException(type + ": data rank " + x.length + " and filter rank " + w.length + " do not fit");
    }
    if (x[1] != w[1]) {
      throw new IrException(type + ": input has " + x[1] + " channels but the filter expects " + w[1]);
    }
    int n = x.length - 2;
    long[] s = spatial(type, attrs, "strides", n, 1);
    long[] d = spatial(type, attrs, "dilations", n, 1);
    long[] pb = spatial(type, attrs, "pads_begin", n, 0);
    long[] pe = spatial(type, attrs, "pads_end", n, 0);
    long[] out = new long[x.length];
    out[0] = x[0];
    out[1] = w[0];
    for (int i = 0; i < n; i++) {
      out[i + 2] = outSize(x[i + 2], w[i + 2], s[i], d[i], pb[i], pe[i], false, type);
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> pool(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 1);
    explicitPadding(type, attrs);
    long[] x = in.get(0).dims();
    int n = x.length - 2;
    if (n < 1) {
      throw new IrException(type + ": input rank " + x.length + " is too small");
    }
    long[] k = spatial(type, attrs, "kernel", n, -1);
    long[] s = spatial(type, attrs, "strides", n, 1);
    long[] d = type.equals("MaxPool") ? spatial(type, attrs, "dilations", n, 1)
        : spatial(type, Map.of(), "dilations", n, 1);
    long[] pb = spatial(type, attrs, "pads_begin", n, 0);
    long[] pe = spatial(type, attrs, "pads_end", n, 0);
    boolean ceil = "ceil".equals(attrs.getOrDefault("rounding_type", "floor"));
    long[] out = x.clone();
    for (int i = 0; i < n; i++) {
      out[i + 2] = outSize(x[i + 2], k[i], s[i], d[i], pb[i], pe[i], ceil, type);
    }
    if (type.equals("MaxPool")) {
      ElementType idx = ElementType.parse(attrs.getOrDefault("index_element_type", "i64"));
      return List.of(new Output(in.get(0).type(), out), new Output(idx, out));
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> reduce(Map<String, String> attrs, List<Input> in) {
    String type = "ReduceMean";
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    boolean keep = Boolean.parseBoolean(attr(type, attrs, "keep_dims"));
    boolean[] reduced = new boolean[x.length];
    for (long a : constValues(type, in.get(1), "axes")) {
      reduced[normAxis(type, a, x.length)] = true;
    }
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      if (!reduced[i]) {
        out.add(x[i]);
      } else if (keep) {
        out.add(1L);
      }
    }
    return one(in.get(0).type(), out.stream().mapToLong(Long::longValue).toArray());
  }

  private static List<Output> reshape(Map<String, String> attrs, List<Input> in) {
    String type = "Reshape";
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] target = constValues(type, in.get(1), "target shape");
    boolean specialZero = Boolean.parseBoolean(attr(type, attrs, "special_zero"));
    long[] out = new long[target.length];
    int minusOne = -1;
    long known = 1;
    for (int i = 0; i < target.length; i++) {
      long t = target[i];
      if (t == 0 && specialZero) {
        if (i >= x.length) {
          throw new IrException(type + ": special zero at axis " + i + " beyond input rank " + x.length);
        }
        out[i] = x[i];
      } else if (t == -1) {
        if (minusOne >= 0) {
          throw new IrException(type + ": more than one -1 in target shape " + Arrays.toString(target));
        }
        minusOne = i;
        continue;
      } else if (t < 0) {
        throw new IrException(type + ": bad target dimension " + t);
      } else {
        out[i] = t;
      }
      known *= out[i];
    }
    long total = Shapes.elementCount(x);
    if (minusOne >= 0) {
      if (known == 0 || total % known != 0) {
        throw new IrException(type + ": cannot infer -1 in " + Arrays.toString(target) + " from " + Arrays.toString(x));
      }
      out[minusOne] = total / known;
    } else if (known != total) {
      throw new IrException(type + ": cannot reshape " + Arrays.toString(x) + " (" + total + " elements) to "
          + Arrays.toString(out));
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> matMul(Map<String, String> attrs, List<Input> in) {
    String type = "MatMul";
    arity(type, in, 2);
    sameType(type, in);
    long[] a = in.get(0).dims();
    long[] b = in.get(1).dims();
    if (a.length < 2 || b.length < 2) {
      throw new IrException(type + ": the builders use rank >= 2 operands only");
    }
    boolean ta = Boolean.parseBoolean(attr(type, attrs, "transpose_a"));
    boolean tb = Boolean.parseBoolean(attr(type, attrs, "transpose_b"));
    long[] out = ShapeMath.matMul(a, b, ta, tb, false);
    if (out == null) {
      long[] k = ShapeMath.inner(a, b, ta, tb);
      broadcast(type, Arrays.copyOf(a, a.length - 2), Arrays.copyOf(b, b.length - 2));
      throw new IrException(type + ": inner dimensions " + k[0] + " and " + k[1] + " differ");
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> concat(Map<String, String> attrs, List<Input> in) {
    String type = "Concat";
    if (in.isEmpty()) {
      throw new IrException(type + ": needs at least one input");
    }
    sameType(type, in);
    long[] first = in.get(0).dims();
    int axis = normAxis(type, Long.parseLong(attr(type, attrs, "axis")), first.length);
    long[][] dims = new long[in.size()][];
    for (int i = 0; i < dims.length; i++) {
      long[] d = in.get(i).dims();
      if (d.length != first.length) {
        throw new IrException(type + ": inputs have different ranks");
      }
      for (int k = 0; k < d.length; k++) {
        if (k != axis && d[k] != first[k] && d[k] >= 0 && first[k] >= 0) {
          throw new IrException(type + ": inputs differ in dimension " + k + " (" + first[k] + " vs " + d[k] + ")");
        }
      }
      dims[i] = d;
    }
    return one(in.get(0).type(), ShapeMath.concat(dims, axis));
  }

  private static List<Output> gather(Map<String, String> attrs, List<Input> in) {
    String type = "Gather";
    arity(type, in, 3);
    if (!"0".equals(attrs.getOrDefault("batch_dims", "0").trim())) {
      throw new IrException(type + ": only batch_dims=0 is supported by the model builders");
    }
    long[] data = in.get(0).dims();
    long[] idx = in.get(1).dims();
    long[] axisVal = constValues(type, in.get(2), "axis");
    if (axisVal.length != 1) {
      throw new IrException(type + ": axis must hold one value");
    }
    int axis = normAxis(type, axisVal[0], data.length);
    return one(in.get(0).type(), ShapeMath.gather(data, idx, axis, 0));
  }

  private static List<Output> transpose(List<Input> in) {
    String type = "Transpose";
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] perm = constValues(type, in.get(1), "order");
    if (perm.length != x.length) {
      throw new IrException(type + ": order " + Arrays.toString(perm) + " does not match rank " + x.length);
    }
    boolean[] seen = new boolean[x.length];
    long[] out = new long[x.length];
    for (int i = 0; i < perm.length; i++) {
      int p = normAxis(type, perm[i], x.length);
      if (seen[p]) {
        throw new IrException(type + ": order " + Arrays.toString(perm) + " repeats axis " + p);
      }
      seen[p] = true;
      out[i] = x[p];
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> unsqueeze(List<Input> in) {
    String type = "Unsqueeze";
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] axes = constValues(type, in.get(1), "axes");
    int rank = x.length + axes.length;
    boolean[] inserted = new boolean[rank];
    for (long a : axes) {
      int p = normAxis(type, a, rank);
      if (inserted[p]) {
        throw new IrException(type + ": axis " + a + " repeated");
      }
      inserted[p] = true;
    }
    long[] out = new long[rank];
    int k = 0;
    for (int i = 0; i < rank; i++) {
      out[i] = inserted[i] ? 1 : x[k++];
    }
    return one(in.get(0).type(), out);
  }
}
