package org.hsdag.cost;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpAttributes;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Device-independent FLOPs and bytes of an IR operation, computed from its port shapes and
 * attributes (dynamic dimensions resolved by a {@link ShapeAssumption}).
 *
 * <ul>
 *   <li>Convolution: 2 · output elements · C_in · kernel area; GroupConvolution: the same with
 *       C_in / groups (read from the weight shape); 1x1 kernels are {@link OpClass#POINTWISE_CONVOLUTION}.
 *   <li>MatMul: 2 · output elements · K (K from input 0, honouring {@code transpose_a}).
 *   <li>Element-wise: output elements times a per-op factor (1 for Add, about 8 for Gelu).
 *   <li>Pooling: output elements · kernel area; reductions: input elements; SoftMax / MVN: 5 per element.
 *   <li>Data movement: no FLOPs, twice the output bytes (read what is written; a Gather reads rows,
 *       not its whole table); Reshape / Squeeze / Unsqueeze: free.
 *   <li><b>Unknown op types</b>: {@link OpClass#OTHER}, one FLOP per output element plus input and
 *       output bytes (a copy-like kernel); a warning is logged once per type and cost model.
 * </ul>
 *
 * Bytes are the sum of all input tensors (weights included: they are read on every inference)
 * and all output tensors. The attributes read here ({@code transpose_a}, pooling {@code kernel})
 * are checked for presence and form when the IR is read ({@link OpAttributes}). Thread-safe.
 */
public final class CostModel {
  private static final Logger LOG = LoggerFactory.getLogger(CostModel.class);

  /** Per-element FLOP factor of each element-wise or activation type. */
  private static final Map<String, Double> ELEMENTWISE_FLOPS;
  private static final Map<String, OpClass> CLASS_OF;

  static {
    Map<String, Double> e = new HashMap<>();
    for (String t : List.of("Add", "Subtract", "Multiply", "Divide", "Maximum", "Minimum", "ReLU", "Relu", "Clamp",
        "PRelu", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd", "LogicalOr",
        "LogicalNot", "LogicalXor", "Select", "Mod", "FloorMod", "Floor", "Ceiling", "Ceil", "Abs", "Negative",
        "Sign", "SquaredDifference", "Convert", "ConvertLike", "BitwiseAnd", "BitwiseOr", "BitwiseNot", "BitwiseXor",
        "IsNaN", "IsInf", "IsFinite", "Round")) {
      e.put(t, 1.0);
    }
    e.put("Sqrt", 2.0);
    e.put("Power", 4.0);
    e.put("Exp", 4.0);
    e.put("Log", 4.0);
    e.put("Elu", 4.0);
    e.put("HSwish", 4.0);
    e.put("HSigmoid", 4.0);
    e.put("HardSigmoid", 4.0); // max(0, min(1, alpha * x + beta)): HSigmoid with its own alpha and beta
    e.put("Sigmoid", 5.0);
    e.put("Swish", 6.0);
    e.put("Tanh", 6.0);
    e.put("SoftPlus", 6.0);
    e.put("SoftSign", 3.0);
    e.put("Erf", 8.0);
    e.put("Gelu", 8.0);
    e.put("Mish", 10.0);
    e.put("Selu", 5.0);
    e.put("Sin", 6.0);
    e.put("Cos", 6.0);
    ELEMENTWISE_FLOPS = Collections.unmodifiableMap(e);

    Map<String, OpClass> c = new HashMap<>();
    for (Map.Entry<String, Double> en : e.entrySet()) {
      c.put(en.getKey(), en.getValue() > 2.0 ? OpClass.ACTIVATION : OpClass.ELEMENTWISE);
    }
    c.put("Convolution", OpClass.CONVOLUTION);
    c.put("ConvolutionBackpropData", OpClass.CONVOLUTION);
    c.put("GroupConvolution", OpClass.GROUP_CONVOLUTION);
    c.put("GroupConvolutionBackpropData", OpClass.GROUP_CONVOLUTION);
    c.put("MatMul", OpClass.MATMUL);
    c.put("Einsum", OpClass.MATMUL);
    c.put("FullyConnected", OpClass.MATMUL);
    for (String t : List.of("MaxPool", "AvgPool", "AdaptiveAvgPool", "AdaptiveMaxPool")) {
      c.put(t, OpClass.POOLING);
    }
    for (String t : List.of("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogicalAnd", "ReduceLogicalOr", "ArgMax", "TopK")) {
      c.put(t, OpClass.REDUCTION);
    }
    c.put("SoftMax", OpClass.SOFTMAX);
    c.put("Softmax", OpClass.SOFTMAX);
    c.put("LogSoftmax", OpClass.SOFTMAX);
    for (String t : List.of("MVN", "LRN", "NormalizeL2", "BatchNormInference", "GroupNormalization", "RMS")) {
      c.put(t, OpClass.NORMALIZATION);
    }
    for (String t : List.of("Transpose", "Concat", "Gather", "GatherND", "GatherElements", "StridedSlice", "Slice",
        "Split", "VariadicSplit", "Broadcast", "Tile", "Pad", "ScatterUpdate", "ScatterNDUpdate",
        "ScatterElementsUpdate", "Interpolate", "CumSum", "DepthToSpace", "SpaceToDepth", "ShuffleChannels", "Roll",
        "Reverse", "ReverseSequence", "OneHot", "NonZero", "Range", "Identity", "ReorgYolo", "ExtractImagePatches")) {
      c.put(t, OpClass.DATA_MOVEMENT);
    }
    for (String t : List.of("Reshape", "Squeeze", "Unsqueeze", "Flatten")) {
      c.put(t, OpClass.VIEW);
    }
    c.put("ShapeOf", OpClass.SHAPE);
    c.put("FakeQuantize", OpClass.QUANTIZATION);
    c.put("FakeConvert", OpClass.QUANTIZATION);
    for (String t : List.of("DetectionOutput", "PriorBox", "PriorBoxClustered", "Proposal", "NonMaxSuppression",
        "ROIPooling", "ROIAlign", "RegionYolo", "ExperimentalDetectronDetectionOutput")) {
      c.put(t, OpClass.DETECTION);
    }
    c.put("Const", OpClass.CONSTANT);
    c.put("Constant", OpClass.CONSTANT);
    c.put("Parameter", OpClass.PARAMETER);
    c.put("Result", OpClass.RESULT);
    CLASS_OF = Collections.unmodifiableMap(c);
  }

  private final ShapeAssumption shapes;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public CostModel(ShapeAssumption shapes) {
    this.shapes = shapes;
  }

  public ShapeAssumption shapes() {
    return shapes;
  }

  /** Op types this cost model has met without a formula (each was warned about once). */
  public Set<String> unknownTypesSeen() {
    return Set.copyOf(warned);
  }

  /** The cost class of an op type, or {@link OpClass#OTHER} when unknown. */
  public static OpClass classOf(String type) {
    return CLASS_OF.getOrDefault(type, OpClass.OTHER);
  }

  /** True when the cost model has a formula for {@code type}. */
  public static boolean knows(String type) {
    return CLASS_OF.containsKey(type);
  }

  /**
   * The cost of every node of {@code g} with constant folding applied: an op whose inputs all come
   * from constants (the FP16 decompression {@code Convert} chain included) is computed at compile
   * time and reported as {@link OpClass#CONSTANT} with no cost.
   */
  public OpCost[] costs(org.hsdag.ir.OpGraph g) {
    boolean[] kernel = kernels(g);
    TensorShapes sized = TensorShapes.of(g, shapes);
    OpCost[] costs = new OpCost[g.nodeCount()];
    for (int v = 0; v < costs.length; v++) {
      OpNode node = g.node(v);
      long[][] ins = new long[node.inputs().size()][];
      for (int k = 0; k < ins.length; k++) {
        ins[k] = sized.input(v, k);
      }
      long[][] outs = new long[node.outputs().size()][];
      for (int k = 0; k < outs.length; k++) {
        outs[k] = sized.output(v, k);
      }
      OpCost c = cost(node, ins, outs);
      costs[v] = !kernel[v] && c.opClass().isCompute() ? new OpCost(OpClass.CONSTANT, 0, 0, false) : c;
    }
    return costs;
  }

  /**
   * Which nodes of {@code g} run as kernels: ops of a compute class, less those constant folding
   * computes at compile time (every input from a constant or a folded op). What hsdag calls the
   * model's "compute ops" everywhere.
   */
  public static boolean[] kernels(org.hsdag.ir.OpGraph g) {
    int n = g.nodeCount();
    // Constant folding computes at compile time what HETERO's rules call constant-only (one definition).
    boolean[] folded = org.hsdag.placement.HeteroRules.constantOnlyNodes(g);
    boolean[] kernel = new boolean[n];
    for (int v = 0; v < n; v++) {
      kernel[v] = classOf(g.node(v).type()).isCompute() && !folded[v];
    }
    return kernel;
  }

  /**
   * The op types of {@code g} that run as kernels ({@link #kernels}) but have no formula here
   * (costed as a copy), with how many nodes each; empty when every kernel has a formula.
   */
  public static java.util.SortedMap<String, Integer> unknownOpTypes(org.hsdag.ir.OpGraph g) {
    boolean[] kernel = kernels(g);
    java.util.SortedMap<String, Integer> unknown = new java.util.TreeMap<>();
    for (int v = 0; v < kernel.length; v++) {
      if (kernel[v] && classOf(g.node(v).type()) == OpClass.OTHER) {
        unknown.merge(g.node(v).type(), 1, Integer::sum);
      }
    }
    return java.util.Collections.unmodifiableSortedMap(unknown);
  }

  /**
   * FLOPs and bytes of one node as a compute kernel (constant folding is decided by {@link #costs}),
   * its dynamic dims from the assumption alone ({@link #costs} sizes them as the model is compiled).
   */
  public OpCost cost(OpNode node) {
    long[][] ins = node.inputs().stream().map(p -> resolved(p.dims())).toArray(long[][]::new);
    long[][] outs = node.outputs().stream().map(p -> resolved(p.dims())).toArray(long[][]::new);
    return cost(node, ins, outs);
  }

  private long[] resolved(long[] dims) {
    long[] r = dims.clone();
    for (int a = 0; a < r.length; a++) {
      r[a] = shapes.resolve(r[a], a);
    }
    return r;
  }

  /** As {@link #cost(OpNode)} with the concrete shapes of its input and output tensors. */
  OpCost cost(OpNode node, long[][] ins, long[][] outs) {
    OpClass cls = classOf(node.type());
    if (cls == OpClass.OTHER && warned.add(node.type())) {
      // Commands say this to the user once per model (the CLI's ModelNotes); here it is only hsdag's log.
      LOG.info("sim cost model: unknown op type '{}' (first seen at '{}'): costed as a copy "
          + "(1 FLOP per output element, input + output bytes)", node.type(), node.name());
    }
    boolean dynamic = false;
    for (Port p : node.inputs()) {
      dynamic |= p.isDynamic();
    }
    for (Port p : node.outputs()) {
      dynamic |= p.isDynamic();
    }
    double inBytes = 0;
    for (int k = 0; k < ins.length; k++) {
      inBytes += bytes(node.inputs().get(k), ins[k]);
    }
    double outBytes = 0;
    double outElems = 0;
    for (int k = 0; k < outs.length; k++) {
      outBytes += bytes(node.outputs().get(k), outs[k]);
      outElems += elements(outs[k]);
    }
    double flops;
    double bytes = inBytes + outBytes;
    switch (cls) {
      case CONVOLUTION, GROUP_CONVOLUTION -> {
        long[] w = ins.length > 1 ? ins[1] : new long[0];
        // Convolution weights [Cout, Cin, k...]; GroupConvolution [G, Cout/G, Cin/G, k...].
        int first = cls == OpClass.GROUP_CONVOLUTION ? 2 : 1;
        double cin = w.length > first ? w[first] : 1;
        double area = 1;
        for (int a = first + 1; a < w.length; a++) {
          area *= w[a];
        }
        flops = 2.0 * outElems * cin * area;
        if (cls == OpClass.CONVOLUTION && area == 1) {
          cls = OpClass.POINTWISE_CONVOLUTION;
        }
      }
      case MATMUL -> {
        long[] a = ins.length == 0 ? new long[0] : ins[0];
        boolean transposeA = OpAttributes.isTrue(node.attribute("transpose_a"));
        double k = 1;
        if (a.length == 1) {
          k = a[0];
        } else if (a.length >= 2) {
          int axis = transposeA ? a.length - 2 : a.length - 1;
          k = a[axis];
        }
        flops = 2.0 * outElems * k;
      }
      case ELEMENTWISE, ACTIVATION -> flops = outElems * ELEMENTWISE_FLOPS.getOrDefault(node.type(), 1.0);
      case POOLING -> flops = outElems * kernelArea(node.attribute("kernel"));
      case REDUCTION -> flops = ins.length > 0 ? elements(ins[0]) : 0;
      case SOFTMAX, NORMALIZATION, QUANTIZATION -> flops = 5.0 * outElems;
      case DATA_MOVEMENT -> {
        // A copy reads what it writes (Gather reads rows of its table, not the whole table).
        flops = 0;
        bytes = 2 * outBytes;
      }
      case VIEW -> {
        flops = 0;
        bytes = 0;
      }
      case SHAPE -> {
        flops = outElems;
        bytes = outBytes;
      }
      case DETECTION -> flops = 20.0 * Math.max(outElems, ins.length > 0 ? elements(ins[0]) : 0);
      case CONSTANT, PARAMETER, RESULT -> {
        flops = 0;
        bytes = 0;
      }
      default -> flops = outElems;
    }
    return new OpCost(cls, flops, bytes, dynamic);
  }

  private static double bytes(Port p, long[] dims) {
    ElementType t = p.elementType() == null || p.elementType().bitWidth() == 0 ? ElementType.F32 : p.elementType();
    return elements(dims) * t.bitWidth() / 8.0;
  }

  private static double elements(long[] dims) {
    double n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }

  private static double kernelArea(String kernel) {
    if (kernel == null || kernel.isBlank()) {
      return 1;
    }
    double area = 1;
    for (String s : kernel.split(",", -1)) {
      try {
        area *= Math.max(1, Long.parseLong(s.trim()));
      } catch (NumberFormatException e) {
        return 1;
      }
    }
    return area;
  }
}
