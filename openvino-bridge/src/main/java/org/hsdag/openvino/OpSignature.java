package org.hsdag.openvino;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/**
 * What a profiled op's kernel time depends on inside the model: its type, opset, attributes, input and output shapes
 * and precisions, and the neighbourhood the CPU plugin fuses it with (a convolution's bias, activation and residual
 * add run in its kernel and are credited to it; a fused op's own time is then nil). So the signature holds the op
 * itself, its producers (type and output) and its consumers two levels down (type, attributes, outputs): a record is
 * reused in another model only where that neighbourhood is the same. Names are left out: they do not change a
 * kernel.
 */
public final class OpSignature {
  /** How deep the consumers are part of the signature: an op, its eltwise, then its activation. */
  static final int CONSUMER_DEPTH = 2;

  private OpSignature() {}

  /** The signature of every node of {@code graph}, in node order (hex SHA-256 of {@link #text}). */
  public static String[] of(OpGraph graph) {
    String[] out = new String[graph.nodeCount()];
    for (int v = 0; v < out.length; v++) {
      out[v] = hash(text(graph, v));
    }
    return out;
  }

  /** The canonical text node {@code v}'s signature hashes. */
  static String text(OpGraph graph, int v) {
    StringBuilder b = new StringBuilder();
    op(b, graph.node(v));
    b.append("\n<");
    for (int p : graph.predecessors(v)) {
      OpNode n = graph.node(p);
      b.append(n.type()).append(':').append(ports(n.outputs())).append(';');
    }
    consumers(b, graph, v, CONSUMER_DEPTH);
    return b.toString();
  }

  private static void consumers(StringBuilder b, OpGraph graph, int v, int depth) {
    if (depth == 0) {
      return;
    }
    int[] next = graph.successors(v).clone();
    Arrays.sort(next);
    String[] parts = new String[next.length];
    for (int i = 0; i < next.length; i++) {
      StringBuilder c = new StringBuilder("\n").append(">".repeat(CONSUMER_DEPTH - depth + 1));
      OpNode n = graph.node(next[i]);
      c.append(n.type()).append('/').append(n.version()).append(attributes(n.attributes()))
          .append(ports(n.outputs()));
      consumers(c, graph, next[i], depth - 1);
      parts[i] = c.toString();
    }
    Arrays.sort(parts); // the consumers' order in the file does not change a kernel
    for (String p : parts) {
      b.append(p);
    }
  }

  private static void op(StringBuilder b, OpNode n) {
    b.append(n.type()).append('/').append(n.version()).append(attributes(n.attributes())).append(" in ")
        .append(ports(n.inputs())).append(" out ").append(ports(n.outputs()));
  }

  private static String attributes(Map<String, String> attributes) {
    return new TreeMap<>(attributes).toString();
  }

  private static String ports(java.util.List<Port> ports) {
    StringBuilder b = new StringBuilder("(");
    for (Port p : ports) {
      b.append(p.elementType()).append(Arrays.toString(p.dims())).append(',');
    }
    return b.append(')').toString();
  }

  static String hash(String text) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
