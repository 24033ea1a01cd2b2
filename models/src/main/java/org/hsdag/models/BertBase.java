package org.hsdag.models;

import org.hsdag.ir.ElementType;

/**
 * BERT encoders (Hugging Face {@code BertModel}: embeddings, encoder layers, pooler) as OpenVINO's
 * PyTorch frontend emits them for static inputs, with FP16-compressed weights: i64 inputs
 * {@code input_ids}, {@code attention_mask}, {@code token_type_ids}; Gather embeddings; LayerNorm as
 * MVN + Multiply + Add; attention as MatMul ({@code transpose_b}) / Divide / Add(mask) / SoftMax /
 * MatMul with Reshape + Transpose head splitting; Gelu (erf) feed-forward; a Tanh pooler on the
 * first token. Shape constants are folded for the static sequence length, as constant folding
 * does once the input shape is fixed. Float constants that fit FP16 (weights, the attention scale,
 * the mask's ones) are f16 + decompression Convert; the mask's float-min stays f32. Outputs: {@code last_hidden_state}, {@code pooler_output}.
 */
public final class BertBase {
  /**
   * Encoder dimensions.
   *
   * @param name model name written to the IR
   * @param vocab word-piece vocabulary size
   * @param hidden hidden size
   * @param layers number of encoder layers
   * @param heads attention heads (hidden must be a multiple)
   * @param intermediate feed-forward width
   * @param maxPositions rows of the position-embedding table
   * @param typeVocab rows of the token-type table
   * @param sequence static sequence length (batch is 1)
   */
  public record Config(String name, int vocab, int hidden, int layers, int heads, int intermediate,
      int maxPositions, int typeVocab, int sequence) {
    public Config {
      if (hidden % heads != 0 || sequence > maxPositions || layers < 1) {
        throw new IllegalArgumentException("inconsistent BERT config " + hidden + "/" + heads + ", seq " + sequence);
      }
    }
  }

  /** bert-base-uncased at batch 1, sequence 128. */
  public static final Config BASE_UNCASED = new Config("bert_base", 30522, 768, 12, 12, 3072, 512, 2, 128);

  /**
   * bert-base-uncased at the input the HSDAG code timed: the tokenised "Hello, my dog is cute" =
   * 8 tokens; catalog name {@code bert_base_8}.
   */
  public static final Config PAPER_8 = new Config("bert_base_8", 30522, 768, 12, 12, 3072, 512, 2, 8);

  private BertBase() {}

  public static GeneratedModel build() {
    return build(BASE_UNCASED);
  }

  public static GeneratedModel build(Config c) {
    IrBuilder b = new IrBuilder(c.name());
    long s = c.sequence();
    long h = c.hidden();
    Tensor ids = b.parameter("input_ids", ElementType.I64, 1, s);
    Tensor mask = b.parameter("attention_mask", ElementType.I64, 1, s);
    Tensor types = b.parameter("token_type_ids", ElementType.I64, 1, s);

    String emb = "__module.embeddings";
    Tensor x = embedding(b, emb + ".word_embeddings", "embeddings.word_embeddings.weight", c.vocab(), h,
        b.convert(emb + ".word_embeddings/aten::embedding/Convert", ids, ElementType.I32, null));
    Tensor t = embedding(b, emb + ".token_type_embeddings", "embeddings.token_type_embeddings.weight", c.typeVocab(),
        h, b.convert(emb + ".token_type_embeddings/aten::embedding/Convert", types, ElementType.I32, null));
    x = b.add(emb + "/aten::add/Add", x, t, null);
    long[] positions = new long[(int) s];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
    Tensor posIds = b.constI32(emb + "/aten::slice/Slice", new long[] {1, s}, positions);
    Tensor p = embedding(b, emb + ".position_embeddings", "embeddings.position_embeddings.weight", c.maxPositions(),
        h, posIds);
    x = b.add(emb + "/aten::add_/Add", x, p, null);
    x = layerNorm(b, emb + ".LayerNorm", "embeddings.LayerNorm", x);

    Tensor additiveMask = extendedMask(b, mask);
    for (int l = 0; l < c.layers(); l++) {
      x = encoderLayer(b, c, l, x, additiveMask);
    }
    Tensor hidden = x;

    String pool = "__module.pooler";
    Tensor first = b.gather(pool + "/aten::select/Gather", hidden,
        b.constI64(pool + "/aten::select/Constant", new long[0], 0),
        b.constI64(pool + "/aten::select/Constant_1", new long[0], 1), null);
    Tensor y = linear(b, pool + ".dense", "pooler.dense", first, h, h, 2);
    y = b.tanh(pool + ".activation/aten::tanh/Tanh", y, "pooler_output");
    b.result("last_hidden_state/sink_port_0", hidden);
    b.result("pooler_output/sink_port_0", y);
    b.modelInfo(Models.generatorInfo(BertBase.class, c.name()));
    return b.build();
  }

  static Tensor embedding(IrBuilder b, String module, String weight, long rows, long h, Tensor indices) {
    Tensor table = b.weight(weight, new long[] {rows, h}, Init.small(0.05f));
    Tensor axis = b.constI32(module + "/aten::embedding/Constant", new long[0], 0);
    return b.gather(module + "/aten::embedding/Gather", table, indices, axis, null);
  }

  /** LayerNorm over the last axis: MVN, then scale and shift. */
  static Tensor layerNorm(IrBuilder b, String module, String weight, Tensor x) {
    Tensor axes = b.constI32(module + "/aten::layer_norm/Multiply", new long[] {1}, -1);
    Tensor n = b.mvn(module + "/aten::layer_norm/MVN", x, axes, "9.999999960041972e-13", null);
    long h = x.dim(-1);
    Tensor gamma = b.weight(weight + ".weight", new long[] {1, 1, h}, Init.aroundOne(0.05f));
    n = b.multiply(module + "/aten::layer_norm/Multiply_1", n, gamma, null);
    Tensor beta = b.weight(weight + ".bias", new long[] {1, 1, h}, Init.small(0.02f));
    return b.add(module + "/aten::layer_norm/Add", n, beta, null);
  }

  /** {@code aten::linear}: MatMul with the [out, in] weight transposed, then the bias Add. */
  private static Tensor linear(IrBuilder b, String module, String weight, Tensor x, long in, long out, int rank) {
    Tensor w = b.weight(weight + ".weight", new long[] {out, in}, Init.linear(in));
    Tensor y = b.matMul(module + "/aten::linear/MatMul", x, w, false, true, null);
    long[] biasShape = new long[rank];
    java.util.Arrays.fill(biasShape, 1);
    biasShape[rank - 1] = out;
    Tensor bias = b.weight(weight + ".bias", biasShape, Init.small(0.02f));
    return b.add(module + "/aten::linear/Add", y, bias, null);
  }

  /** (1 - mask) × float-min, broadcast over heads and query positions: [1, 1, 1, seq]. */
  private static Tensor extendedMask(IrBuilder b, Tensor mask) {
    String m = "__module";
    Tensor u = b.unsqueeze(m + "/aten::unsqueeze/Unsqueeze", mask, b.constI64(m + "/aten::unsqueeze/Constant",
        new long[0], 1), null);
    u = b.unsqueeze(m + "/aten::unsqueeze/Unsqueeze_1", u, b.constI64(m + "/aten::unsqueeze/Constant_1",
        new long[0], 2), null);
    Tensor f = b.convert(m + "/aten::to/Convert", u, ElementType.F32, null);
    long[] one4 = {1, 1, 1, 1};
    f = b.multiply(m + "/aten::rsub/Multiply", f, b.constF16(m + "/aten::rsub/Constant", one4, 1f), null);
    f = b.subtract(m + "/aten::rsub/Subtract", b.constF16(m + "/aten::rsub/Constant_1", one4, 1f), f, null);
    // Float-min does not fit FP16, so OpenVINO's compression keeps this constant in f32.
    return b.multiply(m + "/aten::mul/Multiply", f, b.constF32(m + "/aten::mul/Constant", one4, -Float.MAX_VALUE),
        null);
  }

  private static Tensor encoderLayer(IrBuilder b, Config c, int l, Tensor x, Tensor mask) {
    String mod = "__module.encoder.layer." + l;
    String w = "encoder.layer." + l;
    String self = mod + ".attention.self";
    long s = c.sequence();
    long h = c.hidden();
    long heads = c.heads();
    long dh = h / heads;
    Tensor q = heads(b, self, linear(b, self + ".query", w + ".attention.self.query", x, h, h, 3), "", s, heads, dh);
    Tensor k = heads(b, self, linear(b, self + ".key", w + ".attention.self.key", x, h, h, 3), "_1", s, heads, dh);
    Tensor scores = b.matMul(self + "/aten::matmul/MatMul", q, k, false, true, null);
    scores = b.divide(self + "/aten::div/Divide", scores,
        b.constF16(self + "/aten::div/Constant", new long[] {1, 1, 1, 1}, (float) Math.sqrt((double) dh)), null);
    scores = b.add(self + "/aten::add/Add", scores, mask, null);
    Tensor probs = b.softmax(self + "/aten::softmax/Softmax", scores, -1, null);
    Tensor v = heads(b, self, linear(b, self + ".value", w + ".attention.self.value", x, h, h, 3), "_2", s, heads, dh);
    Tensor ctx = b.matMul(self + "/aten::matmul/MatMul_1", probs, v, false, false, null);
    ctx = b.transpose(self + "/aten::permute/Transpose_3", ctx,
        b.constI64(self + "/aten::permute/Constant_3", new long[] {4}, 0, 2, 1, 3), null);
    ctx = b.reshape(self + "/aten::view/Reshape_3", ctx,
        b.constI64(self + "/prim::ListConstruct/Concat_3", new long[] {3}, 1, s, h), true, null);
    Tensor att = linear(b, mod + ".attention.output.dense", w + ".attention.output.dense", ctx, h, h, 3);
    att = b.add(mod + ".attention.output/aten::add/Add", att, x, null);
    att = layerNorm(b, mod + ".attention.output.LayerNorm", w + ".attention.output.LayerNorm", att);
    Tensor ff = linear(b, mod + ".intermediate.dense", w + ".intermediate.dense", att, h, c.intermediate(), 3);
    ff = b.gelu(mod + ".intermediate.intermediate_act_fn/aten::gelu/Gelu", ff, null);
    ff = linear(b, mod + ".output.dense", w + ".output.dense", ff, c.intermediate(), h, 3);
    ff = b.add(mod + ".output/aten::add/Add", ff, att, null);
    return layerNorm(b, mod + ".output.LayerNorm", w + ".output.LayerNorm", ff);
  }

  /** [1, s, h] → [1, heads, s, dh]: view, then permute(0, 2, 1, 3). */
  static Tensor heads(IrBuilder b, String self, Tensor x, String sfx, long s, long heads, long dh) {
    Tensor r = b.reshape(self + "/aten::view/Reshape" + sfx, x,
        b.constI64(self + "/prim::ListConstruct/Concat" + sfx, new long[] {4}, 1, s, heads, dh), true, null);
    return b.transpose(self + "/aten::permute/Transpose" + sfx, r,
        b.constI64(self + "/aten::permute/Constant" + sfx, new long[] {4}, 0, 2, 1, 3), null);
  }
}
