package org.hsdag.cost;

/**
 * The cost class of an operation. A device profile gives one efficiency (fraction of peak FLOPs)
 * per class; the class also decides how FLOPs and bytes are counted (see {@link CostModel}).
 * The three structural classes ({@link #CONSTANT}, {@link #PARAMETER}, {@link #RESULT}) never run
 * as kernels: HETERO places them with their neighbours.
 */
public enum OpClass {
  /** Convolution with a spatial kernel larger than 1x1. */
  CONVOLUTION,
  /** 1x1 convolution: a GEMM with low arithmetic intensity. */
  POINTWISE_CONVOLUTION,
  /** Grouped and depthwise convolution. */
  GROUP_CONVOLUTION,
  /** MatMul, Einsum-like products. */
  MATMUL,
  /** Cheap element-wise arithmetic, comparisons, Convert, Select. */
  ELEMENTWISE,
  /** Transcendental activations (Gelu, Swish, Sigmoid, Tanh, Exp, ...). */
  ACTIVATION,
  /** MaxPool, AvgPool. */
  POOLING,
  /** ReduceMean, ReduceSum, ... */
  REDUCTION,
  /** SoftMax, LogSoftmax. */
  SOFTMAX,
  /** MVN, LRN, NormalizeL2, BatchNorm. */
  NORMALIZATION,
  /** Copies: Transpose, Concat, Gather, Slice, Split, Broadcast, Interpolate, ... */
  DATA_MOVEMENT,
  /** Metadata-only reshapes (Reshape, Squeeze, Unsqueeze): optimised out by every plugin. */
  VIEW,
  /** Shape computations (ShapeOf and friends). */
  SHAPE,
  /** FakeQuantize and (de)quantisation. */
  QUANTIZATION,
  /** Detection post-processing (DetectionOutput, PriorBox, NMS, ...). */
  DETECTION,
  /** An op type the cost model does not know: documented default cost. */
  OTHER,
  /** Const, and ops computed only from constants (folded at compile time). */
  CONSTANT,
  /** Model input. */
  PARAMETER,
  /** Model output. */
  RESULT;

  /** True for classes that run as kernels on a device. */
  public boolean isCompute() {
    return this != CONSTANT && this != PARAMETER && this != RESULT;
  }
}
