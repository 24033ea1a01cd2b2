package org.hsdag.models;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/**
 * A small T5-decoder-like IR with dynamic inputs, as an exporter writes one: {@code input_ids [?,?]}
 * (i64) and a fully dynamic {@code encoder_hidden_states [?,?,?]} (f32) whose last axis only the
 * 1024-wide key and value projections of the cross-attention fix. Built static with sentinel sizes
 * (batch 5, decoder length 6, encoder length 7) by {@link IrBuilder}, then every sentinel dim (and
 * the encoder's hidden axis up to the projections) written as {@code ?}, as OpenVINO's own shape
 * inference leaves them with dynamic inputs; reshape patterns use {@code special_zero} so the IR
 * stays valid at any size.
 */
final class DynamicDecoderIr {
  static final long ENCODER_HIDDEN = 1024;
  private static final long D_MODEL = 128;
  private static final long HEADS = 4;
  private static final long HEAD = D_MODEL / HEADS;
  private static final long VOCAB = 100;
  private static final Set<Long> SENTINELS = Set.of(5L, 6L, 7L);
  /** The nodes whose outputs carry the encoder's hidden axis dynamic (the input and its scaling). */
  private static final Set<String> HIDDEN_DYNAMIC = Set.of("encoder_hidden_states", "/cross/scale/Mul");

  private DynamicDecoderIr() {}

  /** The model (dynamic IR and its weights). */
  static GeneratedModel build() {
    GeneratedModel fixed = fixed(5, 6, 7);
    OpGraph g = fixed.graph();
    OpGraph.Builder out = OpGraph.builder().setName(g.name()).setIrVersion(g.irVersion());
    g.modelInfoXml().forEach(out::addModelInfoXml);
    Map<Integer, List<long[]>> outDims = new HashMap<>();
    for (OpNode n : g.nodes()) {
      List<long[]> dims = new ArrayList<>();
      for (Port p : n.outputs()) {
        dims.add(HIDDEN_DYNAMIC.contains(n.name()) ? minusOnes(p.rank()) : dynamic(p.dims()));
      }
      outDims.put(n.index(), dims);
    }
    Map<String, long[]> inDims = new HashMap<>();
    for (Edge e : g.edges()) {
      inDims.put(e.target() + ":" + e.targetInput(), outDims.get(e.source()).get(e.sourceOutput()));
    }
    Map<Integer, long[]> values = new HashMap<>();
    for (OpNode n : g.nodes()) {
      List<Port> ins = new ArrayList<>();
      for (int k = 0; k < n.inputs().size(); k++) {
        Port p = n.inputs().get(k);
        ins.add(new Port(p.id(), p.elementType(), inDims.get(n.index() + ":" + k), p.names(), p.rtInfoXml()));
      }
      List<Port> outs = new ArrayList<>();
      for (int k = 0; k < n.outputs().size(); k++) {
        Port p = n.outputs().get(k);
        outs.add(new Port(p.id(), p.elementType(), outDims.get(n.index()).get(k), p.names(), p.rtInfoXml()));
      }
      Map<String, String> attributes = new LinkedHashMap<>(n.attributes());
      if (n.isParameter()) {
        attributes.put("shape", n.name().equals("input_ids") ? "?,?" : "?,?,?");
      }
      out.addNode(new OpNode(n.index(), n.id(), n.name(), n.type(), n.version(), attributes, ins, outs,
          n.rtInfoXml(), n.extraXml()));
      if (fixed.integerValues(n.index()) != null) {
        values.put(n.index(), fixed.integerValues(n.index()));
      }
    }
    g.edges().forEach(out::addEdge);
    return new GeneratedModel(out.build(), fixed.blobs(), values);
  }

  private static long[] dynamic(long[] dims) {
    long[] d = dims.clone();
    for (int a = 0; a < d.length; a++) {
      if (SENTINELS.contains(d[a])) {
        d[a] = -1;
      }
    }
    return d;
  }

  private static long[] minusOnes(int rank) {
    long[] d = new long[rank];
    java.util.Arrays.fill(d, -1);
    return d;
  }

  /** The same model, static: batch {@code batch}, {@code tokens} decoder and {@code encoded} encoder positions. */
  static GeneratedModel fixed(long batch, long tokens, long encoded) {
    IrBuilder b = new IrBuilder("dynamic_decoder");
    Tensor ids = b.parameter("input_ids", ElementType.I64, batch, tokens);
    Tensor enc = b.parameter("encoder_hidden_states", ElementType.F32, batch, encoded, ENCODER_HIDDEN);
    Tensor table = b.weight("embed_tokens.weight", new long[] {VOCAB, D_MODEL}, Init.small(0.1f));
    Tensor x = b.gather("/embed/Gather", table, ids, b.constI64("axis0", new long[0], 0), "/embed/Gather_output_0");
    Tensor perm = b.constI64("perm0213", new long[] {4}, 0, 2, 1, 3);
    Tensor heads = b.constI64("heads", new long[] {4}, 0, 0, HEADS, HEAD);
    Tensor merge = b.constI64("merge", new long[] {3}, 0, 0, D_MODEL);
    // Self-attention over the decoder tokens.
    Tensor q = split(b, "self.q", x, D_MODEL, heads, perm);
    Tensor k = split(b, "self.k", x, D_MODEL, heads, perm);
    Tensor v = split(b, "self.v", x, D_MODEL, heads, perm);
    x = attention(b, "self", q, k, v, x, perm, merge);
    // Cross-attention: keys and values from the encoder's hidden states, 1024 wide.
    Tensor scaled = b.multiply("/cross/scale/Mul", enc, b.constF32("enc_scale", new long[] {1}, 0.5f),
        "/cross/scale/Mul_output_0");
    q = split(b, "cross.q", x, D_MODEL, heads, perm);
    k = split(b, "cross.k", scaled, ENCODER_HIDDEN, heads, perm);
    v = split(b, "cross.v", scaled, ENCODER_HIDDEN, heads, perm);
    x = attention(b, "cross", q, k, v, x, perm, merge);
    x = b.mvn("/final_norm/MVN", x, b.constI64("norm_axes", new long[] {1}, 2), "1e-06", "/final_norm/MVN_output_0");
    Tensor lm = b.weight("lm_head.weight", new long[] {D_MODEL, VOCAB}, Init.linear(D_MODEL));
    x = b.matMul("/lm_head/MatMul", x, lm, false, false, "logits");
    b.result("logits/sink_port_0", x);
    return b.build();
  }

  /** {@code x · W} split into heads: {@code [batch, heads, length, head]}. */
  private static Tensor split(IrBuilder b, String name, Tensor x, long in, Tensor heads, Tensor perm) {
    Tensor w = b.weight(name + ".weight", new long[] {in, D_MODEL}, Init.linear(in));
    Tensor y = b.matMul("/" + name + "/MatMul", x, w, false, false, "/" + name + "/MatMul_output_0");
    y = b.reshape("/" + name + "/Reshape", y, heads, true, "/" + name + "/Reshape_output_0");
    return b.transpose("/" + name + "/Transpose", y, perm, "/" + name + "/Transpose_output_0");
  }

  /** Scaled scores, softmax, context merged back to {@code [batch, length, d_model]}, projected, plus the residual. */
  private static Tensor attention(IrBuilder b, String name, Tensor q, Tensor k, Tensor v, Tensor residual,
      Tensor perm, Tensor merge) {
    String p = "/" + name + "/";
    Tensor s = b.matMul(p + "scores/MatMul", q, k, false, true, p + "scores/MatMul_output_0");
    s = b.multiply(p + "scores/Mul", s, b.constF32(name + ".scale", new long[] {}, 0.125f), p + "scores/Mul_output_0");
    s = b.softmax(p + "Softmax", s, 3, p + "Softmax_output_0");
    Tensor c = b.matMul(p + "context/MatMul", s, v, false, false, p + "context/MatMul_output_0");
    c = b.transpose(p + "context/Transpose", c, perm, p + "context/Transpose_output_0");
    c = b.reshape(p + "context/Reshape", c, merge, true, p + "context/Reshape_output_0");
    Tensor w = b.weight(name + ".o.weight", new long[] {D_MODEL, D_MODEL}, Init.linear(D_MODEL));
    c = b.matMul(p + "o/MatMul", c, w, false, false, p + "o/MatMul_output_0");
    return b.add(p + "residual/Add", c, residual, p + "residual/Add_output_0");
  }
}
