package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.hsdag.ir.OpShapes;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.ir.Shapes;

/** Structural checks shared by the model tests. */
final class ModelChecks {
  private ModelChecks() {}

  /**
   * Ports and edges agree, every input is fed exactly once, Consts are well-formed and fit the
   * bin, and every node's outputs equal what {@link OpShapes} derives from its input ports.
   *
   * @param integerValues values of integer Const nodes (by node index), null for other nodes
   */
  static void assertConsistent(OpGraph g, long binSize, IntFunction<long[]> integerValues) {
    int[][] fed = new int[g.nodeCount()][];
    for (int i = 0; i < g.nodeCount(); i++) {
      fed[i] = new int[g.node(i).inputs().size()];
    }
    for (Edge e : g.edges()) {
      Port out = g.node(e.source()).outputs().get(e.sourceOutput());
      Port in = g.node(e.target()).inputs().get(e.targetInput());
      String where = g.node(e.source()).name() + " -> " + g.node(e.target()).name();
      assertEquals(out.elementType(), in.elementType(), "element type on edge " + where);
      assertArrayEquals(out.dims(), in.dims(), "shape on edge " + where);
      fed[e.target()][e.targetInput()]++;
    }
    for (OpNode n : g.nodes()) {
      for (int k = 0; k < fed[n.index()].length; k++) {
        assertEquals(1, fed[n.index()][k], "input " + k + " of " + n.name() + " must have exactly one edge");
      }
      if (n.isConstant()) {
        ElementType t = ElementType.parse(n.attribute("element_type"));
        long[] dims = Shapes.parseShape(n.attribute("shape"));
        assertEquals(t.byteSize(Shapes.elementCount(dims)), n.constSize(), "size of " + n.name());
        assertTrue(n.constOffset() >= 0 && n.constOffset() + n.constSize() <= binSize,
            n.name() + " lies outside the bin");
      }
      List<OpShapes.Input> ins = new ArrayList<>();
      for (int k = 0; k < n.inputs().size(); k++) {
        int producer = producerOf(g, n.index(), k);
        Port p = n.inputs().get(k);
        ins.add(new OpShapes.Input(p.elementType(), p.dims(), integerValues.apply(producer)));
      }
      List<OpShapes.Output> expected = OpShapes.infer(n.type(), n.attributes(), ins);
      assertEquals(expected.size(), n.outputs().size(), "output count of " + n.name());
      for (int k = 0; k < expected.size(); k++) {
        Port p = n.outputs().get(k);
        assertEquals(expected.get(k), new OpShapes.Output(p.elementType(), p.dims()),
            "output " + k + " of " + n.type() + " '" + n.name() + "'");
      }
    }
  }

  static int producerOf(OpGraph g, int node, int input) {
    for (int j = 0; j < g.inDegree(node); j++) {
      Edge e = g.edge(g.inEdge(node, j));
      if (e.targetInput() == input) {
        return e.source();
      }
    }
    throw new AssertionError("input " + input + " of node " + node + " is not fed");
  }

  /** Decodes the bytes of an i32/i64 Const; null for other element types. */
  static long[] decodeIntegers(OpNode constant, byte[] bytes) {
    ElementType t = ElementType.parse(constant.attribute("element_type"));
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (t == ElementType.I64) {
      long[] v = new long[bytes.length / 8];
      for (int i = 0; i < v.length; i++) {
        v[i] = b.getLong();
      }
      return v;
    }
    if (t == ElementType.I32) {
      long[] v = new long[bytes.length / 4];
      for (int i = 0; i < v.length; i++) {
        v[i] = b.getInt();
      }
      return v;
    }
    return null;
  }
}
