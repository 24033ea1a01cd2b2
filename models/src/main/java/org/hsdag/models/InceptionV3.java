package org.hsdag.models;

import org.hsdag.ir.ElementType;

/**
 * Inception-V3 (torchvision layout, eval mode, {@code transform_input=True} as for the pretrained
 * weights, no auxiliary head) at 1×3×299×299, as OpenVINO's ONNX frontend emits it with FP16
 * weights — the same conversion path as the real ResNet-50 sample: each BasicConv2d is an f16
 * weight + Convert, Convolution, folded-BatchNorm bias Add and ReLU; pooling inside the blocks is
 * AvgPool with count_include_pad; the head is ReduceMean, Reshape, MatMul + Add. The input
 * re-normalisation is Gather/Unsqueeze/Multiply/Add per channel and a Concat; its scalar factors
 * are FP16-compressed like every float constant that fits FP16.
 */
public final class InceptionV3 {
  private static final long[] K3 = {3, 3};
  private static final long[] S1 = {1, 1};
  private static final long[] S2 = {2, 2};
  private static final long[] P0 = {0, 0};
  private static final long[] P1 = {1, 1};

  private InceptionV3() {}

  public static GeneratedModel build() {
    IrBuilder b = new IrBuilder("inception_v3");
    Tensor x = b.parameter("input", ElementType.F32, 1, 3, 299, 299);
    x = transformInput(b, x);
    x = conv(b, "Conv2d_1a_3x3", x, 32, 3, 3, 2, 0, 0);
    x = conv(b, "Conv2d_2a_3x3", x, 32, 3, 3, 1, 0, 0);
    x = conv(b, "Conv2d_2b_3x3", x, 64, 3, 3, 1, 1, 1);
    x = b.maxPool("/maxpool1/MaxPool", x, K3, S2, P0, P0, "/maxpool1/MaxPool_output_0");
    x = conv(b, "Conv2d_3b_1x1", x, 80, 1, 1, 1, 0, 0);
    x = conv(b, "Conv2d_4a_3x3", x, 192, 3, 3, 1, 0, 0);
    x = b.maxPool("/maxpool2/MaxPool", x, K3, S2, P0, P0, "/maxpool2/MaxPool_output_0");
    x = inceptionA(b, "Mixed_5b", x, 32);
    x = inceptionA(b, "Mixed_5c", x, 64);
    x = inceptionA(b, "Mixed_5d", x, 64);
    x = inceptionB(b, "Mixed_6a", x);
    x = inceptionC(b, "Mixed_6b", x, 128);
    x = inceptionC(b, "Mixed_6c", x, 160);
    x = inceptionC(b, "Mixed_6d", x, 160);
    x = inceptionC(b, "Mixed_6e", x, 192);
    x = inceptionD(b, "Mixed_7a", x);
    x = inceptionE(b, "Mixed_7b", x);
    x = inceptionE(b, "Mixed_7c", x);
    Tensor axes = b.constI64("/avgpool/GlobalAveragePool/axes", new long[] {2}, 2, 3);
    x = b.reduceMean("/avgpool/GlobalAveragePool", x, axes, true, "/avgpool/GlobalAveragePool_output_0");
    Tensor flat = b.constI64Precise("/Flatten/shape", new long[] {2}, 0, -1);
    x = b.reshape("/Flatten", x, flat, true, "/Flatten_output_0");
    Tensor w = b.weight("fc.weight", new long[] {1000, 2048}, Init.linear(2048));
    x = b.matMul("/fc/Gemm/WithoutBiases", x, w, false, true, null);
    Tensor bias = b.weight("fc.bias", new long[] {1, 1000}, Init.small(0.01f));
    x = b.add("output", x, bias, "output");
    b.result("output/sink_port_0", x);
    b.modelInfo(Models.generatorInfo(InceptionV3.class, "inception_v3"));
    return b.build();
  }

  /** torchvision's {@code _transform_input}: ImageNet normalisation re-mapped to the (x-0.5)/0.5 one. */
  private static Tensor transformInput(IrBuilder b, Tensor x) {
    float[] std = {0.229f, 0.224f, 0.225f};
    float[] mean = {0.485f, 0.456f, 0.406f};
    Tensor[] ch = new Tensor[3];
    for (int c = 0; c < 3; c++) {
      String sfx = c == 0 ? "" : "_" + c;
      Tensor idx = b.constI64("/Gather" + sfx + "/indices", new long[0], c);
      Tensor axis = b.constI64("/Gather" + sfx + "/axis", new long[0], 1);
      Tensor g = b.gather("/Gather" + sfx, x, idx, axis, "/Gather" + sfx + "_output_0");
      Tensor ax = b.constI64("/Unsqueeze" + sfx + "/axes", new long[] {1}, 1);
      Tensor u = b.unsqueeze("/Unsqueeze" + sfx, g, ax, "/Unsqueeze" + sfx + "_output_0");
      Tensor scale = b.constF16("/Mul" + sfx + "/B", new long[0], std[c] / 0.5f);
      Tensor m = b.multiply("/Mul" + sfx, u, scale, "/Mul" + sfx + "_output_0");
      Tensor shift = b.constF16("/Add" + sfx + "/B", new long[0], (mean[c] - 0.5f) / 0.5f);
      ch[c] = b.add("/Add" + sfx, m, shift, "/Add" + sfx + "_output_0");
    }
    return b.concat("/Concat", 1, "/Concat_output_0", ch);
  }

  /** BasicConv2d: conv (BatchNorm folded into the bias) and ReLU. */
  private static Tensor conv(IrBuilder b, String module, Tensor x, int out, int kh, int kw, int stride, int ph,
      int pw) {
    String path = "/" + module.replace('.', '/');
    long in = x.dim(1);
    Tensor w = b.weight(module + ".conv.weight", new long[] {out, in, kh, kw}, Init.he(in * kh * kw));
    Tensor y = b.conv(path + "/conv/Conv/WithoutBiases", x, w, new long[] {stride, stride}, new long[] {ph, pw},
        new long[] {ph, pw});
    Tensor bias = b.weight(module + ".conv.bias", new long[] {1, out, 1, 1}, Init.small(0.05f));
    y = b.add(path + "/conv/Conv", y, bias, path + "/conv/Conv_output_0");
    return b.relu(path + "/Relu", y, path + "/Relu_output_0");
  }

  private static Tensor avgPool3(IrBuilder b, String block, Tensor x) {
    return b.avgPool("/" + block + "/AveragePool", x, K3, S1, P1, P1, false, "/" + block + "/AveragePool_output_0");
  }

  private static Tensor inceptionA(IrBuilder b, String m, Tensor x, int poolFeatures) {
    Tensor b1 = conv(b, m + ".branch1x1", x, 64, 1, 1, 1, 0, 0);
    Tensor b5 = conv(b, m + ".branch5x5_1", x, 48, 1, 1, 1, 0, 0);
    b5 = conv(b, m + ".branch5x5_2", b5, 64, 5, 5, 1, 2, 2);
    Tensor b3 = conv(b, m + ".branch3x3dbl_1", x, 64, 1, 1, 1, 0, 0);
    b3 = conv(b, m + ".branch3x3dbl_2", b3, 96, 3, 3, 1, 1, 1);
    b3 = conv(b, m + ".branch3x3dbl_3", b3, 96, 3, 3, 1, 1, 1);
    Tensor bp = conv(b, m + ".branch_pool", avgPool3(b, m, x), poolFeatures, 1, 1, 1, 0, 0);
    return b.concat("/" + m + "/Concat", 1, "/" + m + "/Concat_output_0", b1, b5, b3, bp);
  }

  private static Tensor inceptionB(IrBuilder b, String m, Tensor x) {
    Tensor b3 = conv(b, m + ".branch3x3", x, 384, 3, 3, 2, 0, 0);
    Tensor bd = conv(b, m + ".branch3x3dbl_1", x, 64, 1, 1, 1, 0, 0);
    bd = conv(b, m + ".branch3x3dbl_2", bd, 96, 3, 3, 1, 1, 1);
    bd = conv(b, m + ".branch3x3dbl_3", bd, 96, 3, 3, 2, 0, 0);
    Tensor bp = b.maxPool("/" + m + "/MaxPool", x, K3, S2, P0, P0, "/" + m + "/MaxPool_output_0");
    return b.concat("/" + m + "/Concat", 1, "/" + m + "/Concat_output_0", b3, bd, bp);
  }

  private static Tensor inceptionC(IrBuilder b, String m, Tensor x, int c7) {
    Tensor b1 = conv(b, m + ".branch1x1", x, 192, 1, 1, 1, 0, 0);
    Tensor b7 = conv(b, m + ".branch7x7_1", x, c7, 1, 1, 1, 0, 0);
    b7 = conv(b, m + ".branch7x7_2", b7, c7, 1, 7, 1, 0, 3);
    b7 = conv(b, m + ".branch7x7_3", b7, 192, 7, 1, 1, 3, 0);
    Tensor bd = conv(b, m + ".branch7x7dbl_1", x, c7, 1, 1, 1, 0, 0);
    bd = conv(b, m + ".branch7x7dbl_2", bd, c7, 7, 1, 1, 3, 0);
    bd = conv(b, m + ".branch7x7dbl_3", bd, c7, 1, 7, 1, 0, 3);
    bd = conv(b, m + ".branch7x7dbl_4", bd, c7, 7, 1, 1, 3, 0);
    bd = conv(b, m + ".branch7x7dbl_5", bd, 192, 1, 7, 1, 0, 3);
    Tensor bp = conv(b, m + ".branch_pool", avgPool3(b, m, x), 192, 1, 1, 1, 0, 0);
    return b.concat("/" + m + "/Concat", 1, "/" + m + "/Concat_output_0", b1, b7, bd, bp);
  }

  private static Tensor inceptionD(IrBuilder b, String m, Tensor x) {
    Tensor b3 = conv(b, m + ".branch3x3_1", x, 192, 1, 1, 1, 0, 0);
    b3 = conv(b, m + ".branch3x3_2", b3, 320, 3, 3, 2, 0, 0);
    Tensor b7 = conv(b, m + ".branch7x7x3_1", x, 192, 1, 1, 1, 0, 0);
    b7 = conv(b, m + ".branch7x7x3_2", b7, 192, 1, 7, 1, 0, 3);
    b7 = conv(b, m + ".branch7x7x3_3", b7, 192, 7, 1, 1, 3, 0);
    b7 = conv(b, m + ".branch7x7x3_4", b7, 192, 3, 3, 2, 0, 0);
    Tensor bp = b.maxPool("/" + m + "/MaxPool", x, K3, S2, P0, P0, "/" + m + "/MaxPool_output_0");
    return b.concat("/" + m + "/Concat", 1, "/" + m + "/Concat_output_0", b3, b7, bp);
  }

  private static Tensor inceptionE(IrBuilder b, String m, Tensor x) {
    Tensor b1 = conv(b, m + ".branch1x1", x, 320, 1, 1, 1, 0, 0);
    Tensor b3 = conv(b, m + ".branch3x3_1", x, 384, 1, 1, 1, 0, 0);
    Tensor b3a = conv(b, m + ".branch3x3_2a", b3, 384, 1, 3, 1, 0, 1);
    Tensor b3b = conv(b, m + ".branch3x3_2b", b3, 384, 3, 1, 1, 1, 0);
    Tensor b3cat = b.concat("/" + m + "/Concat", 1, "/" + m + "/Concat_output_0", b3a, b3b);
    Tensor bd = conv(b, m + ".branch3x3dbl_1", x, 448, 1, 1, 1, 0, 0);
    bd = conv(b, m + ".branch3x3dbl_2", bd, 384, 3, 3, 1, 1, 1);
    Tensor bda = conv(b, m + ".branch3x3dbl_3a", bd, 384, 1, 3, 1, 0, 1);
    Tensor bdb = conv(b, m + ".branch3x3dbl_3b", bd, 384, 3, 1, 1, 1, 0);
    Tensor bdcat = b.concat("/" + m + "/Concat_1", 1, "/" + m + "/Concat_1_output_0", bda, bdb);
    Tensor bp = conv(b, m + ".branch_pool", avgPool3(b, m, x), 192, 1, 1, 1, 0, 0);
    return b.concat("/" + m + "/Concat_2", 1, "/" + m + "/Concat_2_output_0", b1, b3cat, bdcat, bp);
  }
}
