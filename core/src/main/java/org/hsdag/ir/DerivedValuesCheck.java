package org.hsdag.ir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks stand-in weights forwards: each op whose shape-like inputs ({@link OpShapes#isValueInput})
 * are fed by integer constants is run through the forward rule of the same shape inference that
 * derived them ({@link OpShapes#infer}) on the bytes about to be written, and must give the XML's
 * own output dims back. Where it does not (a region shared by
 * users that need different values, an axis out of range), the note says which op and what the
 * runtime's reader will refuse, instead of a silent wrong value.
 */
final class DerivedValuesCheck {
  private DerivedValuesCheck() {}

  /** Notes for the ops the planned {@code regions} would give other shapes than the XML's. */
  static List<SyntheticWeights.Note> check(OpGraph g, List<SyntheticWeights.Region> regions) {
    List<SyntheticWeights.Note> notes = new ArrayList<>();
    for (OpNode n : g.nodes()) {
      OpRule rule = OpRule.of(n.type());
      if (rule.forward() == null || rule.valueInputs() == 0 || n.outputs().isEmpty()
          || n.inputs().stream().anyMatch(Port::isDynamic) || n.outputs().get(0).isDynamic()
          || !"0".equals(n.attributes().getOrDefault("batch_dims", "0").trim())) {
        continue;
      }
      List<OpShapes.Input> in = valued(g, n, regions);
      if (in == null) {
        continue;
      }
      String problem;
      try {
        long[] got = OpShapes.infer(n.type(), n.attributes(), in).get(0).dims();
        problem = Arrays.equals(got, n.outputs().get(0).dims()) ? null
            : "the written values give " + Arrays.toString(got) + " where the XML says "
                + Arrays.toString(n.outputs().get(0).dims());
      } catch (IrException e) {
        problem = "OpenVINO's reader will refuse the written values: " + e.getMessage();
      }
      if (problem != null) {
        notes.add(new SyntheticWeights.Note(n.type() + " shape input", n.name(), problem));
      }
    }
    return notes;
  }

  /** The op's inputs, each shape-like one with the value the regions give it; null when one has none. */
  private static List<OpShapes.Input> valued(OpGraph g, OpNode n, List<SyntheticWeights.Region> regions) {
    List<OpShapes.Input> in = new ArrayList<>();
    for (int k = 0; k < n.inputs().size(); k++) {
      boolean shapeLike = OpShapes.isValueInput(n.type(), k);
      long[] v = shapeLike ? value(g, n.index(), k, regions) : null;
      if (shapeLike && v == null) {
        return null;
      }
      in.add(new OpShapes.Input(n.inputs().get(k).elementType(), n.inputs().get(k).dims(), v));
    }
    return in;
  }

  /** The integer value the regions give the Const feeding input {@code k} of {@code node}, or null. */
  private static long[] value(OpGraph g, int node, int k, List<SyntheticWeights.Region> regions) {
    int e = g.inputEdge(node, k);
    OpNode c = e < 0 ? null : g.node(g.edge(e).source());
    ElementType t = c == null || !c.isConstant() ? ElementType.UNDEFINED : ShapeConstants.constType(c);
    int size = t == ElementType.I64 ? 8 : t == ElementType.I32 ? 4 : 0;
    for (SyntheticWeights.Region r : regions) {
      byte[] fixed = r.fixed();
      if (size == 0 || fixed == null || r.offset() != c.constOffset() || fixed.length < c.constSize()) {
        continue;
      }
      ByteBuffer bb = ByteBuffer.wrap(fixed).order(ByteOrder.LITTLE_ENDIAN);
      long[] v = new long[(int) (c.constSize() / size)];
      for (int i = 0; i < v.length; i++) {
        v[i] = size == 8 ? bb.getLong() : bb.getInt();
      }
      return v;
    }
    return null;
  }
}
