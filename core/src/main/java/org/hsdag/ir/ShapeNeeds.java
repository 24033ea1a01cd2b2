package org.hsdag.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The backward side of the shape inference: what each shape-like input of an op must hold for the
 * port dims the IR records (a Reshape's target from its output dims, a Transpose's order from how
 * its dims moved, ...), read by the op's own backward rule ({@link OpRule#backward}). {@link
 * ShapeConstants} then makes the subgraph feeding that input produce it; this class gives the rules
 * what they may ask of that subgraph, and the defaults of integer Consts no rule constrains.
 */
final class ShapeNeeds {
  /** Slice end for "to the end" of a dynamic axis (fits i32 and i64). */
  static final long TO_END = Integer.MAX_VALUE;

  private final ShapeConstants owner;
  private final OpGraph g;

  ShapeNeeds(ShapeConstants owner, OpGraph g) {
    this.owner = owner;
    this.g = g;
  }

  /** One shape-like input of an op and the values it may hold, best first. */
  record Rule(int input, List<ValueNeed> needs, String why) {
    /** The values a Const on this input may hold. */
    List<long[]> alternatives() {
      return needs.stream().map(ValueNeed::materialize).toList();
    }
  }

  List<Rule> rules(int v) {
    OpNode n = g.node(v);
    List<Rule> out = new ArrayList<>();
    OpRule.Backward rule = OpRule.of(n.type()).backward();
    if (rule != null && !n.outputs().isEmpty() && !n.inputs().isEmpty()) {
      rule.needs(this, n, n.inputs().get(0).dims(), n.outputs().get(0).dims(), out);
      out.removeIf(r -> r.input() >= n.inputs().size());
    }
    return out;
  }

  void note(OpNode n, int input, String message) {
    owner.note(n, input, message);
  }

  /** True when input {@code k} of {@code n} is connected. */
  boolean fed(OpNode n, int k) {
    return owner.src(n.index(), k) >= 0;
  }

  /** True when input {@code k} of {@code n} is fed by a Const. */
  boolean constFed(OpNode n, int k) {
    return fed(n, k) && g.node(owner.src(n.index(), k)).isConstant();
  }

  /** True when input {@code k} of {@code n} is a shape computation whose value is known (a shape vector). */
  boolean valued(OpNode n, int k) {
    return fed(n, k) && owner.evaluate(owner.src(n.index(), k), owner.port(n.index(), k), Map.of()) != null;
  }

  /** Gives the float Const on input {@code k} of {@code n} {@code values}; false when it is no float Const. */
  boolean deriveFloats(OpNode n, int k, double[] values) {
    if (!constFed(n, k) || ShapeConstants.isInteger(ShapeConstants.constType(g.node(owner.src(n.index(), k))))) {
      return false;
    }
    owner.deriveFloats(owner.src(n.index(), k), values);
    return true;
  }

  static String why(OpNode n, int input) {
    return n.type() + " '" + n.name() + "' input " + input;
  }

  static void rule(List<Rule> out, OpNode n, int input, List<ValueNeed> needs) {
    rule(out, n, input, needs, List.of());
  }

  static void rule(List<Rule> out, OpNode n, int input, List<ValueNeed> needs, List<Rule> more) {
    if (!needs.isEmpty()) {
      out.add(new Rule(input, needs, why(n, input)));
    }
    out.addAll(more);
  }

  static List<ValueNeed> exactly(List<long[]> values) {
    return values.stream().map(ValueNeed::of).toList();
  }

  /** Axes as written (non-negative) first, then their negative spelling (exporters use both). */
  static List<ValueNeed> signed(long[] axes, int rank) {
    if (axes == null) {
      return List.of();
    }
    long[] neg = new long[axes.length];
    for (int i = 0; i < axes.length; i++) {
      neg[i] = axes[i] - rank;
    }
    return List.of(ValueNeed.of(axes), ValueNeed.of(neg));
  }

  static long[] mask(OpNode n, String name, int count) {
    long[] m = new long[count];
    long[] given = Shapes.parseLongs(n.attribute(name));
    System.arraycopy(given, 0, m, 0, Math.min(count, given.length));
    return m;
  }

  // ---------------------------------------------------------------- defaults

  void defaultFor(int v) {
    // The consumers tell what a free integer Const is for.
    for (int j = 0; j < g.outDegree(v); j++) {
      int c = g.successor(v, j);
      Edge e = g.edge(g.outEdge(v, j));
      OpNode cn = g.node(c);
      String t = cn.type();
      if ((t.equals("StridedSlice") || t.equals("Slice")) && e.targetInput() >= 1 && e.targetInput() <= 3
          && cn.inputs().get(0).rank() == 1) {
        long len = Math.max(0, cn.inputs().get(0).dim(0));
        long m = Math.max(0, cn.outputs().get(0).dim(0));
        long value = switch (e.targetInput()) {
          case 1 -> len - m;
          case 2 -> len;
          default -> 1;
        };
        owner.addRequirement(v, List.of(new long[] {value}), why(cn, e.targetInput()));
        note(cn, e.targetInput(), "slice of a shape vector with no requirement downstream; "
            + "took its last " + m + " entries");
        return;
      }
      boolean divisor = (t.equals("Divide") || t.equals("Mod") || t.equals("FloorMod")) && e.targetInput() == 1;
      boolean stride = (t.equals("StridedSlice") || t.equals("Slice")) && e.targetInput() == 3;
      if (divisor || stride) {
        // Zero would divide by zero or make an invalid slice; one is safe.
        long[] ones = new long[(int) owner.constCount(g.node(v))];
        Arrays.fill(ones, 1);
        owner.addRequirement(v, List.of(ones), why(cn, e.targetInput()) + (divisor ? " (divisor)" : " (stride)"));
        return;
      }
    }
  }
}
