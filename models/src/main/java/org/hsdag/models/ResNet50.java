package org.hsdag.models;

import org.hsdag.ir.ElementType;

/**
 * ResNet-50 (torchvision v1.5 layout: stride on the 3×3 conv) at 1×3×224×224, as OpenVINO's ONNX
 * frontend emits it with FP16-compressed weights: BatchNorm folded into a per-channel bias Add,
 * every weight an f16 Const plus a decompression Convert, GlobalAveragePool as ReduceMean,
 * Flatten as Reshape, the classifier as MatMul + Add. Node order, names of compute ops, attributes
 * and {@code .bin} layout follow the real {@code resnet-50.xml}: 396 nodes and 411 edges.
 */
public final class ResNet50 {
  private static final int[] BLOCKS = {3, 4, 6, 3};
  private static final int[] WIDTHS = {64, 128, 256, 512};

  private ResNet50() {}

  /** The ImageNet model (1000 classes). */
  public static GeneratedModel build() {
    return build(1000);
  }

  /** The model with a {@code classes}-way classifier (the real sample was fine-tuned to 30). */
  public static GeneratedModel build(int classes) {
    return build(classes, 224);
  }

  /**
   * The model on square {@code imageSize} inputs (the HSDAG code fed its CNNs 1×3×299×299; the
   * global average pool makes any size from 32 up valid).
   */
  public static GeneratedModel build(int classes, int imageSize) {
    return build(classes, imageSize, "resnet50");
  }

  /** The ImageNet model at the input the HSDAG code timed (1×3×299×299), catalog name {@code resnet50_299}. */
  public static GeneratedModel paperInput() {
    return build(1000, 299, "resnet50_299");
  }

  private static GeneratedModel build(int classes, int imageSize, String name) {
    if (imageSize < 32) {
      throw new IllegalArgumentException("ResNet-50 needs an input of at least 32x32 (got " + imageSize + ")");
    }
    IrBuilder b = new IrBuilder(name);
    Tensor x = b.parameter("input", ElementType.F32, 1, 3, imageSize, imageSize);
    x = convBias(b, "conv1", "/conv1/Conv", x, 64, 7, 2, 3);
    x = b.relu("/relu/Relu", x, "/relu/Relu_output_0");
    x = b.maxPool("/maxpool/MaxPool", x, new long[] {3, 3}, new long[] {2, 2}, new long[] {1, 1},
        new long[] {1, 1}, "/maxpool/MaxPool_output_0");
    for (int s = 0; s < BLOCKS.length; s++) {
      for (int i = 0; i < BLOCKS[s]; i++) {
        x = bottleneck(b, s + 1, i, x, WIDTHS[s], i == 0 ? (s == 0 ? 1 : 2) : 1);
      }
    }
    Tensor axes = b.constI64("/avgpool/GlobalAveragePool/axes", new long[] {2}, 2, 3);
    x = b.reduceMean("/avgpool/GlobalAveragePool", x, axes, true, "/avgpool/GlobalAveragePool_output_0");
    Tensor flat = b.constI64Precise("/Flatten/shape", new long[] {2}, 0, -1);
    x = b.reshape("/Flatten", x, flat, true, "/Flatten_output_0");
    Tensor w = b.weight("fc.weight", new long[] {classes, 2048}, Init.linear(2048));
    x = b.matMul("/fc/Gemm/WithoutBiases", x, w, false, true, null);
    Tensor bias = b.weight("fc.bias", new long[] {1, classes}, Init.small(0.01f));
    x = b.add("output", x, bias, "output");
    b.result("output/sink_port_0", x);
    b.modelInfo(Models.generatorInfo(ResNet50.class, name));
    return b.build();
  }

  private static Tensor bottleneck(IrBuilder b, int stage, int index, Tensor x, int width, int stride) {
    String module = "layer" + stage + "." + index;
    String path = "/layer" + stage + "/" + module;
    Tensor identity = x;
    Tensor y = convBias(b, module + ".conv1", path + "/conv1/Conv", x, width, 1, 1, 0);
    y = b.relu(path + "/relu/Relu", y, path + "/relu/Relu_output_0");
    y = convBias(b, module + ".conv2", path + "/conv2/Conv", y, width, 3, stride, 1);
    y = b.relu(path + "/relu_1/Relu", y, path + "/relu_1/Relu_output_0");
    y = convBias(b, module + ".conv3", path + "/conv3/Conv", y, width * 4, 1, 1, 0);
    if (index == 0) {
      identity = convBias(b, module + ".downsample.0", path + "/downsample/downsample.0/Conv", x, width * 4, 1,
          stride, 0);
    }
    y = b.add(path + "/Add", y, identity, path + "/Add_output_0");
    return b.relu(path + "/relu_2/Relu", y, path + "/relu_2/Relu_output_0");
  }

  /** Conv with BatchNorm folded in: weight, Convolution, per-channel bias Add. */
  static Tensor convBias(IrBuilder b, String module, String onnxName, Tensor x, int out, int k, int stride, int pad) {
    long in = x.dim(1);
    Tensor w = b.weight(module + ".weight", new long[] {out, in, k, k}, Init.he(in * k * k));
    Tensor y = b.conv(onnxName + "/WithoutBiases", x, w, new long[] {stride, stride}, new long[] {pad, pad},
        new long[] {pad, pad});
    Tensor bias = b.weight(module + ".bias", new long[] {1, out, 1, 1}, Init.small(0.05f));
    return b.add(onnxName, y, bias, onnxName + "_output_0");
  }
}
