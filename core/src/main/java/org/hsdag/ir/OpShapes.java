package org.hsdag.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * hsdag's one shape inference, following the OpenVINO opset specifications; the runtime's own
 * inference replaces it wherever OpenVINO is loaded. Each op type's rules sit side by side in one
 * {@link OpRule}; the entry points are:
 *
 * <ul>
 *   <li>{@link #infer}: shape and element type from the inputs' dims and the values of their
 *       integer constants (axes, target shapes, orders). The model builders fill their output
 *       ports with it and refuse what does not fit; a dim of -1 is dynamic and stays so where the
 *       rule cannot size it.
 *   <li>{@link #concrete}: the concrete dims of an IR port the XML leaves dynamic, from the
 *       concrete shapes of its inputs after the model's inputs were given sizes. The XML holds no
 *       constant values, so axes and patterns are read from how the IR's own port dims moved;
 *       the cost model's tensor sizes come from it.
 * </ul>
 *
 * Ops whose size is data (Range, Broadcast, Tile) are sized by their forward rule on the values of
 * their shape inputs ({@link #dataSized}, {@link Values}). Stand-in weights derive the constants'
 * values with each op's backward rule ({@link ShapeNeeds}, {@link ShapeConstants}) and check them
 * with {@link #infer} ({@link DerivedValuesCheck}). {@link #isValueInput}: which inputs' values
 * shape an output (HETERO's boundary rule).
 */
public final class OpShapes {
  private OpShapes() {}

  /** One input of an op. */
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
      this.type = type;
      this.dims = dims.clone();
      this.values = values == null ? null : values.clone();
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
      this.type = type;
      this.dims = dims.clone();
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
  public static final List<String> SUPPORTED = OpRule.forwardTypes();

  /**
   * Infers the outputs of an op.
   *
   * @throws IrException when the inputs do not fit the op (rank, channels, types, arity)
   */
  public static List<Output> infer(String type, Map<String, String> attrs, List<Input> in) {
    OpRule.Forward f = OpRule.of(type).forward();
    if (f == null) {
      throw new IrException("no shape inference for op type " + type);
    }
    return f.infer(type, attrs, in);
  }

  /**
   * The concrete dims of output {@code port} of {@code node}, whose IR dims are {@code ir}, from
   * its inputs' concrete shapes {@code in}; entries no rule tells are -1, null when no rule applies.
   */
  public static long[] concrete(OpNode node, int port, long[][] in, long[] ir) {
    OpRule.Concrete c = OpRule.of(node.type()).concrete();
    long[] out = in.length == 0 || c == null ? null : c.dims(node, port, in, ir);
    return out != null && out.length == ir.length ? out : null;
  }

  /** True for the ops whose output size is data, which {@link #dataSized} sizes. */
  public static boolean isDataSized(OpNode node) {
    OpRule r = OpRule.of(node.type());
    return r.concrete() == null && r.forward() != null;
  }

  /**
   * The output of an op whose size is data from its inputs' concrete shapes {@code in} and the
   * values of its shape inputs, {@code value.apply(k)} (null when unknown); null when unknown.
   */
  public static long[] dataSized(OpNode node, long[][] in, IntFunction<long[]> value) {
    List<Input> inputs = new ArrayList<>();
    for (int k = 0; k < in.length; k++) {
      ElementType t = node.inputs().get(k).elementType();
      inputs.add(new Input(t == null ? ElementType.UNDEFINED : t, in[k],
          isValueInput(node.type(), k) ? value.apply(k) : null));
    }
    try {
      return infer(node.type(), node.attributes(), inputs).get(0).dims();
    } catch (IrException e) {
      return null; // a value is unknown or does not fit: no size from the rule
    }
  }

  /** True when the value of input {@code k} of an op of {@code type} shapes its output (a Reshape's target). */
  public static boolean isValueInput(String type, int k) {
    return k < 31 && ((valueInputs(type) >>> k) & 1) != 0;
  }

  /** The inputs of an op of {@code type} whose value shapes its output: bit k for input k. */
  public static int valueInputs(String type) {
    return OpRule.of(type).valueInputs();
  }

  /**
   * The values of one graph's shape computations (ShapeOf, Gather, Concat, arithmetic over integer
   * constants), the constants valued as stand-in weights derive them: what sizes a Range over a
   * sequence length or a Broadcast to a computed shape.
   */
  public interface Values {
    /**
     * The value of output 0 of {@code node}, each ShapeOf reading {@code shapeOfInput} (the concrete
     * shape of its input, by the ShapeOf's node index); null when not known.
     */
    long[] value(int node, IntFunction<long[]> shapeOfInput);
  }

  /** Derives the constants of {@code graph} (as many seconds as stand-in weights take: call once per graph). */
  public static Values values(OpGraph graph) {
    return ShapeConstants.derived(graph)::evaluate;
  }

  static List<Output> one(ElementType t, long[] dims) {
    return List.of(new Output(t, dims));
  }

  static String attr(String type, Map<String, String> attrs, String key) {
    String v = attrs.get(key);
    if (v == null) {
      throw new IrException(type + ": missing attribute '" + key + "'");
    }
    return v;
  }

  static void arity(String type, List<Input> in, int n) {
    if (in.size() != n) {
      throw new IrException(type + ": expected " + n + " inputs, got " + in.size());
    }
  }

  static void sameType(String type, List<Input> in) {
    for (Input i : in) {
      if (i.type() != in.get(0).type()) {
        throw new IrException(type + ": inputs have different element types " + in.get(0).type().irName()
            + " and " + i.type().irName());
      }
    }
  }

  static long[] constValues(String type, Input i, String what) {
    if (i.values() == null) {
      throw new IrException(type + ": the " + what + " input must be an integer constant");
    }
    return i.values();
  }

  static int normAxis(String type, long axis, int rank) {
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
}
