package org.hsdag.models;

import org.hsdag.ir.ElementType;

/**
 * Small models for tests, built with the same ops and conventions as the benchmark models (f16
 * weights + decompression Convert, folded-BatchNorm bias Add) so that code exercised on them sees
 * the same graph shapes it meets on ResNet, Inception and BERT, in milliseconds.
 */
public final class TinyModels {
  private static final long[] K3 = {3, 3};
  private static final long[] S1 = {1, 1};
  private static final long[] S2 = {2, 2};
  private static final long[] P1 = {1, 1};

  /** A one-layer, 2-head BERT block: hidden 32, sequence 16. */
  public static final BertBase.Config TRANSFORMER = new BertBase.Config("tiny_transformer", 100, 32, 1, 2, 64, 32, 2,
      16);

  private TinyModels() {}

  /** input → conv → ReLU → conv → ReLU → global pool → flatten → classifier: a pure chain. */
  public static GeneratedModel chain() {
    IrBuilder b = new IrBuilder("tiny_chain");
    Tensor x = b.parameter("input", ElementType.F32, 1, 3, 16, 16);
    x = convRelu(b, "conv1", x, 8, 3, 1, 1);
    x = convRelu(b, "conv2", x, 8, 3, 2, 1);
    x = head(b, x, 10);
    b.result("output/sink_port_0", x);
    b.modelInfo(Models.generatorInfo(TinyModels.class, "tiny_chain"));
    return b.build();
  }

  /** A stem that forks into two conv branches joined by an Add: one diamond. */
  public static GeneratedModel diamond() {
    IrBuilder b = new IrBuilder("tiny_diamond");
    Tensor x = b.parameter("input", ElementType.F32, 1, 3, 16, 16);
    x = convRelu(b, "stem", x, 8, 3, 1, 1);
    Tensor left = convRelu(b, "left", x, 8, 3, 1, 1);
    Tensor right = convRelu(b, "right", x, 8, 1, 1, 0);
    x = b.add("/join/Add", left, right, "/join/Add_output_0");
    x = b.relu("/join/Relu", x, "/join/Relu_output_0");
    b.result("output/sink_port_0", x);
    b.modelInfo(Models.generatorInfo(TinyModels.class, "tiny_diamond"));
    return b.build();
  }

  /** An Inception-style block: a 1×1 branch and a 1×1 → 3×3 branch, concatenated, then pooled and classified. */
  public static GeneratedModel twoBranch() {
    IrBuilder b = new IrBuilder("tiny_two_branch");
    Tensor x = b.parameter("input", ElementType.F32, 1, 3, 16, 16);
    x = convRelu(b, "stem", x, 16, 3, 1, 1);
    x = b.maxPool("/maxpool/MaxPool", x, K3, S2, P1, P1, "/maxpool/MaxPool_output_0");
    Tensor a = convRelu(b, "block.branch1x1", x, 8, 1, 1, 0);
    Tensor c = convRelu(b, "block.branch3x3_1", x, 8, 1, 1, 0);
    c = convRelu(b, "block.branch3x3_2", c, 12, 3, 1, 1);
    Tensor p = b.avgPool("/block/AveragePool", x, K3, S1, P1, P1, false, "/block/AveragePool_output_0");
    p = convRelu(b, "block.branch_pool", p, 4, 1, 1, 0);
    x = b.concat("/block/Concat", 1, "/block/Concat_output_0", a, c, p);
    x = head(b, x, 10);
    b.result("output/sink_port_0", x);
    b.modelInfo(Models.generatorInfo(TinyModels.class, "tiny_two_branch"));
    return b.build();
  }

  /** One BERT encoder layer with embeddings and pooler, at toy sizes. */
  public static GeneratedModel transformer() {
    return BertBase.build(TRANSFORMER);
  }

  private static Tensor convRelu(IrBuilder b, String module, Tensor x, int out, int k, int stride, int pad) {
    String path = "/" + module.replace('.', '/');
    Tensor y = ResNet50.convBias(b, module, path + "/Conv", x, out, k, stride, pad);
    return b.relu(path + "/Relu", y, path + "/Relu_output_0");
  }

  private static Tensor head(IrBuilder b, Tensor x, int classes) {
    Tensor axes = b.constI64("/avgpool/GlobalAveragePool/axes", new long[] {2}, 2, 3);
    x = b.reduceMean("/avgpool/GlobalAveragePool", x, axes, true, "/avgpool/GlobalAveragePool_output_0");
    x = b.reshape("/Flatten", x, b.constI64Precise("/Flatten/shape", new long[] {2}, 0, -1), true, "/Flatten_output_0");
    long in = x.dim(1);
    x = b.matMul("/fc/Gemm/WithoutBiases", x, b.weight("fc.weight", new long[] {classes, in}, Init.linear(in)),
        false, true, null);
    return b.add("output", x, b.weight("fc.bias", new long[] {1, classes}, Init.small(0.01f)), "output");
  }
}
