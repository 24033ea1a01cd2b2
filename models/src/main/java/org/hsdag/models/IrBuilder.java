package org.hsdag.models;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.hsdag.ir.OpShapes;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.Half;
import org.hsdag.ir.IrException;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.ir.Shapes;

/**
 * A small DSL that emits OpenVINO IR v11 the way OpenVINO's converters lay it out: nodes numbered
 * in creation order, port ids running over inputs then outputs, {@code .bin} regions back to back,
 * learned weights as f16 Const plus a {@code decompression} Convert to f32. Every op's output
 * shape and element type come from {@link OpShapes}, so a wrong wiring fails at build time
 * with the op's name.
 */
public final class IrBuilder {
  /** rt_info of an FP16 to FP32 weight Convert, in the canonical form {@code IrReader} captures. */
  public static final String DECOMPRESSION = "<rt_info><attribute name=\"decompression\" version=\"0\"/></rt_info>";
  /** rt_info that keeps a shape-subgraph Const out of FP16 compression. */
  public static final String PRECISE = "<rt_info><attribute name=\"precise\" version=\"0\"/></rt_info>";

  private final OpGraph.Builder graph = OpGraph.builder();
  private final List<OpNode> nodes = new ArrayList<>();
  private final List<Edge> edges = new ArrayList<>();
  private final List<ConstBlob> blobs = new ArrayList<>();
  private final Map<ConstData.Literal, Long> literalOffsets = new HashMap<>();
  private final Map<Integer, long[]> integerValues = new HashMap<>();
  private long binEnd;
  private long randomStreams;
  private boolean built;

  /** Starts a model whose {@code <net name>} is {@code name}. */
  public IrBuilder(String name) {
    graph.setName(name).setIrVersion(11);
  }

  /** Adds a model-level block (for example {@code <rt_info>...</rt_info>}) in canonical XML. */
  public IrBuilder modelInfo(String xml) {
    graph.addModelInfoXml(xml);
    return this;
  }

  // ---- sources ------------------------------------------------------------------------------

  /** A model input; its output tensor is named like the parameter. */
  public Tensor parameter(String name, ElementType type, long... dims) {
    StringJoiner shape = new StringJoiner(",");
    for (long d : dims) {
      shape.add(Long.toString(d));
    }
    return add("Parameter", "opset1", name, attrs("shape", shape.toString(), "element_type", type.irName()),
        null, new String[] {name}, List.of()).get(0);
  }

  /** An i64 Const with literal values (axes, target shapes, permutations, indices). */
  public Tensor constI64(String name, long[] dims, long... values) {
    byte[] bytes = new byte[Math.toIntExact(values.length * 8L)];
    ByteBuffer b = littleEndian(bytes);
    for (long v : values) {
      b.putLong(v);
    }
    return literal(name, ElementType.I64, dims, bytes, values, null);
  }

  /** An i64 Const marked {@code precise} (shape subgraphs kept out of FP16 compression). */
  public Tensor constI64Precise(String name, long[] dims, long... values) {
    byte[] bytes = new byte[Math.toIntExact(values.length * 8L)];
    ByteBuffer b = littleEndian(bytes);
    for (long v : values) {
      b.putLong(v);
    }
    return literal(name, ElementType.I64, dims, bytes, values, PRECISE);
  }

  /** An i32 Const with literal values. */
  public Tensor constI32(String name, long[] dims, long... values) {
    byte[] bytes = new byte[Math.toIntExact(values.length * 4L)];
    ByteBuffer b = littleEndian(bytes);
    for (long v : values) {
      b.putInt(Math.toIntExact(v));
    }
    return literal(name, ElementType.I32, dims, bytes, values, null);
  }

  /** An f32 Const with literal values (scales, mask constants). */
  public Tensor constF32(String name, long[] dims, float... values) {
    byte[] bytes = new byte[Math.toIntExact(values.length * 4L)];
    ByteBuffer b = littleEndian(bytes);
    for (float v : values) {
      b.putFloat(v);
    }
    return literal(name, ElementType.F32, dims, bytes, null, null);
  }

  /**
   * A float constant (a scale, a mask value) compressed like every f32 Const that fits FP16: an
   * f16 Const {@code name + "_compressed"} and a decompression Convert named {@code name}.
   */
  public Tensor constF16(String name, long[] dims, float... values) {
    byte[] bytes = new byte[Math.toIntExact(values.length * 2L)];
    ByteBuffer b = littleEndian(bytes);
    for (float v : values) {
      b.putShort(Half.fromFloat(v));
    }
    Tensor c = literal(name + "_compressed", ElementType.F16, dims, bytes, null, null);
    return add("Convert", "opset1", name, attrs("destination_type", "f32"), DECOMPRESSION, new String[] {name},
        List.of(c)).get(0);
  }

  /**
   * A learned weight: a pseudo-random f16 Const {@code name + "_compressed"} followed by a
   * {@code decompression} Convert named {@code name} that yields f32, as FP16-compressed IRs have.
   */
  public Tensor weight(String name, long[] dims, Init init) {
    long count = Shapes.elementCount(dims);
    ConstData data = new ConstData.RandomHalf(count, init, randomStreams++);
    long offset = place(data, false);
    Tensor c = add("Const", "opset1", name + "_compressed", constAttrs(ElementType.F16, dims, offset, data.size()),
        null, new String[] {null}, List.of()).get(0);
    return add("Convert", "opset1", name, attrs("destination_type", "f32"), DECOMPRESSION, new String[] {name},
        List.of(c)).get(0);
  }

  private Tensor literal(String name, ElementType type, long[] dims, byte[] bytes, long[] values, String rtInfo) {
    if (Shapes.elementCount(dims) * type.bitWidth() / 8 != bytes.length) {
      throw new IrException(
          "Const '" + name + "': " + bytes.length + " bytes do not fit shape " + Arrays.toString(dims));
    }
    long offset = place(new ConstData.Literal(bytes), true);
    Tensor t = add("Const", "opset1", name, constAttrs(type, dims, offset, bytes.length), rtInfo,
        new String[] {null}, List.of()).get(0);
    if (values != null) {
      integerValues.put(t.node(), values.clone());
    }
    return t;
  }

  private long place(ConstData data, boolean shareable) {
    if (shareable) {
      Long existing = literalOffsets.get((ConstData.Literal) data);
      if (existing != null) {
        return existing;
      }
    }
    long offset = binEnd;
    blobs.add(new ConstBlob(offset, data));
    binEnd += data.size();
    if (shareable) {
      literalOffsets.put((ConstData.Literal) data, offset);
    }
    return offset;
  }

  private static Map<String, String> constAttrs(ElementType type, long[] dims, long offset, long size) {
    return attrs("element_type", type.irName(), "shape", Shapes.format(dims), "offset", Long.toString(offset),
        "size", Long.toString(size));
  }

  private static ByteBuffer littleEndian(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  // ---- generic op ---------------------------------------------------------------------------

  /**
   * Adds any op this builder can infer; returns its outputs.
   *
   * @param outputNames tensor names per output (entries may be null); may be shorter than the outputs
   */
  public List<Tensor> op(String type, String version, String name, Map<String, String> attributes,
      String[] outputNames, Tensor... inputs) {
    return add(type, version, name, attributes, null, outputNames, List.of(inputs));
  }

  private List<Tensor> add(String type, String version, String name, Map<String, String> attributes, String rtInfo,
      String[] outputNames, List<Tensor> inputs) {
    int index = nodes.size();
    List<OpShapes.Input> in = new ArrayList<>();
    List<Port> inPorts = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      Tensor t = inputs.get(i);
      if (t.node() >= index) {
        throw new IrException(name + ": input " + i + " refers to a node that does not exist yet");
      }
      in.add(new OpShapes.Input(t.type(), t.dims(), integerValues.get(t.node())));
      inPorts.add(new Port(i, t.type(), t.dims(), null, null));
    }
    List<OpShapes.Output> out;
    try {
      out = OpShapes.infer(type, attributes, in);
    } catch (IrException e) {
      throw new IrException("layer '" + name + "': " + e.getMessage(), e);
    }
    List<Port> outPorts = new ArrayList<>();
    List<Tensor> result = new ArrayList<>();
    for (int k = 0; k < out.size(); k++) {
      String names = outputNames != null && k < outputNames.length ? outputNames[k] : null;
      outPorts.add(new Port(inputs.size() + k, out.get(k).type(), out.get(k).dims(), names, null));
      result.add(new Tensor(index, k, out.get(k).type(), out.get(k).dims()));
    }
    OpNode node = new OpNode(index, Integer.toString(index), name, type, version, attributes, inPorts, outPorts,
        rtInfo, null);
    nodes.add(node);
    graph.addNode(node);
    for (int i = 0; i < inputs.size(); i++) {
      edges.add(new Edge(inputs.get(i).node(), inputs.get(i).output(), index, i));
    }
    return result;
  }

  /** An ordered attribute map from key, value pairs. */
  public static Map<String, String> attrs(String... kv) {
    if (kv.length % 2 != 0) {
      throw new IllegalArgumentException("attrs needs key, value pairs");
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /** A list attribute as current serializers write it: {@code "2, 2"}. */
  public static String list(long... values) {
    StringJoiner j = new StringJoiner(", ");
    for (long v : values) {
      j.add(Long.toString(v));
    }
    return j.toString();
  }

  private static String[] names(String outName) {
    return new String[] {outName};
  }

  // ---- ops ----------------------------------------------------------------------------------

  /** Convolution (opset1, explicit padding, dilation 1). */
  public Tensor conv(String name, Tensor x, Tensor w, long[] strides, long[] padsBegin, long[] padsEnd) {
    long[] dil = new long[strides.length];
    Arrays.fill(dil, 1);
    return op("Convolution", "opset1", name, attrs("strides", list(strides), "dilations", list(dil),
        "pads_begin", list(padsBegin), "pads_end", list(padsEnd), "auto_pad", "explicit"), null, x, w).get(0);
  }

  private Tensor binary(String type, String name, Tensor a, Tensor b, String outName) {
    Map<String, String> at = type.equals("Divide")
        ? attrs("auto_broadcast", "numpy", "m_pythondiv", "true") : attrs("auto_broadcast", "numpy");
    return op(type, "opset1", name, at, names(outName), a, b).get(0);
  }

  public Tensor add(String name, Tensor a, Tensor b, String outName) {
    return binary("Add", name, a, b, outName);
  }

  public Tensor multiply(String name, Tensor a, Tensor b, String outName) {
    return binary("Multiply", name, a, b, outName);
  }

  public Tensor subtract(String name, Tensor a, Tensor b, String outName) {
    return binary("Subtract", name, a, b, outName);
  }

  public Tensor divide(String name, Tensor a, Tensor b, String outName) {
    return binary("Divide", name, a, b, outName);
  }

  public Tensor relu(String name, Tensor x, String outName) {
    return op("ReLU", "opset1", name, Map.of(), names(outName), x).get(0);
  }

  public Tensor tanh(String name, Tensor x, String outName) {
    return op("Tanh", "opset1", name, Map.of(), names(outName), x).get(0);
  }

  /** Gelu (opset7, exact erf form, as the PyTorch frontend emits for {@code aten::gelu}). */
  public Tensor gelu(String name, Tensor x, String outName) {
    return op("Gelu", "opset7", name, attrs("approximation_mode", "ERF"), names(outName), x).get(0);
  }

  /** SoftMax (opset8). */
  public Tensor softmax(String name, Tensor x, long axis, String outName) {
    return op("SoftMax", "opset8", name, attrs("axis", Long.toString(axis)), names(outName), x).get(0);
  }

  /** MaxPool (opset8, floor rounding); returns the values output, the i64 indices output stays unused. */
  public Tensor maxPool(String name, Tensor x, long[] kernel, long[] strides, long[] padsBegin, long[] padsEnd,
      String outName) {
    long[] dil = new long[kernel.length];
    Arrays.fill(dil, 1);
    return op("MaxPool", "opset8", name, attrs("strides", list(strides), "dilations", list(dil),
        "pads_begin", list(padsBegin), "pads_end", list(padsEnd), "kernel", list(kernel), "rounding_type", "floor",
        "auto_pad", "explicit", "index_element_type", "i64", "axis", "0"), names(outName), x).get(0);
  }

  /** AvgPool (opset1, floor rounding). */
  public Tensor avgPool(String name, Tensor x, long[] kernel, long[] strides, long[] padsBegin, long[] padsEnd,
      boolean excludePad, String outName) {
    return op("AvgPool", "opset1", name, attrs("strides", list(strides), "pads_begin", list(padsBegin),
        "pads_end", list(padsEnd), "kernel", list(kernel), "exclude-pad", Boolean.toString(excludePad),
        "auto_pad", "explicit", "rounding_type", "floor"), names(outName), x).get(0);
  }

  public Tensor reduceMean(String name, Tensor x, Tensor axes, boolean keepDims, String outName) {
    return op("ReduceMean", "opset1", name, attrs("keep_dims", Boolean.toString(keepDims)), names(outName), x, axes)
        .get(0);
  }

  public Tensor reshape(String name, Tensor x, Tensor shape, boolean specialZero, String outName) {
    return op("Reshape", "opset1", name, attrs("special_zero", Boolean.toString(specialZero)), names(outName),
        x, shape).get(0);
  }

  public Tensor matMul(String name, Tensor a, Tensor b, boolean transposeA, boolean transposeB, String outName) {
    return op("MatMul", "opset1", name, attrs("transpose_a", Boolean.toString(transposeA),
        "transpose_b", Boolean.toString(transposeB)), names(outName), a, b).get(0);
  }

  public Tensor concat(String name, long axis, String outName, Tensor... inputs) {
    return op("Concat", "opset1", name, attrs("axis", Long.toString(axis)), names(outName), inputs).get(0);
  }

  /** Gather (opset8, batch_dims 0). */
  public Tensor gather(String name, Tensor data, Tensor indices, Tensor axis, String outName) {
    return op("Gather", "opset8", name, attrs("batch_dims", "0"), names(outName), data, indices, axis).get(0);
  }

  public Tensor transpose(String name, Tensor x, Tensor order, String outName) {
    return op("Transpose", "opset1", name, Map.of(), names(outName), x, order).get(0);
  }

  public Tensor unsqueeze(String name, Tensor x, Tensor axes, String outName) {
    return op("Unsqueeze", "opset1", name, Map.of(), names(outName), x, axes).get(0);
  }

  public Tensor convert(String name, Tensor x, ElementType to, String outName) {
    return op("Convert", "opset1", name, attrs("destination_type", to.irName()), names(outName), x).get(0);
  }

  /** MVN (opset6, normalize_variance, eps inside the square root) over the axes in {@code axes}. */
  public Tensor mvn(String name, Tensor x, Tensor axes, String eps, String outName) {
    return op("MVN", "opset6", name, attrs("eps", eps, "normalize_variance", "true", "eps_mode", "INSIDE_SQRT"),
        names(outName), x, axes).get(0);
  }

  /** A model output. */
  public void result(String name, Tensor x) {
    op("Result", "opset1", name, Map.of(), null, x);
  }

  /** Number of nodes added so far. */
  public int nodeCount() {
    return nodes.size();
  }

  /** Freezes the model; a builder builds once. */
  public GeneratedModel build() {
    if (built) {
      throw new IllegalStateException("this IrBuilder has already built its model");
    }
    built = true;
    // The serializer lists edges by source layer; a stable sort keeps each source's consumers in creation order.
    List<Edge> ordered = new ArrayList<>(edges);
    ordered.sort(java.util.Comparator.comparingInt(Edge::source));
    ordered.forEach(graph::addEdge);
    return new GeneratedModel(graph.build(), blobs, integerValues);
  }
}
