package org.hsdag.models;

import org.hsdag.ir.ElementType;

/**
 * A decoder-only transformer (GPT-style pre-LayerNorm blocks with Llama-style bias-free projections
 * and a gated feed-forward) at one static sequence length, built with the ops the BERT builder uses:
 * Gather token and learned position embeddings, causal self-attention (MatMul, Divide, Add of a
 * constant causal mask, SoftMax, MatMul), a Gelu-gated feed-forward (gelu(x Wg) * (x Wu) then Wd),
 * a final LayerNorm and an untied LM head producing logits for every position. Weights are f16 +
 * decompression Convert. Rotary embeddings are replaced by learned positions, so no op beyond the
 * builder's set is needed; the weight sizes are those of the given dimensions.
 */
public final class DecoderModel {
  /**
   * Decoder dimensions.
   *
   * @param name model name written to the IR
   * @param vocab vocabulary size (embedding rows and LM-head outputs)
   * @param hidden hidden size
   * @param layers number of decoder blocks
   * @param heads attention heads (hidden must be a multiple)
   * @param intermediate width of the gated feed-forward
   * @param maxPositions rows of the position-embedding table
   * @param sequence static sequence length (batch is 1)
   */
  public record Config(String name, int vocab, int hidden, int layers, int heads, int intermediate,
      int maxPositions, int sequence) {
    public Config {
      if (hidden % heads != 0 || sequence > maxPositions || layers < 1 || sequence < 1) {
        throw new IllegalArgumentException("inconsistent decoder config " + hidden + "/" + heads + ", seq " + sequence);
      }
    }

    /** Number of learned parameters (all FP16 in the IR). */
    public long parameters() {
      long h = hidden;
      long perLayer = 4 * h * h + 3 * h * intermediate + 4 * h;
      return 2L * vocab * h + (long) maxPositions * h + layers * perLayer + 2 * h;
    }
  }

  /**
   * 32 blocks, hidden 4096, 32 heads, feed-forward 14336, a 128,256-token vocabulary (Llama-3-8B's
   * widths): 8.85 B parameters, 17.7 GB of FP16 weights, more than a 16 GB dGPU holds. Prefill of
   * 128 tokens.
   */
  public static final Config DECODER_9B = new Config("decoder_9b", 128_256, 4096, 32, 32, 14_336, 4096, 128);

  /** The same graph at toy sizes (2 blocks, hidden 64), small enough to run on real OpenVINO in tests. */
  public static final Config TINY = new Config("tiny_decoder", 256, 64, 2, 4, 128, 32, 16);

  private DecoderModel() {}

  public static GeneratedModel build(Config c) {
    IrBuilder b = new IrBuilder(c.name());
    long s = c.sequence();
    long h = c.hidden();
    Tensor ids = b.parameter("input_ids", ElementType.I64, 1, s);
    String m = "__module.model";
    Tensor tokens = BertBase.embedding(b, m + ".embed_tokens", "model.embed_tokens.weight", c.vocab(), h,
        b.convert(m + ".embed_tokens/aten::embedding/Convert", ids, ElementType.I32, null));
    long[] positions = new long[(int) s];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
    Tensor posIds = b.constI32(m + "/aten::arange/Range", new long[] {1, s}, positions);
    Tensor positionsEmbedded = BertBase.embedding(b, m + ".embed_positions", "model.embed_positions.weight",
        c.maxPositions(), h, posIds);
    Tensor x = b.add(m + "/aten::add/Add", tokens, positionsEmbedded, null);
    Tensor mask = b.constF32(m + "/causal_mask", new long[] {1, 1, s, s}, causalMask((int) s));
    for (int l = 0; l < c.layers(); l++) {
      x = block(b, c, l, x, mask);
    }
    x = BertBase.layerNorm(b, m + ".norm", "model.norm", x);
    Tensor logits = linear(b, "__module.lm_head", "lm_head", x, h, c.vocab());
    b.result("logits/sink_port_0", logits);
    b.modelInfo(Models.generatorInfo(DecoderModel.class, c.name()));
    return b.build();
  }

  /** Additive causal mask: 0 where a position may attend, float-min above the diagonal (f32: it does not fit FP16). */
  private static float[] causalMask(int s) {
    float[] v = new float[s * s];
    for (int i = 0; i < s; i++) {
      for (int j = i + 1; j < s; j++) {
        v[i * s + j] = -Float.MAX_VALUE;
      }
    }
    return v;
  }

  /** A bias-free {@code aten::linear}: MatMul with the [out, in] weight transposed. */
  private static Tensor linear(IrBuilder b, String module, String weight, Tensor x, long in, long out) {
    Tensor w = b.weight(weight + ".weight", new long[] {out, in}, Init.linear(in));
    return b.matMul(module + "/aten::linear/MatMul", x, w, false, true, null);
  }

  private static Tensor block(IrBuilder b, Config c, int l, Tensor x, Tensor mask) {
    String mod = "__module.model.layers." + l;
    String w = "model.layers." + l;
    String att = mod + ".self_attn";
    long s = c.sequence();
    long h = c.hidden();
    long heads = c.heads();
    long dh = h / heads;
    Tensor n = BertBase.layerNorm(b, mod + ".input_layernorm", w + ".input_layernorm", x);
    Tensor q = BertBase.heads(b, att, linear(b, att + ".q_proj", w + ".self_attn.q_proj", n, h, h), "", s, heads, dh);
    Tensor k = BertBase.heads(b, att, linear(b, att + ".k_proj", w + ".self_attn.k_proj", n, h, h), "_1", s, heads, dh);
    Tensor v = BertBase.heads(b, att, linear(b, att + ".v_proj", w + ".self_attn.v_proj", n, h, h), "_2", s, heads, dh);
    Tensor scores = b.matMul(att + "/aten::matmul/MatMul", q, k, false, true, null);
    scores = b.divide(att + "/aten::div/Divide", scores,
        b.constF16(att + "/aten::div/Constant", new long[] {1, 1, 1, 1}, (float) Math.sqrt((double) dh)), null);
    scores = b.add(att + "/aten::add/Add", scores, mask, null);
    Tensor probs = b.softmax(att + "/aten::softmax/Softmax", scores, -1, null);
    Tensor ctx = b.matMul(att + "/aten::matmul/MatMul_1", probs, v, false, false, null);
    ctx = b.transpose(att + "/aten::permute/Transpose_3", ctx,
        b.constI64(att + "/aten::permute/Constant_3", new long[] {4}, 0, 2, 1, 3), null);
    ctx = b.reshape(att + "/aten::view/Reshape_3", ctx,
        b.constI64(att + "/prim::ListConstruct/Concat_3", new long[] {3}, 1, s, h), true, null);
    x = b.add(mod + "/aten::add/Add", x, linear(b, att + ".o_proj", w + ".self_attn.o_proj", ctx, h, h), null);

    String mlp = mod + ".mlp";
    n = BertBase.layerNorm(b, mod + ".post_attention_layernorm", w + ".post_attention_layernorm", x);
    Tensor gate = b.gelu(mlp + ".act_fn/aten::gelu/Gelu",
        linear(b, mlp + ".gate_proj", w + ".mlp.gate_proj", n, h, c.intermediate()), null);
    Tensor up = linear(b, mlp + ".up_proj", w + ".mlp.up_proj", n, h, c.intermediate());
    Tensor gated = b.multiply(mlp + "/aten::mul/Multiply", gate, up, null);
    return b.add(mod + "/aten::add/Add_1", x,
        linear(b, mlp + ".down_proj", w + ".mlp.down_proj", gated, c.intermediate(), h), null);
  }
}
