package org.hsdag.features;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fixed op-type vocabulary shared by every model, so a policy trained on one model reads another: the
 * OpenVINO opset types (every type in the shared IR samples plus the common opset1–opset15 ops) and a last
 * {@code other} slot for anything else. Lookup ignores case ({@code ReLU}/{@code Relu}) and maps
 * {@code Constant} to {@code Const}.
 *
 * <p>The slot order is part of a trained policy's input contract: changing the list changes the feature
 * width, so it is done only with {@link #VERSION} bumped and policies retrained.
 */
public final class OpTypeVocabulary {
  /** Bumped whenever {@link #TYPES} changes. */
  public static final int VERSION = 1;

  /** The slot for types not in the list. */
  public static final String OTHER = "other";

  /** Every known type in slot order; the last slot is {@link #OTHER}. */
  public static final List<String> TYPES = List.of(
      // graph boundary and data
      "Parameter", "Result", "Const", "Convert", "ConvertLike", "ShapeOf", "ReadValue", "Assign",
      // convolution, pooling, normalisation
      "Convolution", "GroupConvolution", "ConvolutionBackpropData", "GroupConvolutionBackpropData",
      "DeformableConvolution", "BinaryConvolution", "MaxPool", "AvgPool", "AdaptiveAvgPool", "AdaptiveMaxPool",
      "BatchNormInference", "MVN", "LRN", "NormalizeL2", "GroupNormalization", "RMS",
      // linear algebra
      "MatMul", "Einsum", "ScaledDotProductAttention", "FullyConnected",
      // element-wise binary
      "Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "Mod", "FloorMod",
      "SquaredDifference", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
      "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "BitwiseAnd", "BitwiseOr", "Select",
      // activations and unary math
      "ReLU", "PReLU", "Clamp", "Sigmoid", "HSigmoid", "Swish", "HSwish", "Mish", "Gelu", "Elu", "Selu",
      "SoftPlus", "SoftSign", "Tanh", "Exp", "Log", "Sqrt", "Abs", "Negative", "Sign", "Floor", "Ceiling",
      "Round", "Erf", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh",
      "SoftMax", "LogSoftmax", "FakeQuantize", "FakeConvert",
      // reductions
      "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
      "ReduceLogicalAnd", "ReduceLogicalOr", "CumSum", "TopK", "ArgMax",
      // shape and data movement
      "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "VariadicSplit", "StridedSlice",
      "Slice", "Gather", "GatherElements", "GatherND", "ScatterUpdate", "ScatterElementsUpdate",
      "ScatterNDUpdate", "Broadcast", "Tile", "Pad", "DepthToSpace", "SpaceToDepth", "BatchToSpace",
      "SpaceToBatch", "ShuffleChannels", "Reverse", "ReverseSequence", "Roll", "Range", "NonZero",
      "OneHot", "Interpolate", "Resize", "ExtractImagePatches",
      // detection
      "DetectionOutput", "PriorBox", "PriorBoxClustered", "Proposal", "ROIPooling", "ROIAlign",
      "NonMaxSuppression", "RegionYolo", "ReorgYolo",
      // recurrent and control flow
      "LSTMCell", "LSTMSequence", "GRUCell", "GRUSequence", "RNNCell", "RNNSequence",
      "TensorIterator", "Loop", "If",
      OTHER);

  private static final Map<String, Integer> INDEX = buildIndex();

  private OpTypeVocabulary() {}

  private static Map<String, Integer> buildIndex() {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < TYPES.size(); i++) {
      if (m.put(TYPES.get(i).toLowerCase(Locale.ROOT), i) != null) {
        throw new IllegalStateException("duplicate op type in vocabulary: " + TYPES.get(i));
      }
    }
    m.put("constant", m.get("const"));
    return Map.copyOf(m);
  }

  public static int size() {
    return TYPES.size();
  }

  /** Slot of an op type; the {@link #OTHER} slot for unknown or null types. */
  public static int indexOf(String type) {
    if (type == null) {
      return TYPES.size() - 1;
    }
    Integer i = INDEX.get(type.toLowerCase(Locale.ROOT));
    return i == null ? TYPES.size() - 1 : i;
  }

  /** True when the type has its own slot. */
  public static boolean isKnown(String type) {
    return indexOf(type) != TYPES.size() - 1;
  }
}
