package org.hsdag.ir;

import static org.hsdag.ir.ShapeConstants.DYN;
import static org.hsdag.ir.ShapeConstants.MAX_ALTERNATIVES;
import static org.hsdag.ir.ShapeConstants.REDUCE;
import static org.hsdag.ir.ShapeConstants.isInteger;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What each shape-like input of an op must hold, read from the op's own port dims (a Reshape's
 * target from its output dims, a Transpose's order from how its dims moved, ...). The backward
 * derivation in {@link ShapeConstants} then makes the subgraph feeding that input produce it.
 */
final class ShapeRules {
  private final ShapeConstants owner;
  private final OpGraph g;
  private final int[][] src;
  private final int[][] srcPort;

  /** Slice end for "to the end" of a dynamic axis (fits i32 and i64). */
  private static final long TO_END = Integer.MAX_VALUE;

  ShapeRules(ShapeConstants owner, OpGraph g, int[][] src, int[][] srcPort) {
    this.owner = owner;
    this.g = g;
    this.src = src;
    this.srcPort = srcPort;
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
    if (n.outputs().isEmpty() || n.inputs().isEmpty()) {
      return out;
    }
    long[] in = n.inputs().get(0).dims();
    long[] o = n.outputs().get(0).dims();
    String type = n.type();
    switch (type) {
      case "Reshape" -> reshape(n, in, o, out);
      case "Transpose" -> rule(out, n, 1, concrete(ShapeVectors.permutations(in, o)));
      case "Squeeze" -> rule(out, n, 1, signed(ShapeVectors.removedAxes(in, o), in.length));
      case "Unsqueeze" -> rule(out, n, 1, signed(ShapeVectors.removedAxes(o, in), o.length));
      case "MVN", "LRN", "CumSum" -> freeAxes(n, in.length, out);
      case "Gather" -> gatherAxis(n, in, o, out);
      case "VariadicSplit", "Split" -> split(n, in, out);
      case "Interpolate" -> interpolate(n, in, o, out);
      case "StridedSlice" -> stridedSlice(n, v, o, out);
      case "Slice" -> slice(n, v, in, o, out);
      case "Broadcast" -> broadcast(n, o, out);
      case "Tile" -> tile(in, o, n, out);
      case "Pad" -> pad(in, o, n, out);
      case "TopK" -> topK(n, o, out);
      case "Range" -> {
        // start 0, stop = the length, step 1 (integer Ranges only: a float Const gets random values). A
        // dynamic length is a sequence length: the last dynamic dim of the shape it is read from.
        ValueNeed length = o.length == 1 && o[0] >= 0 ? ValueNeed.of(o[0])
            : new ValueNeed(new long[] {DYN}, new long[] {1}, new int[] {ShapeVectors.LAST_DYNAMIC});
        rule(out, n, 0, List.of(ValueNeed.of(0)), List.of(new Rule(1, List.of(length), why(n, 1)),
            new Rule(2, List.of(ValueNeed.of(1)), why(n, 2))));
      }
      default -> {
        if (REDUCE.contains(type) && n.inputs().size() > 1) {
          reduce(n, in, o, out);
        } else if (("Equal".equals(type) || "NotEqual".equals(type)) && n.inputs().size() == 2 && src[v][0] >= 0
            && owner.evaluate(src[v][0], srcPort[v][0], Map.of()) != null) {
          // Compared with a shape vector: -1 never equals a dim, so the Select after it keeps the shape.
          long count = Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
          long[] minusOnes = new long[(int) count];
          Arrays.fill(minusOnes, -1);
          rule(out, n, 1, List.of(ValueNeed.of(minusOnes)));
        }
      }
    }
    return out;
  }

  private void note(OpNode n, int input, String message) {
    owner.note(n, input, message);
  }

  static String why(OpNode n, int input) {
    return n.type() + " '" + n.name() + "' input " + input;
  }

  private void rule(List<Rule> out, OpNode n, int input, List<ValueNeed> needs) {
    rule(out, n, input, needs, List.of());
  }

  private void rule(List<Rule> out, OpNode n, int input, List<ValueNeed> needs, List<Rule> more) {
    if (!needs.isEmpty()) {
      out.add(new Rule(input, needs, why(n, input)));
    }
    out.addAll(more);
    out.removeIf(r -> r.input >= n.inputs().size());
  }

  private static List<ValueNeed> concrete(List<long[]> values) {
    List<ValueNeed> out = new ArrayList<>();
    values.forEach(v -> out.add(ValueNeed.of(v)));
    return out;
  }

  /** Axes as written (non-negative) first, then their negative spelling (exporters use both). */
  private static List<ValueNeed> signed(long[] axes, int rank) {
    if (axes == null) {
      return List.of();
    }
    long[] neg = new long[axes.length];
    for (int i = 0; i < axes.length; i++) {
      neg[i] = axes[i] - rank;
    }
    return List.of(ValueNeed.of(axes), ValueNeed.of(neg));
  }

  private void reshape(OpNode n, long[] in, long[] o, List<Rule> out) {
    boolean specialZero = OpAttributes.isTrue(n.attribute("special_zero"));
    int r = o.length;
    long[] want = new long[r];
    long[] fill = new long[r];
    int[] pos = new int[r];
    int inferred = 0;
    for (int p = 0; p < r; p++) {
      pos[p] = p;
      want[p] = o[p] < 0 ? DYN : o[p];
      boolean copies = specialZero && p < in.length && in[p] < 0;
      fill[p] = o[p] < 0 ? (copies ? 0 : -1) : o[p];
      if (o[p] < 0 && !copies) {
        inferred++;
      }
    }
    if (inferred > 1 && src[n.index()][1] >= 0 && g.node(src[n.index()][1]).isConstant()) {
      note(n, 1, inferred + " dynamic dims cannot be copied from the input; only one may be -1");
    }
    List<ValueNeed> needs = new ArrayList<>();
    needs.add(new ValueNeed(want, fill, pos));
    // Spellings a serializer may have shared between Reshapes: one dim as -1, or 0 copying the input dim.
    if (inferred == 0) {
      long[][] options = new long[r][];
      for (int p = 0; p < r; p++) {
        Set<Long> opts = new LinkedHashSet<>();
        opts.add(fill[p]);
        if (specialZero && p < in.length && in[p] == o[p] && o[p] >= 0) {
          opts.add(0L);
        }
        opts.add(-1L);
        options[p] = opts.stream().mapToLong(Long::longValue).toArray();
      }
      List<long[]> variants = new ArrayList<>();
      ShapeVectors.combine(options, 0, new long[r], variants);
      for (long[] v : variants) {
        if (needs.size() >= MAX_ALTERNATIVES) {
          break;
        }
        if (!Arrays.equals(v, fill)) {
          needs.add(ValueNeed.of(v));
        }
      }
    }
    rule(out, n, 1, needs);
  }

  private void freeAxes(OpNode n, int rank, List<Rule> out) {
    if (n.inputs().size() < 2) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] axes = new long[count];
    // LRN normalises across channels by default; MVN and CumSum keep the shape, so any axes fit: the last ones.
    for (int i = 0; i < count; i++) {
      axes[i] = "LRN".equals(n.type()) && count == 1 ? 1 : rank - count + i;
    }
    note(n, 1, "not derivable (the op keeps its input shape); used " + ("LRN".equals(n.type()) && count == 1
        ? "axis 1 (across channels)" : "the last " + count + " axes"));
    rule(out, n, 1, signed(axes, rank));
  }

  private void reduce(OpNode n, long[] in, long[] o, List<Rule> out) {
    long[] axes;
    if (o.length == in.length) {
      axes = ShapeVectors.changedAxes(in, o, (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims())), true);
    } else {
      axes = ShapeVectors.removedAxes(in, o);
    }
    rule(out, n, 1, signed(axes, in.length));
  }

  private void gatherAxis(OpNode n, long[] data, long[] o, List<Rule> out) {
    if (n.inputs().size() < 3) {
      return;
    }
    long[] idx = n.inputs().get(1).dims();
    int batch = (int) Shapes.parseLongs(n.attribute("batch_dims") == null ? "0" : n.attribute("batch_dims"))[0];
    List<long[]> axes = new ArrayList<>();
    for (int a = 0; a < data.length; a++) {
      if (o.length == data.length - 1 + idx.length - batch
          && Arrays.equals(Arrays.copyOfRange(data, 0, a), Arrays.copyOfRange(o, 0, a))
          && Arrays.equals(Arrays.copyOfRange(data, a + 1, data.length),
              Arrays.copyOfRange(o, a + idx.length - batch, o.length))) {
        axes.add(new long[] {a});
      }
    }
    List<ValueNeed> needs = new ArrayList<>(concrete(axes));
    for (long[] a : axes) {
      needs.add(ValueNeed.of(a[0] - data.length));
    }
    rule(out, n, 2, needs);
  }

  private void split(OpNode n, long[] in, List<Rule> out) {
    List<Port> outs = n.outputs();
    int axis = -1;
    for (int a = 0; a < in.length && axis < 0; a++) {
      long sum = 0;
      boolean othersEqual = true;
      boolean differs = false;
      for (Port p : outs) {
        long[] d = p.dims();
        if (d.length != in.length) {
          othersEqual = false;
          break;
        }
        sum += Math.max(d[a], 0);
        differs |= d[a] != in[a];
        for (int k = 0; k < in.length; k++) {
          othersEqual &= k == a || d[k] == in[k];
        }
      }
      if (othersEqual && (differs || outs.size() == 1) && (in[a] < 0 || sum == in[a])) {
        axis = a;
      }
    }
    if (axis < 0) {
      note(n, 1, "no axis splits the input into the output dims");
      return;
    }
    List<Rule> more = new ArrayList<>();
    if ("VariadicSplit".equals(n.type())) {
      long[] lengths = new long[outs.size()];
      for (int i = 0; i < lengths.length; i++) {
        lengths[i] = outs.get(i).dim(axis) < 0 ? -1 : outs.get(i).dim(axis);
      }
      List<ValueNeed> needs = new ArrayList<>();
      needs.add(ValueNeed.of(lengths));
      for (int i = 0; i < lengths.length && lengths[i] >= 0; i++) {
        long[] v = lengths.clone();
        v[i] = -1;
        needs.add(ValueNeed.of(v));
      }
      more.add(new Rule(2, needs, why(n, 2)));
    }
    rule(out, n, 1, signed(new long[] {axis}, in.length), more);
  }

  private void interpolate(OpNode n, long[] in, long[] o, List<Rule> out) {
    boolean v11 = "opset11".equals(n.version()) || (n.inputs().size() == 3 && !"opset4".equals(n.version()));
    boolean v1 = "opset1".equals(n.version());
    // Inputs: opset1 (data, sizes) with an axes attribute; opset4 (data, sizes, scales, axes?);
    // opset11 (data, scales or sizes, axes?).
    int axesInput = v1 ? 2 : v11 ? 2 : 3;
    long[] axes;
    if (v1) {
      axes = Shapes.parseLongs(n.attribute("axes"));
    } else if (axesInput < n.inputs().size()) {
      axes = ShapeVectors.changedAxes(in, o, (int) Math.max(1, Shapes.elementCount(n.inputs().get(axesInput).dims())),
          false);
    } else {
      axes = new long[in.length];
      Arrays.setAll(axes, i -> i);
    }
    long[] sizes = new long[axes.length];
    double[] scales = new double[axes.length];
    for (int i = 0; i < axes.length; i++) {
      int a = (int) axes[i];
      sizes[i] = o[a];
      scales[i] = in[a] > 0 && o[a] >= 0 ? (double) o[a] / in[a] : 1.0;
    }
    List<Rule> more = new ArrayList<>();
    if (axesInput < n.inputs().size()) {
      more.add(new Rule(axesInput, List.of(ValueNeed.of(axes)), why(n, axesInput)));
    }
    // Float scales go straight to the Const; integer inputs (sizes) through the rules.
    for (int k = 1; k < Math.min(axesInput, n.inputs().size()); k++) {
      int p = src[n.index()][k];
      ElementType t = p >= 0 && g.node(p).isConstant() ? owner.constType(g.node(p)) : ElementType.UNDEFINED;
      if (p >= 0 && g.node(p).isConstant() && !isInteger(t)) {
        owner.deriveFloats(p, scales);
      } else {
        more.add(new Rule(k, List.of(ValueNeed.of(sizes)), why(n, k)));
      }
    }
    rule(out, n, 0, List.of(), more);
  }

  static long[] mask(OpNode n, String name, int count) {
    long[] m = new long[count];
    long[] given = Shapes.parseLongs(n.attribute(name));
    System.arraycopy(given, 0, m, 0, Math.min(count, given.length));
    return m;
  }

  private void stridedSlice(OpNode n, int v, long[] o, List<Rule> out) {
    if (n.inputs().size() < 3) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] endMask = mask(n, "end_mask", count);
    for (String m : List.of("new_axis_mask", "shrink_axis_mask", "ellipsis_mask")) {
      if (Arrays.stream(mask(n, m, count)).anyMatch(x -> x != 0)) {
        note(n, 1, m + " is not handled; bounds left to the defaults");
        return;
      }
    }
    if (src[v][0] < 0 || owner.evaluate(src[v][0], srcPort[v][0], Map.of()) != null) {
      return; // slicing a shape vector: its bounds come from what the slice must hold (or the defaults)
    }
    long[] begin = new long[count];
    long[] stride = new long[count];
    Arrays.fill(stride, 1);
    long[] want = new long[count];
    long[] fill = new long[count];
    int[] pos = new int[count];
    for (int i = 0; i < count; i++) {
      pos[i] = i;
      boolean ignored = endMask[i] != 0 || i >= o.length;
      want[i] = ignored ? 0 : o[i] < 0 ? DYN : o[i];
      fill[i] = ignored ? 0 : o[i] < 0 ? TO_END : o[i];
    }
    List<Rule> more = List.of(new Rule(2, List.of(new ValueNeed(want, fill, pos)), why(n, 2)),
        new Rule(3, List.of(ValueNeed.of(stride)), why(n, 3)));
    rule(out, n, 1, List.of(ValueNeed.of(begin)), more);
  }

  private void slice(OpNode n, int v, long[] in, long[] o, List<Rule> out) {
    if (n.inputs().size() < 3 || src[v][0] < 0
        || (owner.evaluate(src[v][0], srcPort[v][0], Map.of()) != null && in.length == 1)) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] axes = ShapeVectors.changedAxes(in, o, count, false);
    if (axes.length != count || (n.inputs().size() < 5 && count != in.length)) {
      note(n, 4, axes.length + " sliced axes for " + count + " bounds; left to the defaults");
      return;
    }
    long[] want = new long[count];
    long[] fill = new long[count];
    int[] pos = new int[count];
    long[] zeros = new long[count];
    long[] ones = new long[count];
    Arrays.fill(ones, 1);
    for (int i = 0; i < count; i++) {
      int ax = (int) axes[i];
      pos[i] = ax;
      want[i] = o[ax] < 0 ? DYN : o[ax];
      fill[i] = o[ax] < 0 ? TO_END : o[ax];
    }
    List<Rule> more = new ArrayList<>();
    more.add(new Rule(2, List.of(new ValueNeed(want, fill, pos)), why(n, 2)));
    more.add(new Rule(3, List.of(ValueNeed.of(ones)), why(n, 3)));
    more.add(new Rule(4, signed(axes, in.length), why(n, 4)));
    rule(out, n, 1, List.of(ValueNeed.of(zeros)), more);
  }

  private void broadcast(OpNode n, long[] o, List<Rule> out) {
    String mode = n.attribute("mode") == null ? "numpy" : n.attribute("mode").toLowerCase(Locale.ROOT);
    if (mode.equals("explicit")) {
      note(n, 2, "explicit axes_mapping is not derived");
      return;
    }
    long[] want = new long[o.length];
    long[] fill = new long[o.length];
    int[] pos = new int[o.length];
    for (int i = 0; i < o.length; i++) {
      pos[i] = i;
      want[i] = o[i] < 0 ? DYN : o[i];
      fill[i] = o[i] < 0 ? 1 : o[i];
    }
    rule(out, n, 1, List.of(new ValueNeed(want, fill, pos)));
  }

  private void tile(long[] in, long[] o, OpNode n, List<Rule> out) {
    long[] reps = new long[o.length];
    for (int i = 0; i < o.length; i++) {
      int j = i - (o.length - in.length);
      long d = j >= 0 ? in[j] : 1;
      reps[i] = o[i] < 0 || d <= 0 ? 1 : o[i] / d;
    }
    rule(out, n, 1, List.of(ValueNeed.of(reps)));
  }

  private void pad(long[] in, long[] o, OpNode n, List<Rule> out) {
    long[] begin = new long[in.length];
    long[] end = new long[in.length];
    for (int i = 0; i < in.length && i < o.length; i++) {
      long diff = in[i] < 0 || o[i] < 0 ? 0 : o[i] - in[i];
      begin[i] = Math.floorDiv(diff, 2);
      end[i] = diff - begin[i];
    }
    if (Arrays.stream(begin).anyMatch(x -> x != 0)) {
      note(n, 1, "the XML gives only the total padding per axis; split as evenly as possible");
    }
    rule(out, n, 1, List.of(ValueNeed.of(begin)), List.of(new Rule(2, List.of(ValueNeed.of(end)), why(n, 2))));
  }

  private void topK(OpNode n, long[] o, List<Rule> out) {
    long axis = Shapes.parseLongs(n.attribute("axis") == null ? "-1" : n.attribute("axis"))[0];
    int a = (int) (axis < 0 ? axis + o.length : axis);
    if (a >= 0 && a < o.length && o[a] >= 0) {
      rule(out, n, 1, List.of(ValueNeed.of(o[a])));
    }
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
