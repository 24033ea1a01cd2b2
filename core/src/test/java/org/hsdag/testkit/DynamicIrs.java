package org.hsdag.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.SyntheticWeights;

/**
 * Small IR files with dynamic inputs, written as OpenVINO serialises them (IR v11, {@code -1} for
 * a dynamic dimension, every port's dims as OpenVINO's shape inference gives them), with stand-in
 * weights: models whose input sizes hsdag must fix before OpenVINO compiles.
 */
public final class DynamicIrs {
  private DynamicIrs() {}

  /** One layer's XML and the bytes its Const data takes. */
  private static final class Layers {
    private final StringBuilder xml = new StringBuilder();
    private final List<String> edges = new ArrayList<>();
    private long offset;
    private int id;
    /** Each layer's output precision, so a consumer's input port says what it reads. */
    private final java.util.Map<Integer, String> precisions = new java.util.HashMap<>();

    int parameter(String name, String type, long... dims) {
      return parameter(name, null, type, dims);
    }

    /** A Parameter whose tensor is named {@code tensor} (null: as the op). */
    int parameter(String name, String tensor, String type, long... dims) {
      String prec = type.equals("i64") ? "I64" : "FP32";
      precisions.put(id, prec);
      xml.append("<layer id=\"").append(id).append("\" name=\"").append(name)
          .append("\" type=\"Parameter\" version=\"opset1\"><data shape=\"").append(shape(dims))
          .append("\" element_type=\"").append(type).append("\"/><output>")
          .append(port(0, prec, dims, tensor == null ? name : tensor))
          .append("</output></layer>\n");
      return id++;
    }

    int constant(String name, String type, long... dims) {
      long count = 1;
      for (long d : dims) {
        count *= d;
      }
      long size = count * (type.equals("i64") ? 8 : 4);
      String prec = type.equals("i64") ? "I64" : "FP32";
      precisions.put(id, prec);
      xml.append("<layer id=\"").append(id).append("\" name=\"").append(name)
          .append("\" type=\"Const\" version=\"opset1\"><data element_type=\"").append(type).append("\" shape=\"")
          .append(shape(dims).replace(",", ", ")).append("\" offset=\"").append(offset).append("\" size=\"")
          .append(size).append("\"/><output>").append(port(0, prec, dims, null)).append("</output></layer>\n");
      offset += size;
      return id++;
    }

    /** An op of {@code type} reading {@code inputs} (dims as given), with output {@code out}. */
    int op(String name, String type, String version, String data, long[][] inputDims, int[] inputs, String outPrec,
        long... out) {
      StringBuilder ins = new StringBuilder();
      for (int k = 0; k < inputs.length; k++) {
        ins.append(port(k, precisions.get(inputs[k]), inputDims[k], null));
        edges.add("<edge from-layer=\"" + inputs[k] + "\" from-port=\"" + outPort(inputs[k]) + "\" to-layer=\"" + id
            + "\" to-port=\"" + k + "\"/>");
      }
      xml.append("<layer id=\"").append(id).append("\" name=\"").append(name).append("\" type=\"").append(type)
          .append("\" version=\"").append(version).append("\">").append(data == null ? "" : "<data " + data + "/>")
          .append("<input>").append(ins).append("</input>");
      if (!type.equals("Result")) {
        xml.append("<output>").append(port(inputs.length, outPrec, out, null)).append("</output>");
      }
      xml.append("</layer>\n");
      outPorts.add(new int[] {id, inputs.length});
      precisions.put(id, outPrec);
      return id++;
    }

    private final List<int[]> outPorts = new ArrayList<>();

    private int outPort(int layer) {
      for (int[] p : outPorts) {
        if (p[0] == layer) {
          return p[1];
        }
      }
      return 0; // Parameter and Const
    }

    String net(String name) {
      return "<?xml version=\"1.0\"?>\n<net name=\"" + name + "\" version=\"11\">\n<layers>\n" + xml + "</layers>\n"
          + "<edges>\n" + String.join("\n", edges) + "\n</edges>\n</net>\n";
    }
  }

  private static String shape(long[] dims) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < dims.length; i++) {
      s.append(i == 0 ? "" : ",").append(dims[i] < 0 ? "?" : Long.toString(dims[i]));
    }
    return s.toString();
  }

  private static String port(int id, String prec, long[] dims, String names) {
    StringBuilder s = new StringBuilder("<port id=\"" + id + "\" precision=\"" + prec + "\""
        + (names == null ? "" : " names=\"" + names + "\"") + ">");
    for (long d : dims) {
      s.append("<dim>").append(d).append("</dim>");
    }
    return s.append("</port>").toString();
  }

  private static final long D = -1;

  /**
   * A tiny decoder-like model: token ids {@code input_ids [?,?]} (i64) looked up in a 32x12
   * embedding, plus a hidden state {@code hidden [?,?,?]} (f32) added to it, then two 12x12
   * projections. Nothing fixes the batch or the sequence; the Add fixes {@code hidden}'s last axis
   * at 12, as a T5 decoder's weights fix {@code encoder_hidden_states}' at 1024.
   */
  public static String tinyDynamic() {
    Layers l = new Layers();
    int ids = l.parameter("input_ids", "i64", D, D);
    int table = l.constant("embedding", "f32", 32, 12);
    int axis = l.constant("axis", "i64");
    int embed = l.op("embed", "Gather", "opset8", "batch_dims=\"0\"", new long[][] {{32, 12}, {D, D}, {}},
        new int[] {table, ids, axis}, "FP32", D, D, 12);
    int hidden = l.parameter("hidden", "f32", D, D, D);
    int mix = l.op("mix", "Add", "opset1", "auto_broadcast=\"numpy\"", new long[][] {{D, D, 12}, {D, D, D}},
        new int[] {embed, hidden}, "FP32", D, D, 12);
    int w1 = l.constant("w1", "f32", 12, 12);
    int p1 = l.op("proj1", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"false\"",
        new long[][] {{D, D, 12}, {12, 12}}, new int[] {mix, w1}, "FP32", D, D, 12);
    int act = l.op("act", "ReLU", "opset1", null, new long[][] {{D, D, 12}}, new int[] {p1}, "FP32", D, D, 12);
    int w2 = l.constant("w2", "f32", 12, 12);
    int p2 = l.op("proj2", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"true\"",
        new long[][] {{D, D, 12}, {12, 12}}, new int[] {act, w2}, "FP32", D, D, 12);
    l.op("out", "Result", "opset1", null, new long[][] {{D, D, 12}}, new int[] {p2}, "FP32");
    return l.net("tiny_dynamic");
  }

  /** {@code hidden [?,?,?]} (f32) times a {@code k x 6} weight ({@code transposeB}: stored {@code 6 x k}). */
  public static String hiddenTimesWeight(long k, boolean transposeB) {
    Layers l = new Layers();
    int hidden = l.parameter("hidden", "f32", D, D, D);
    int w = transposeB ? l.constant("w", "f32", 6, k) : l.constant("w", "f32", k, 6);
    int mm = l.op("proj", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"" + transposeB + "\"",
        new long[][] {{D, D, D}, transposeB ? new long[] {6, k} : new long[] {k, 6}}, new int[] {hidden, w}, "FP32",
        D, D, 6);
    l.op("out", "Result", "opset1", null, new long[][] {{D, D, 6}}, new int[] {mm}, "FP32");
    return l.net("hidden_times_weight");
  }

  /** {@code features [?,?]} (f32) through a ReLU: nothing in the model fixes the size of axis 1. */
  public static String undeterminable() {
    Layers l = new Layers();
    int x = l.parameter("features", "f32", D, D);
    int r = l.op("act", "ReLU", "opset1", null, new long[][] {{D, D}}, new int[] {x}, "FP32", D, D);
    l.op("out", "Result", "opset1", null, new long[][] {{D, D}}, new int[] {r}, "FP32");
    return l.net("undeterminable");
  }

  /**
   * Two KV caches {@code past_key_values.N.key [?,4,?,8]} (f32), each concatenated along axis 2
   * with the new keys {@code new_key [?,4,?,8]}, and two inputs {@code state.a}, {@code state.b}
   * {@code [?,?]} (f32) nothing sizes.
   */
  public static String kvCache() {
    Layers l = new Layers();
    int fresh = l.parameter("new_key", "f32", D, 4, D, 8);
    for (int i = 0; i < 2; i++) {
      int past = l.parameter("past_key_values." + i + ".key", "f32", D, 4, D, 8);
      int c = l.op("cat" + i, "Concat", "opset1", "axis=\"2\"", new long[][] {{D, 4, D, 8}, {D, 4, D, 8}},
          new int[] {past, fresh}, "FP32", D, 4, D, 8);
      l.op("present" + i, "Result", "opset1", null, new long[][] {{D, 4, D, 8}}, new int[] {c}, "FP32");
    }
    for (String name : new String[] {"state.a", "state.b"}) {
      int x = l.parameter(name, "f32", D, D);
      int r = l.op("act_" + name, "ReLU", "opset1", null, new long[][] {{D, D}}, new int[] {x}, "FP32", D, D);
      l.op("out_" + name, "Result", "opset1", null, new long[][] {{D, D}}, new int[] {r}, "FP32");
    }
    return l.net("kv_cache");
  }

  /**
   * A decoder step with a KV cache whose inputs are renamed as some exports name them ({@code
   * Parameter_N}, nothing says cache): {@code Parameter_0 [?,?]} (i64) is the encoder's attention
   * mask; {@code Parameter_1 [?,4,1,8]} the query; {@code Parameter_2}/{@code _3 [?,4,?,8]} a
   * cross-attention's keys and values (not concatenated; their scores take the mask);
   * {@code Parameter_4}/{@code _5 [?,4,?,8]} a self-attention's past keys and values, concatenated
   * with the query along axis 2.
   */
  public static String renamedKvCache() {
    return kvCache(false);
  }

  /**
   * {@link #renamedKvCache} with the names and the mask of an optimum-intel T5 export: each input
   * has a tensor name apart from its op's ({@code attention_mask} is tensor {@code
   * encoder_attention_mask}, {@code Parameter_2} is {@code past_key_values.0.encoder.key}, ...), and
   * the mask reaches the cross-attention's scores 8 ops away, inverted, scaled, sliced and
   * broadcast as {@code T5Attention} builds it.
   */
  public static String t5KvCache() {
    return kvCache(true);
  }

  private static String kvCache(boolean t5) {
    Layers l = new Layers();
    long[] kv = {D, 4, D, 8};
    long[] scores = {D, 4, 1, D};
    int mask = l.parameter(t5 ? "attention_mask" : "Parameter_0", t5 ? "encoder_attention_mask" : null, "i64", D, D);
    int q = l.parameter("Parameter_1", t5 ? "query" : null, "f32", D, 4, 1, 8);
    int ck = l.parameter("Parameter_2", t5 ? "past_key_values.0.encoder.key" : null, "f32", kv);
    int cv = l.parameter("Parameter_3", t5 ? "past_key_values.0.encoder.value" : null, "f32", kv);
    int pk = l.parameter("Parameter_4", t5 ? "past_key_values.0.decoder.key" : null, "f32", kv);
    int pv = l.parameter("Parameter_5", t5 ? "past_key_values.0.decoder.value" : null, "f32", kv);
    int maskF = t5 ? t5Mask(l, mask) : shortMask(l, mask);
    String qk = "transpose_a=\"false\" transpose_b=\"true\"";
    String pv2 = "transpose_a=\"false\" transpose_b=\"false\"";
    int s1 = l.op("cross_qk", "MatMul", "opset1", qk, new long[][] {{D, 4, 1, 8}, kv}, new int[] {q, ck}, "FP32",
        scores);
    long[] maskDims = t5 ? new long[] {D, 4, 1, D} : new long[] {D, 1, 1, D};
    int s1m = l.op("cross_masked", "Add", "opset1", "auto_broadcast=\"numpy\"", new long[][] {scores, maskDims},
        new int[] {s1, maskF}, "FP32", scores);
    int p1 = l.op("cross_softmax", "SoftMax", "opset1", "axis=\"3\"", new long[][] {scores}, new int[] {s1m}, "FP32",
        scores);
    int o1 = l.op("cross_out", "MatMul", "opset1", pv2, new long[][] {scores, kv}, new int[] {p1, cv}, "FP32",
        D, 4, 1, 8);
    int k = l.op("self_k", "Concat", "opset1", "axis=\"2\"", new long[][] {kv, {D, 4, 1, 8}}, new int[] {pk, q},
        "FP32", kv);
    int v = l.op("self_v", "Concat", "opset1", "axis=\"2\"", new long[][] {kv, {D, 4, 1, 8}}, new int[] {pv, q},
        "FP32", kv);
    int s2 = l.op("self_qk", "MatMul", "opset1", qk, new long[][] {{D, 4, 1, 8}, kv}, new int[] {q, k}, "FP32",
        scores);
    int p2 = l.op("self_softmax", "SoftMax", "opset1", "axis=\"3\"", new long[][] {scores}, new int[] {s2}, "FP32",
        scores);
    int o2 = l.op("self_out", "MatMul", "opset1", pv2, new long[][] {scores, kv}, new int[] {p2, v}, "FP32",
        D, 4, 1, 8);
    int sum = l.op("sum", "Add", "opset1", "auto_broadcast=\"numpy\"", new long[][] {{D, 4, 1, 8}, {D, 4, 1, 8}},
        new int[] {o1, o2}, "FP32", D, 4, 1, 8);
    l.op("out", "Result", "opset1", null, new long[][] {{D, 4, 1, 8}}, new int[] {sum}, "FP32");
    return l.net(t5 ? "t5_kv_cache" : "renamed_kv_cache");
  }

  /**
   * A T5 export's decoder without a cache: {@code input_ids [?,?]} (i64) and {@code
   * encoder_attention_mask [?,?]} (i64, op {@code attention_mask}) are the decoder's and the
   * encoder's lengths, and {@code encoder_hidden_states [?,?,32]} (f32, op {@code Parameter_7})
   * reaches the cross-attention's keys and values only once projected (MatMul, Reshape to heads,
   * Transpose), so its axis 1 has the encoder's length, that of the mask on the same scores.
   */
  public static String t5Decoder() {
    Layers l = new Layers();
    long[] states = {D, D, 32};
    long[] heads = {D, 4, D, 8};
    long[] scores = {D, 4, D, D};
    int mask = l.parameter("attention_mask", "encoder_attention_mask", "i64", D, D);
    int ids = l.parameter("decoder_input_ids", "input_ids", "i64", D, D);
    int enc = l.parameter("Parameter_7", "encoder_hidden_states", "f32", states);
    int emb = l.constant("embedding", "f32", 50, 32);
    int axis0 = l.constant("gather_axis", "i64");
    int x = l.op("embed", "Gather", "opset8", "batch_dims=\"0\"", new long[][] {{50, 32}, {D, D}, {}},
        new int[] {emb, ids, axis0}, "FP32", states);
    int q = toHeads(l, "q", x);
    int k = toHeads(l, "k", enc);
    int v = toHeads(l, "v", enc);
    int s = l.op("cross_qk", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"true\"",
        new long[][] {heads, heads}, new int[] {q, k}, "FP32", scores);
    int sm = l.op("cross_masked", "Add", "opset1", "auto_broadcast=\"numpy\"", new long[][] {scores, {D, 4, 1, D}},
        new int[] {s, t5Mask(l, mask)}, "FP32", scores);
    int p = l.op("cross_softmax", "SoftMax", "opset1", "axis=\"3\"", new long[][] {scores}, new int[] {sm}, "FP32",
        scores);
    int o = l.op("cross_out", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"false\"",
        new long[][] {scores, heads}, new int[] {p, v}, "FP32", heads);
    l.op("out", "Result", "opset1", null, new long[][] {heads}, new int[] {o}, "FP32");
    return l.net("t5_decoder");
  }

  /** {@code x [?,?,32]} projected by a 32x32 weight and split into 4 heads of 8: {@code [?,4,?,8]}. */
  private static int toHeads(Layers l, String name, int x) {
    int w = l.constant(name + "_weight", "f32", 32, 32);
    int mm = l.op(name + "_proj", "MatMul", "opset1", "transpose_a=\"false\" transpose_b=\"true\"",
        new long[][] {{D, D, 32}, {32, 32}}, new int[] {x, w}, "FP32", D, D, 32);
    int shape = l.constant(name + "_heads_shape", "i64", 4);
    int r = l.op(name + "_heads", "Reshape", "opset1", "special_zero=\"true\"", new long[][] {{D, D, 32}, {4}},
        new int[] {mm, shape}, "FP32", D, D, 4, 8);
    int order = l.constant(name + "_order", "i64", 4);
    return l.op(name + "_transpose", "Transpose", "opset1", null, new long[][] {{D, D, 4, 8}, {4}},
        new int[] {r, order}, "FP32", D, 4, D, 8);
  }

  /** The mask [?,?] as [?,1,1,?] f32, two ops away from the scores. */
  private static int shortMask(Layers l, int mask) {
    int axes = l.constant("axes", "i64", 2);
    int unsq = l.op("mask_4d", "Unsqueeze", "opset1", null, new long[][] {{D, D}, {2}}, new int[] {mask, axes}, "I64",
        D, 1, 1, D);
    return l.op("mask_f32", "Convert", "opset1", "destination_type=\"f32\"", new long[][] {{D, 1, 1, D}},
        new int[] {unsq}, "FP32", D, 1, 1, D);
  }

  /** The mask as T5 builds it: (1 - mask) * min, unsqueezed twice, sliced to the keys' length, broadcast. */
  private static int t5Mask(Layers l, int mask) {
    long[] m4 = {D, 1, 1, D};
    String numpy = "auto_broadcast=\"numpy\"";
    int axis1 = l.constant("axis_1", "i64");
    int u1 = l.op("unsqueeze_4", "Unsqueeze", "opset1", null, new long[][] {{D, D}, {}}, new int[] {mask, axis1},
        "I64", D, 1, D);
    int axis2 = l.constant("axis_2", "i64");
    int u2 = l.op("unsqueeze_5", "Unsqueeze", "opset1", null, new long[][] {{D, 1, D}, {}}, new int[] {u1, axis2},
        "I64", m4);
    int f = l.op("to_f32", "Convert", "opset1", "destination_type=\"f32\"", new long[][] {m4}, new int[] {u2}, "FP32",
        m4);
    int one = l.constant("one", "f32", 1, 1, 1, 1);
    int scaled = l.op("rsub_mul", "Multiply", "opset1", numpy, new long[][] {m4, {1, 1, 1, 1}}, new int[] {f, one},
        "FP32", m4);
    int inverted = l.op("rsub", "Subtract", "opset1", numpy, new long[][] {{1, 1, 1, 1}, m4}, new int[] {one, scaled},
        "FP32", m4);
    int min = l.constant("min", "f32", 1, 1, 1, 1);
    int bias = l.op("mul", "Multiply", "opset1", numpy, new long[][] {m4, {1, 1, 1, 1}}, new int[] {inverted, min},
        "FP32", m4);
    int start = l.constant("start", "i64", 1);
    int stop = l.constant("stop", "i64", 1);
    int step = l.constant("step", "i64", 1);
    int axes = l.constant("slice_axes", "i64", 1);
    int sliced = l.op("slice_3", "Slice", "opset8", null, new long[][] {m4, {1}, {1}, {1}, {1}},
        new int[] {bias, start, stop, step, axes}, "FP32", m4);
    int target = l.constant("target", "i64", 4);
    return l.op("bias_add", "Broadcast", "opset3", "mode=\"bidirectional\"", new long[][] {m4, {4}},
        new int[] {sliced, target}, "FP32", D, 4, 1, D);
  }

  /** Writes {@code xml} to {@code dir/name.xml} with stand-in weights beside it, and reads it back. */
  public static OpGraph write(Path dir, String name, String xml) {
    try {
      Path file = dir.resolve(name + ".xml");
      Files.writeString(file, xml);
      OpGraph g = new IrReader().read(file, null);
      SyntheticWeights.write(g, 1, IrReader.defaultBinPath(file));
      return new IrReader().read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
