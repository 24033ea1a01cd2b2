package org.hsdag.ir;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes OpenVINO's reader merges away when it reads an IR v10 file: identical shape
 * computations (a ShapeOf of one tensor, and ops fed only by such values and constants, with equal
 * type, attributes and inputs) become one node, the first in the node order, and the Constants
 * only the dropped copies read are dropped with them. hsdag's graph keeps every layer of the file,
 * so HETERO's split, which runs on OpenVINO's model, must see the merge: on ssd-inception-v2 six
 * {@code ShapeOf(image) → StridedSlice} chains feed one value to six PriorBoxClustered layers, and
 * that shared value joins sub-models that the file's separate chains would leave apart.
 *
 * <p>Seen on the 2026.4.1 wheel (docs/hetero-rules.md): an IR v10 file with two identical
 * ShapeOf → StridedSlice chains reads as one chain, the same file as IR v11 reads node for node,
 * and identical Relu, Add, Convolution or MatMul layers are never merged in either version.
 * Immutable.
 */
public final class ReadMerges {
  private static final int MERGING_IR_VERSION = 10;
  private static final int DROPPED = -1;

  /** Per node: itself, the node it was merged into, or {@value #DROPPED}. */
  private final int[] into;
  private final int absent;

  private ReadMerges(int[] into) {
    this.into = into;
    int a = 0;
    for (int v = 0; v < into.length; v++) {
      a += into[v] != v ? 1 : 0;
    }
    this.absent = a;
  }

  /** The merges OpenVINO makes while reading {@code g}'s file. */
  public static ReadMerges of(OpGraph g) {
    int n = g.nodeCount();
    int[] into = new int[n];
    Arrays.setAll(into, v -> v);
    if (g.irVersion() != MERGING_IR_VERSION) {
      return new ReadMerges(into);
    }
    boolean[] shapeValued = new boolean[n];
    Map<String, Integer> firstByKey = new HashMap<>();
    for (int v : g.topologicalOrder()) {
      OpNode node = g.node(v);
      if (node.isConstant() || node.isParameter() || node.isResult() || !computesShape(g, v, shapeValued)) {
        continue;
      }
      shapeValued[v] = true;
      Integer first = firstByKey.putIfAbsent(key(g, v, into), v);
      if (first != null) {
        into[v] = first;
      }
    }
    dropOrphanedConstants(g, into);
    return new ReadMerges(into);
  }

  /** A ShapeOf, or an op whose non-constant inputs are all shape values. */
  private static boolean computesShape(OpGraph g, int v, boolean[] shapeValued) {
    if ("ShapeOf".equals(g.node(v).type())) {
      return true;
    }
    boolean any = false;
    for (int j = 0; j < g.inDegree(v); j++) {
      int s = g.predecessor(v, j);
      if (!g.node(s).isConstant()) {
        if (!shapeValued[s]) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /** Type, version, attributes and inputs by port: a Constant by its data, another node by where it now reads. */
  private static String key(OpGraph g, int v, int[] into) {
    OpNode node = g.node(v);
    String[] inputs = new String[g.inDegree(v)];
    for (int j = 0; j < inputs.length; j++) {
      Edge e = g.edge(g.inEdge(v, j));
      OpNode src = g.node(e.source());
      String from = src.isConstant() ? "const" + src.attributes() : "node" + into[e.source()] + ":" + e.sourceOutput();
      inputs[j] = e.targetInput() + "=" + from;
    }
    Arrays.sort(inputs);
    return node.type() + '/' + node.version() + '/' + node.attributes() + '/' + String.join(",", inputs);
  }

  /** A Constant whose every consumer was merged away goes with them. */
  private static void dropOrphanedConstants(OpGraph g, int[] into) {
    for (int v = 0; v < into.length; v++) {
      if (!g.node(v).isConstant() || g.outDegree(v) == 0) {
        continue;
      }
      boolean orphaned = true;
      for (int j = 0; j < g.outDegree(v) && orphaned; j++) {
        int t = g.successor(v, j);
        orphaned = into[t] != t;
      }
      if (orphaned) {
        into[v] = DROPPED;
      }
    }
  }

  /** Whether OpenVINO's model still holds node {@code v}. */
  public boolean kept(int v) {
    return into[v] == v;
  }

  /** The node whose output stands for {@code v}'s after reading: {@code v} itself when kept, else its twin (-1 when dropped). */
  public int survivor(int v) {
    return into[v];
  }

  /** Nodes of the file absent from OpenVINO's model. */
  public int absentCount() {
    return absent;
  }
}
