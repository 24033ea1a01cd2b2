package org.hsdag.ir;

import static org.hsdag.ir.OpShapes.arity;
import static org.hsdag.ir.OpShapes.attr;
import static org.hsdag.ir.OpShapes.broadcast;
import static org.hsdag.ir.OpShapes.constValues;
import static org.hsdag.ir.OpShapes.normAxis;
import static org.hsdag.ir.OpShapes.one;
import static org.hsdag.ir.OpShapes.sameType;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.OpShapes.Input;
import org.hsdag.ir.OpShapes.Output;

/**
 * The shape rules of the ops that compute element by element (those with input 0's shape, those
 * that broadcast all inputs by OpenVINO's {@code NUMPY} rule), over windows or matrices
 * (Convolution, pooling, MatMul), and of the graph's ends, forwards and backwards.
 */
final class ElementShapes {
  private ElementShapes() {}

  /** Ops whose output 0 has the shape of input 0 (other inputs, if any, are scalars or axes). */
  static final Set<String> SAME_SHAPE = Set.of("Convert", "ConvertLike", "Relu", "ReLU", "Gelu", "Sigmoid",
      "Tanh", "Exp", "Log", "Sqrt", "Erf", "Abs", "Negative", "Swish", "HSwish", "HSigmoid", "HardSigmoid", "Mish",
      "SoftPlus",
      "Clamp", "Elu", "Floor", "Ceiling", "Round", "Sin", "Cos", "Sign", "MVN", "Softmax", "SoftMax", "LogSoftmax",
      "NormalizeL2", "FakeQuantize", "PRelu", "PReLU", "Selu", "SoftSign", "LogicalNot", "GRN", "LRN", "CumSum");

  /** Element-wise ops with numpy broadcasting over all their inputs. */
  static final Set<String> BROADCASTING = Set.of("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum",
      "Minimum", "SquaredDifference", "FloorMod", "Mod", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
      "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalXor", "Select");

  static void register(Map<String, OpRule> m) {
    OpRule same = OpRule.NONE.withConcrete((node, port, in, ir) -> port == 0 ? in[0] : null);
    for (String t : SAME_SHAPE) {
      OpRule.add(m, switch (t) {
        case "Convert" -> same.withForward((type, attrs, in) -> {
          arity(type, in, 1);
          return one(ElementType.parse(attr(type, attrs, "destination_type")), in.get(0).dims());
        }).keepingValues();
        case "ReLU", "Gelu", "Tanh", "SoftMax" -> same.withForward(ElementShapes::unary);
        case "MVN" -> same.withForward(ElementShapes::mvn).withBackward(ElementShapes::freeAxes);
        case "LRN", "CumSum" -> same.withBackward(ElementShapes::freeAxes);
        default -> same;
      }, t);
    }
    OpRule all = OpRule.NONE.withConcrete((node, port, in, ir) -> broadcastAll(in));
    for (String t : BROADCASTING) {
      OpRule.add(m, switch (t) {
        case "Add", "Multiply", "Subtract", "Divide" -> all.withForward((type, attrs, in) -> {
          arity(type, in, 2);
          sameType(type, in);
          return one(in.get(0).type(), broadcast(type, in.get(0).dims(), in.get(1).dims()));
        });
        case "Equal", "NotEqual" -> all.withBackward(ElementShapes::comparedWithShape);
        default -> all;
      }, t);
    }
    OpRule.add(m, OpRule.NONE.withForward(ElementShapes::source), "Parameter", "Const");
    OpRule.add(m, OpRule.NONE.withForward((type, attrs, in) -> {
      arity(type, in, 1);
      return List.of();
    }), "Result");
    OpRule.add(m, OpRule.NONE.withForward((type, attrs, in) -> convolution(attrs, in)), "Convolution");
    OpRule.add(m, OpRule.NONE.withForward(ElementShapes::pool), "MaxPool", "AvgPool");
    OpRule.add(m, OpRule.NONE.withForward((type, attrs, in) -> matMul(attrs, in))
        .withConcrete((node, port, in, ir) -> in.length != 2 ? null : ShapeMath.matMul(in[0], in[1],
            OpAttributes.isTrue(node.attribute("transpose_a")), OpAttributes.isTrue(node.attribute("transpose_b")),
            true)),
        "MatMul");
  }

  /** Numpy broadcasting of every input (a conflict between assumed sizes takes the later one). */
  static long[] broadcastAll(long[]... shapes) {
    long[] out = new long[0];
    for (long[] s : shapes) {
      out = ShapeMath.broadcast(out, s, true);
    }
    return out;
  }

  private static List<Output> unary(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 1);
    if (type.equals("SoftMax")) {
      normAxis(type, Long.parseLong(attr(type, attrs, "axis")), in.get(0).rank());
    }
    return one(in.get(0).type(), in.get(0).dims());
  }

  private static List<Output> mvn(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    for (long a : constValues(type, in.get(1), "axes")) {
      normAxis(type, a, in.get(0).rank());
    }
    return one(in.get(0).type(), in.get(0).dims());
  }

  /** MVN, LRN and CumSum keep the shape, so any axes fit: the last ones (LRN: across channels). */
  private static void freeAxes(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    if (n.inputs().size() < 2) {
      return;
    }
    int rank = in.length;
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    boolean channels = "LRN".equals(n.type()) && count == 1;
    long[] axes = new long[count];
    for (int i = 0; i < count; i++) {
      axes[i] = channels ? 1 : rank - count + i;
    }
    s.note(n, 1, "not derivable (the op keeps its input shape); used "
        + (channels ? "axis 1 (across channels)" : "the last " + count + " axes"));
    ShapeNeeds.rule(out, n, 1, ShapeNeeds.signed(axes, rank));
  }

  /** Compared with a shape vector: -1 never equals a dim, so the Select after it keeps the shape. */
  private static void comparedWithShape(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    if (n.inputs().size() == 2 && s.valued(n, 0)) {
      long[] minusOnes = new long[(int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()))];
      Arrays.fill(minusOnes, -1);
      ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(minusOnes)));
    }
  }

  private static List<Output> source(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 0);
    ElementType t = ElementType.parse(attr(type, attrs, "element_type"));
    long[] dims = Shapes.parseShape(attr(type, attrs, "shape"));
    if (dims == null) {
      throw new IrException(type + ": dynamic rank is not supported by the model builders");
    }
    return one(t, dims);
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
}
