package org.hsdag.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Derives the values of the integer Const layers of an XML-only IR that feed shape-like inputs
 * (Reshape targets, Transpose orders, axes, split lengths, slice bounds, Interpolate scales ...)
 * from the port dims the XML records, so that shape inference over the derived values reproduces
 * those dims. A constant that reaches its consumer through a small integer subgraph (ShapeOf,
 * Gather, Concat, arithmetic) gets its value by propagating the consumer's requirement backwards,
 * or, where an op cannot be inverted, by trying small values and evaluating the subgraph forwards.
 *
 * <p>Dynamic dims ({@code -1}) are matched by a heuristic: a dynamic entry at position p of a
 * target is taken from dim p of the shape it is computed from when that dim is dynamic, else from
 * its k-th dynamic dim (k = how many dynamic entries precede it). The XML cannot say more.
 */
final class ShapeConstants {
  /** An unknown (dynamic) entry of an evaluated or required value. */
  static final long DYN = Long.MIN_VALUE;
  /** Slice end for "to the end" of a dynamic axis (fits i32 and i64). */
  private static final long TO_END = Integer.MAX_VALUE;
  /** Values tried for the free constants of a subgraph that cannot be inverted. */
  private static final long[] TRIALS = {1, 2, 0, 3, 4, -1, 8, 16};
  private static final int MAX_ALTERNATIVES = 64;
  private static final Set<String> ELEMENTWISE = Set.of("Add", "Subtract", "Multiply", "Divide", "Mod", "FloorMod",
      "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual", "Maximum", "Minimum");
  private static final Set<String> REDUCE = Set.of("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
      "ReduceL1", "ReduceL2", "ReduceLogicalAnd", "ReduceLogicalOr");

  /**
   * What a tensor's value must be.
   *
   * @param want required entries, {@link #DYN} where the dim is dynamic
   * @param fill what a Const writes at a {@link #DYN} entry (-1 to infer, 0 to copy, ...)
   * @param pos for a {@link #DYN} entry, the axis of the target it describes
   */
  record Need(long[] want, long[] fill, int[] pos) {
    static Need of(long... values) {
      int[] pos = new int[values.length];
      Arrays.setAll(pos, i -> i);
      return new Need(values.clone(), values.clone(), pos);
    }

    long[] materialize() {
      long[] v = new long[want.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = want[i] == DYN ? fill[i] : want[i];
      }
      return v;
    }

    int ordinal(int i) {
      int k = 0;
      for (int j = 0; j < i; j++) {
        if (want[j] == DYN) {
          k++;
        }
      }
      return k;
    }

    Need slice(int from, int to) {
      return new Need(Arrays.copyOfRange(want, from, to), Arrays.copyOfRange(fill, from, to),
          Arrays.copyOfRange(pos, from, to));
    }
  }

  /**
   * One consumer's requirement on a Const: acceptable values, best first.
   *
   * @param alternatives each a full value array for the Const
   * @param why the consumer and input, for notes
   */
  record Requirement(List<long[]> alternatives, String why) {}

  /**
   * The outcome.
   *
   * @param integers per Const node index: its requirements (several when several consumers constrain it)
   * @param floats per Const node index: derived float values (Interpolate scales)
   * @param notes what could not be derived, and the safe value used instead
   */
  record Result(Map<Integer, List<Requirement>> integers, Map<Integer, double[]> floats, List<SyntheticWeights.Note> notes) {}

  private final OpGraph g;
  private final int[][] src;
  private final int[][] srcPort;
  private final Map<Integer, List<Requirement>> reqs = new HashMap<>();
  private final Map<Integer, double[]> floats = new HashMap<>();
  private final List<SyntheticWeights.Note> notes = new ArrayList<>();
  /** Const nodes by their .bin region, to see values a sibling sharing the bytes was given. */
  private final Map<List<Long>, List<Integer>> byRegion = new HashMap<>();

  private ShapeConstants(OpGraph g) {
    this.g = g;
    int n = g.nodeCount();
    src = new int[n][];
    srcPort = new int[n][];
    for (int v = 0; v < n; v++) {
      src[v] = new int[g.node(v).inputs().size()];
      srcPort[v] = new int[src[v].length];
      Arrays.fill(src[v], -1);
      OpNode node = g.node(v);
      if (node.isConstant()) {
        byRegion.computeIfAbsent(List.of(node.constOffset(), node.constSize()), k -> new ArrayList<>()).add(v);
      }
    }
    for (Edge e : g.edges()) {
      src[e.target()][e.targetInput()] = e.source();
      srcPort[e.target()][e.targetInput()] = e.sourceOutput();
    }
  }

  /** Derives what can be derived for {@code graph}. */
  static Result derive(OpGraph graph) {
    ShapeConstants s = new ShapeConstants(graph);
    s.run();
    return new Result(Map.copyOf(s.reqs), Map.copyOf(s.floats), List.copyOf(s.notes));
  }

  static boolean isInteger(ElementType t) {
    return switch (t) {
      case I4, I8, I16, I32, I64, U1, U2, U3, U4, U6, U8, U16, U32, U64, BOOLEAN -> true;
      default -> false;
    };
  }

  static boolean isShapeInteger(ElementType t) {
    return t == ElementType.I32 || t == ElementType.I64 || t == ElementType.U32 || t == ElementType.U64;
  }

  private void run() {
    int[] order = g.topologicalOrder();
    List<List<Rule>> rules = new ArrayList<>();
    for (int v = 0; v < g.nodeCount(); v++) {
      rules.add(null);
    }
    // 1. Inputs fed by a Const, derived from the consumer's own port dims.
    for (int v : order) {
      rules.set(v, rules(v));
      for (Rule r : rules.get(v)) {
        int p = src[v][r.input];
        if (p >= 0 && g.node(p).isConstant()) {
          addRequirement(p, r.alternatives(), r.why);
        }
      }
    }
    // 2. Inputs fed by a computed subgraph: requirements flow backwards, so consumers go last-first.
    for (int i = order.length - 1; i >= 0; i--) {
      int v = order[i];
      for (Rule r : rules.get(v)) {
        int p = src[v][r.input];
        if (p >= 0 && !g.node(p).isConstant() && !satisfiedByAny(p, srcPort[v][r.input], r.needs)
            && !requireAny(p, srcPort[v][r.input], r.needs)) {
          note(g.node(v), r.input, "not derivable through a " + g.node(p).type() + "; left to the defaults");
        }
      }
    }
    // 3. Integer Consts left free: slices of shape vectors default to the trailing window, divisors to 1.
    for (int v : order) {
      OpNode n = g.node(v);
      if (n.isConstant() && isInteger(constType(n)) && current(v) == null) {
        defaultFor(v);
        if (current(v) == null && !SyntheticWeights.isQuantizedWeight(constType(n))) {
          notes.add(new SyntheticWeights.Note("integer Const", n.name(),
              "no shape-like consumer constrains it; zeros (a valid index and count everywhere)"));
        }
      }
    }
  }

  private ElementType constType(OpNode n) {
    String t = n.attribute("element_type");
    return t == null ? ElementType.UNDEFINED : ElementType.parse(t);
  }

  private long constCount(OpNode n) {
    long[] shape = Shapes.parseShape(n.attribute("shape") == null ? "" : n.attribute("shape"));
    return shape == null ? 0 : Shapes.elementCount(shape);
  }

  private void addRequirement(int constNode, List<long[]> alternatives, String why) {
    long count = constCount(g.node(constNode));
    List<long[]> fitting = new ArrayList<>();
    for (long[] a : alternatives) {
      if (a.length == count) {
        fitting.add(a);
      }
    }
    if (fitting.isEmpty()) {
      notes.add(new SyntheticWeights.Note("Const", g.node(constNode).name(), why + " gives " + (alternatives.isEmpty()
          ? "no value" : alternatives.get(0).length + " values") + " for " + count + "; left to the defaults"));
      return;
    }
    reqs.computeIfAbsent(constNode, k -> new ArrayList<>()).add(new Requirement(List.copyOf(fitting), why));
  }

  /** Requirements on a Const and on the Consts of the same type that share its bytes. */
  private List<Requirement> requirementsOnBytes(int constNode) {
    List<Requirement> all = new ArrayList<>();
    OpNode n = g.node(constNode);
    for (int sib : byRegion.getOrDefault(List.of(n.constOffset(), n.constSize()), List.of(constNode))) {
      if (constType(g.node(sib)) == constType(n)) {
        all.addAll(reqs.getOrDefault(sib, List.of()));
      }
    }
    return all;
  }

  /** True when every requirement on the Const's bytes allows {@code value}. */
  private boolean acceptable(int constNode, long[] value) {
    return requirementsOnBytes(constNode).stream()
        .allMatch(r -> r.alternatives().stream().anyMatch(a -> Arrays.equals(a, value)));
  }

  /**
   * The value a Const has so far: the first alternative every requirement on its bytes allows (as
   * the writer will choose), or null when nothing constrains it yet.
   */
  private long[] current(int constNode) {
    List<Requirement> all = requirementsOnBytes(constNode);
    for (Requirement r : all) {
      for (long[] a : r.alternatives()) {
        if (acceptable(constNode, a)) {
          return a;
        }
      }
    }
    return all.isEmpty() ? null : all.get(0).alternatives().get(0);
  }

  // ---------------------------------------------------------------- rules: what an input must hold

  /** One shape-like input of an op and the values it may hold, best first. */
  private record Rule(int input, List<Need> needs, String why) {
    /** The values a Const on this input may hold. */
    List<long[]> alternatives() {
      return needs.stream().map(Need::materialize).toList();
    }
  }

  private List<Rule> rules(int v) {
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
      case "Transpose" -> rule(out, n, 1, concrete(permutations(in, o)));
      case "Squeeze" -> rule(out, n, 1, signed(removedAxes(in, o), in.length));
      case "Unsqueeze" -> rule(out, n, 1, signed(removedAxes(o, in), o.length));
      case "MVN", "LRN", "CumSum" -> freeAxes(n, in.length, out);
      case "Gather" -> gatherAxis(n, in, o, out);
      case "VariadicSplit", "Split" -> split(n, in, out);
      case "Interpolate" -> interpolate(n, in, o, out);
      case "StridedSlice" -> stridedSlice(n, v, o, out);
      case "Slice" -> slice(n, v, in, o, out);
      case "Broadcast" -> broadcast(n, in, o, out);
      case "Tile" -> tile(in, o, n, out);
      case "Pad" -> pad(in, o, n, out);
      case "TopK" -> topK(n, in, o, out);
      case "Range" -> {
        // start 0, stop = the length, step 1 (integer Ranges only: a float Const gets random values).
        long length = o.length == 1 && o[0] >= 0 ? o[0] : 1;
        rule(out, n, 0, List.of(Need.of(0)), List.of(new Rule(1, List.of(Need.of(length)), why(n, 1)),
            new Rule(2, List.of(Need.of(1)), why(n, 2))));
      }
      default -> {
        if (REDUCE.contains(type) && n.inputs().size() > 1) {
          reduce(n, in, o, out);
        } else if (("Equal".equals(type) || "NotEqual".equals(type)) && n.inputs().size() == 2 && src[v][0] >= 0
            && evaluate(src[v][0], srcPort[v][0], Map.of()) != null) {
          // Compared with a shape vector: -1 never equals a dim, so the Select after it keeps the shape.
          long count = Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
          long[] minusOnes = new long[(int) count];
          Arrays.fill(minusOnes, -1);
          rule(out, n, 1, List.of(Need.of(minusOnes)));
        }
      }
    }
    return out;
  }

  private void note(OpNode n, int input, String message) {
    notes.add(new SyntheticWeights.Note(n.type() + " input " + input, n.name(), message));
  }

  private static String why(OpNode n, int input) {
    return n.type() + " '" + n.name() + "' input " + input;
  }

  private void rule(List<Rule> out, OpNode n, int input, List<Need> needs) {
    rule(out, n, input, needs, List.of());
  }

  private void rule(List<Rule> out, OpNode n, int input, List<Need> needs, List<Rule> more) {
    if (!needs.isEmpty()) {
      out.add(new Rule(input, needs, why(n, input)));
    }
    out.addAll(more);
    out.removeIf(r -> r.input >= n.inputs().size());
  }

  private static List<Need> concrete(List<long[]> values) {
    List<Need> out = new ArrayList<>();
    values.forEach(v -> out.add(Need.of(v)));
    return out;
  }

  /** Axes as written (non-negative) first, then their negative spelling (exporters use both). */
  private static List<Need> signed(long[] axes, int rank) {
    if (axes == null) {
      return List.of();
    }
    long[] neg = new long[axes.length];
    for (int i = 0; i < axes.length; i++) {
      neg[i] = axes[i] - rank;
    }
    return List.of(Need.of(axes), Need.of(neg));
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
    List<Need> needs = new ArrayList<>();
    needs.add(new Need(want, fill, pos));
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
      combine(options, 0, new long[r], variants);
      for (long[] v : variants) {
        if (needs.size() >= MAX_ALTERNATIVES) {
          break;
        }
        if (!Arrays.equals(v, fill)) {
          needs.add(Need.of(v));
        }
      }
    }
    rule(out, n, 1, needs);
  }

  /** All combinations of per-position options with at most one -1, in option order. */
  private static void combine(long[][] options, int p, long[] acc, List<long[]> out) {
    if (out.size() >= MAX_ALTERNATIVES) {
      return;
    }
    if (p == options.length) {
      if (Arrays.stream(acc).filter(x -> x == -1).count() <= 1) {
        out.add(acc.clone());
      }
      return;
    }
    for (long x : options[p]) {
      acc[p] = x;
      combine(options, p + 1, acc, out);
    }
  }

  /** Permutations q with out[i] = in[q[i]] (dynamic matching dynamic), lowest-index choices first. */
  static List<long[]> permutations(long[] in, long[] out) {
    List<long[]> found = new ArrayList<>();
    if (in.length == out.length) {
      permute(in, out, 0, new long[out.length], new boolean[in.length], found);
    }
    return found;
  }

  private static void permute(long[] in, long[] out, int i, long[] acc, boolean[] used, List<long[]> found) {
    if (found.size() >= MAX_ALTERNATIVES) {
      return;
    }
    if (i == out.length) {
      found.add(acc.clone());
      return;
    }
    for (int j = 0; j < in.length; j++) {
      if (!used[j] && in[j] == out[i]) {
        used[j] = true;
        acc[i] = j;
        permute(in, out, i + 1, acc, used, found);
        used[j] = false;
      }
    }
  }

  /**
   * Positions of {@code longer} that are not in {@code shorter}, matching the rest in order (a
   * removed or inserted dim is 1); null when {@code shorter} is not such a subsequence.
   */
  static long[] removedAxes(long[] longer, long[] shorter) {
    List<Long> removed = new ArrayList<>();
    int j = 0;
    for (int i = 0; i < longer.length; i++) {
      int rest = longer.length - i;
      boolean mustRemove = rest > shorter.length - j && (j >= shorter.length || longer[i] != shorter[j]);
      if (!mustRemove && j < shorter.length && longer[i] == shorter[j]) {
        j++;
      } else {
        removed.add((long) i);
      }
    }
    return j == shorter.length ? removed.stream().mapToLong(Long::longValue).toArray() : null;
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
      axes = changedAxes(in, o, (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims())), true);
    } else {
      axes = removedAxes(in, o);
    }
    rule(out, n, 1, signed(axes, in.length));
  }

  /**
   * The axes where {@code in} and {@code out} differ, topped up with the last other axes (only
   * size-1 ones when {@code onlyOnes}, as a kept reduced axis is) until there are {@code count}.
   */
  private static long[] changedAxes(long[] in, long[] out, int count, boolean onlyOnes) {
    Set<Long> a = new java.util.TreeSet<>();
    for (int i = 0; i < in.length; i++) {
      if (in[i] != out[i]) {
        a.add((long) i);
      }
    }
    for (int i = in.length - 1; i >= 0 && a.size() < count; i--) {
      if (!onlyOnes || out[i] == 1) {
        a.add((long) i);
      }
    }
    return a.stream().mapToLong(Long::longValue).toArray();
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
    List<Need> needs = new ArrayList<>(concrete(axes));
    for (long[] a : axes) {
      needs.add(Need.of(a[0] - data.length));
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
      List<Need> needs = new ArrayList<>();
      needs.add(Need.of(lengths));
      for (int i = 0; i < lengths.length && lengths[i] >= 0; i++) {
        long[] v = lengths.clone();
        v[i] = -1;
        needs.add(Need.of(v));
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
      axes = changedAxes(in, o, (int) Math.max(1, Shapes.elementCount(n.inputs().get(axesInput).dims())), false);
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
      more.add(new Rule(axesInput, List.of(Need.of(axes)), why(n, axesInput)));
    }
    // Float scales go straight to the Const; integer inputs (sizes) through the rules.
    for (int k = 1; k < Math.min(axesInput, n.inputs().size()); k++) {
      int p = src[n.index()][k];
      ElementType t = p >= 0 && g.node(p).isConstant() ? constType(g.node(p)) : ElementType.UNDEFINED;
      if (p >= 0 && g.node(p).isConstant() && !isInteger(t)) {
        floats.put(p, scales);
      } else {
        more.add(new Rule(k, List.of(Need.of(sizes)), why(n, k)));
      }
    }
    rule(out, n, 0, List.of(), more);
  }

  private static long[] mask(OpNode n, String name, int count) {
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
    if (src[v][0] < 0 || evaluate(src[v][0], srcPort[v][0], Map.of()) != null) {
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
    List<Rule> more = List.of(new Rule(2, List.of(new Need(want, fill, pos)), why(n, 2)),
        new Rule(3, List.of(Need.of(stride)), why(n, 3)));
    rule(out, n, 1, List.of(Need.of(begin)), more);
  }

  private void slice(OpNode n, int v, long[] in, long[] o, List<Rule> out) {
    if (n.inputs().size() < 3 || src[v][0] < 0 || (evaluate(src[v][0], srcPort[v][0], Map.of()) != null && in.length == 1)) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] axes = changedAxes(in, o, count, false);
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
    more.add(new Rule(2, List.of(new Need(want, fill, pos)), why(n, 2)));
    more.add(new Rule(3, List.of(Need.of(ones)), why(n, 3)));
    more.add(new Rule(4, signed(axes, in.length), why(n, 4)));
    rule(out, n, 1, List.of(Need.of(zeros)), more);
  }

  private void broadcast(OpNode n, long[] in, long[] o, List<Rule> out) {
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
    rule(out, n, 1, List.of(new Need(want, fill, pos)));
  }

  private void tile(long[] in, long[] o, OpNode n, List<Rule> out) {
    long[] reps = new long[o.length];
    for (int i = 0; i < o.length; i++) {
      int j = i - (o.length - in.length);
      long d = j >= 0 ? in[j] : 1;
      reps[i] = o[i] < 0 || d <= 0 ? 1 : o[i] / d;
    }
    rule(out, n, 1, List.of(Need.of(reps)));
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
    rule(out, n, 1, List.of(Need.of(begin)), List.of(new Rule(2, List.of(Need.of(end)), why(n, 2))));
  }

  private void topK(OpNode n, long[] in, long[] o, List<Rule> out) {
    long axis = Shapes.parseLongs(n.attribute("axis") == null ? "-1" : n.attribute("axis"))[0];
    int a = (int) (axis < 0 ? axis + o.length : axis);
    if (a >= 0 && a < o.length && o[a] >= 0) {
      rule(out, n, 1, List.of(Need.of(o[a])));
    }
  }

  // ---------------------------------------------------------------- backwards propagation

  private boolean requireAny(int node, int port, List<Need> needs) {
    for (Need need : needs) {
      if (require(node, port, need, 0)) {
        return true;
      }
    }
    return false;
  }

  private boolean satisfiedByAny(int node, int port, List<Need> needs) {
    long[] v = evaluate(node, port, Map.of());
    if (v == null) {
      return false;
    }
    for (Need need : needs) {
      if (matches(v, need)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(long[] value, Need need) {
    if (value.length != need.want().length) {
      return false;
    }
    for (int i = 0; i < value.length; i++) {
      long w = need.want()[i];
      boolean ok = w == DYN ? value[i] == DYN || value[i] == need.fill()[i] : value[i] == w;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Makes output {@code port} of {@code node} hold {@code need}; false when that cannot be arranged. */
  private boolean require(int node, int port, Need need, int depth) {
    OpNode n = g.node(node);
    if (depth > 16) {
      return false;
    }
    if (n.isConstant()) {
      long[] value = need.materialize();
      if (!acceptable(node, value)) {
        long[] have = current(node);
        return have != null && matches(have, need);
      }
      addRequirement(node, List.of(value), "value required downstream");
      return true;
    }
    long len = need.want().length;
    switch (n.type()) {
      case "Convert", "Squeeze", "Unsqueeze", "Reshape" -> {
        if (Shapes.elementCount(n.inputs().get(0).dims()) == len && src[node][0] >= 0) {
          return require(src[node][0], srcPort[node][0], need, depth + 1);
        }
      }
      case "Concat" -> {
        int at = 0;
        for (int i = 0; i < n.inputs().size(); i++) {
          int k = (int) Shapes.elementCount(n.inputs().get(i).dims());
          if (at + k > len || src[node][i] < 0) {
            return false;
          }
          Need piece = need.slice(at, at + k);
          if (!matchesNow(src[node][i], srcPort[node][i], piece)
              && !require(src[node][i], srcPort[node][i], piece, depth + 1)) {
            return false;
          }
          at += k;
        }
        return at == len;
      }
      case "Gather" -> {
        if (gatherFromShape(node, need)) {
          return true;
        }
      }
      case "ScatterUpdate" -> {
        if (scatterIntoShape(node, need, depth)) {
          return true;
        }
      }
      default -> { }
    }
    return search(node, port, need);
  }

  private boolean matchesNow(int node, int port, Need need) {
    long[] v = evaluate(node, port, Map.of());
    return v != null && matches(v, need);
  }

  /** Gather from a known shape vector: picks the indices whose dims give {@code need}. */
  private boolean gatherFromShape(int node, Need need) {
    if (src[node].length < 3 || src[node][1] < 0 || !g.node(src[node][1]).isConstant()) {
      return false;
    }
    long[] data = evaluate(src[node][0], srcPort[node][0], Map.of());
    if (data == null || g.node(node).inputs().get(0).rank() != 1) {
      return false;
    }
    long[] idx = new long[need.want().length];
    for (int i = 0; i < idx.length; i++) {
      long w = need.want()[i];
      int k = -1;
      if (w != DYN) {
        for (int j = 0; j < data.length && k < 0; j++) {
          k = data[j] == w ? j : -1;
        }
      } else {
        k = dynamicDim(data, need.pos()[i], need.ordinal(i));
      }
      if (k < 0) {
        return false;
      }
      idx[i] = k;
    }
    int idxNode = src[node][1];
    if (!acceptable(idxNode, idx)) {
      // Another consumer fixed these indices; fine if they pick equal dims.
      long[] picked = evaluate(node, 0, Map.of());
      return picked != null && matches(picked, need);
    }
    addRequirement(idxNode, List.of(idx), "Gather '" + g.node(node).name() + "' indices into a shape");
    int axisNode = src[node][2];
    if (axisNode >= 0 && g.node(axisNode).isConstant() && current(axisNode) == null) {
      addRequirement(axisNode, List.of(new long[] {0}), "Gather '" + g.node(node).name() + "' axis of a shape");
    }
    return true;
  }

  /** The dim of a shape that a dynamic target entry at {@code pos} (the k-th dynamic one) stands for. */
  static int dynamicDim(long[] shape, int pos, int ordinal) {
    if (pos >= 0 && pos < shape.length && shape[pos] == DYN) {
      return pos;
    }
    int seen = 0;
    int first = -1;
    for (int j = 0; j < shape.length; j++) {
      if (shape[j] == DYN) {
        if (seen++ == ordinal) {
          return j;
        }
        first = first < 0 ? j : first;
      }
    }
    return first;
  }

  /** ScatterUpdate writing computed dims into a constant vector: constant parts in data, dynamic parts updated. */
  private boolean scatterIntoShape(int node, Need need, int depth) {
    int[] s = src[node];
    if (s.length < 4 || s[0] < 0 || !g.node(s[0]).isConstant() || s[1] < 0 || !g.node(s[1]).isConstant()) {
      return false;
    }
    List<Integer> dyn = new ArrayList<>();
    for (int i = 0; i < need.want().length; i++) {
      if (need.want()[i] == DYN) {
        dyn.add(i);
      }
    }
    long updates = Shapes.elementCount(g.node(node).inputs().get(2).dims());
    if (dyn.size() != updates) {
      return false;
    }
    long[] data = need.materialize();
    long[] idx = new long[dyn.size()];
    for (int i = 0; i < idx.length; i++) {
      data[dyn.get(i)] = 0;
      idx[i] = dyn.get(i);
    }
    String why = "ScatterUpdate '" + g.node(node).name() + "'";
    addRequirement(s[0], List.of(data), why + " data");
    addRequirement(s[1], List.of(idx), why + " indices");
    if (s[3] >= 0 && g.node(s[3]).isConstant()) {
      addRequirement(s[3], List.of(new long[] {0}), why + " axis");
    }
    long[] want = new long[idx.length];
    long[] fill = new long[idx.length];
    int[] pos = new int[idx.length];
    for (int i = 0; i < idx.length; i++) {
      want[i] = DYN;
      fill[i] = need.fill()[dyn.get(i)];
      pos[i] = need.pos()[dyn.get(i)];
    }
    return s[2] >= 0 && require(s[2], srcPort[node][2], new Need(want, fill, pos), depth + 1);
  }

  /**
   * For ops that cannot be inverted: tries small values for up to three free integer Consts
   * upstream and keeps the first assignment under which the subgraph evaluates to {@code need}.
   */
  private boolean search(int node, int port, Need need) {
    List<Integer> free = new ArrayList<>();
    collectFree(node, free, new java.util.HashSet<>(), 0);
    if (free.isEmpty() || free.size() > 3) {
      return false;
    }
    int k = free.size();
    int[] choice = new int[k];
    while (true) {
      Map<Integer, long[]> trial = new HashMap<>();
      for (int i = 0; i < k; i++) {
        long[] v = new long[(int) constCount(g.node(free.get(i)))];
        Arrays.fill(v, TRIALS[choice[i]]);
        trial.put(free.get(i), v);
      }
      long[] got = evaluate(node, port, trial);
      if (got != null && matches(got, need)) {
        for (int i = 0; i < k; i++) {
          addRequirement(free.get(i), List.of(trial.get(free.get(i))),
              "found by evaluating '" + g.node(node).name() + "' (" + g.node(node).type() + ")");
        }
        return true;
      }
      int i = 0;
      while (i < k && ++choice[i] == TRIALS.length) {
        choice[i++] = 0;
      }
      if (i == k) {
        return false;
      }
    }
  }

  private void collectFree(int node, List<Integer> free, Set<Integer> seen, int depth) {
    if (!seen.add(node) || depth > 12) {
      return;
    }
    OpNode n = g.node(node);
    if (n.isConstant()) {
      if (current(node) == null && isShapeInteger(constType(n)) && constCount(n) <= 4) {
        free.add(node);
      }
      return;
    }
    if ("ShapeOf".equals(n.type()) || (depth > 0 && isTensor(n))) {
      return; // the search stays inside the shape computation
    }
    for (int s : src[node]) {
      if (s >= 0) {
        collectFree(s, free, seen, depth + 1);
      }
    }
  }

  // ---------------------------------------------------------------- forward evaluation of shape subgraphs

  /**
   * The value of a small integer tensor, {@link #DYN} for unknown entries; null when it is not a
   * shape computation this class evaluates. {@code trial} overrides Const values.
   */
  long[] evaluate(int node, int port, Map<Integer, long[]> trial) {
    return evaluate(node, port, trial, 0);
  }

  private long[] evaluate(int node, int port, Map<Integer, long[]> trial, int depth) {
    OpNode n = g.node(node);
    if (depth > 32) {
      return null;
    }
    if (n.isConstant()) {
      if (!isInteger(constType(n))) {
        return null;
      }
      return trial.containsKey(node) ? trial.get(node) : current(node);
    }
    if ("ShapeOf".equals(n.type())) {
      long[] d = n.inputs().get(0).dims();
      for (int i = 0; i < d.length; i++) {
        d[i] = d[i] < 0 ? DYN : d[i];
      }
      return d;
    }
    if (n.outputs().isEmpty() || isTensor(n)) {
      return null;
    }
    // Value-preserving ops read only their data input (a Squeeze's axes may not be known yet).
    boolean dataOnly = Set.of("Convert", "Squeeze", "Unsqueeze", "Reshape").contains(n.type());
    long[][] in = new long[dataOnly ? 1 : src[node].length][];
    for (int i = 0; i < in.length; i++) {
      if (src[node][i] < 0) {
        return null;
      }
      // Only the inputs an op reads as values; a Gather's data and a ShapeOf's input are handled above.
      in[i] = evaluate(src[node][i], srcPort[node][i], trial, depth + 1);
      if (in[i] == null) {
        return null;
      }
    }
    return apply(n, in);
  }

  /** True for an op whose output is a data tensor rather than a shape-sized vector or scalar. */
  private static boolean isTensor(OpNode n) {
    return !n.outputs().isEmpty() && n.outputs().get(0).rank() > 1 && Shapes.elementCount(n.outputs().get(0).dims()) > 1;
  }

  private static long[] apply(OpNode n, long[][] in) {
    String t = n.type();
    switch (t) {
      case "Convert", "Squeeze", "Unsqueeze", "Reshape" -> {
        return in[0];
      }
      case "Concat" -> {
        return Arrays.stream(in).flatMapToLong(Arrays::stream).toArray();
      }
      case "Gather" -> {
        if (in.length < 3 || in[2].length != 1 || (in[2][0] != 0 && in[2][0] != -1) || n.inputs().get(0).rank() != 1) {
          return null;
        }
        long[] out = new long[in[1].length];
        for (int i = 0; i < out.length; i++) {
          long k = in[1][i] < 0 ? in[1][i] + in[0].length : in[1][i];
          if (k < 0 || k >= in[0].length) {
            return null;
          }
          out[i] = in[0][(int) k];
        }
        return out;
      }
      case "Select" -> {
        int len = Math.max(in[0].length, Math.max(in[1].length, in[2].length));
        long[] out = new long[len];
        for (int i = 0; i < len; i++) {
          long c = at(in[0], i);
          long a = at(in[1], i);
          long b = at(in[2], i);
          out[i] = c == DYN ? (a == b ? a : DYN) : c != 0 ? a : b;
        }
        return out;
      }
      case "ScatterUpdate" -> {
        if (in[3].length != 1 || in[3][0] != 0 || in[1].length != in[2].length) {
          return null;
        }
        long[] out = in[0].clone();
        for (int i = 0; i < in[1].length; i++) {
          if (in[1][i] < 0 || in[1][i] >= out.length) {
            return null;
          }
          out[(int) in[1][i]] = in[2][i];
        }
        return out;
      }
      case "StridedSlice", "Slice" -> {
        return slice1d(n, in);
      }
      default -> {
        return ELEMENTWISE.contains(t) ? elementwise(n, in) : null;
      }
    }
  }

  private static long at(long[] v, int i) {
    return v.length == 1 ? v[0] : i < v.length ? v[i] : DYN;
  }

  private static long[] elementwise(OpNode n, long[][] in) {
    if (in.length != 2 || (in[0].length != in[1].length && in[0].length != 1 && in[1].length != 1)) {
      return null;
    }
    boolean pythonDiv = OpAttributes.isTrue(n.attribute("m_pythondiv")) || n.attribute("m_pythondiv") == null;
    int len = Math.max(in[0].length, in[1].length);
    long[] out = new long[len];
    for (int i = 0; i < len; i++) {
      long a = at(in[0], i);
      long b = at(in[1], i);
      if (a == DYN || b == DYN) {
        out[i] = DYN;
        continue;
      }
      switch (n.type()) {
        case "Add" -> out[i] = a + b;
        case "Subtract" -> out[i] = a - b;
        case "Multiply" -> out[i] = a * b;
        case "Divide" -> {
          if (b == 0) {
            return null;
          }
          out[i] = pythonDiv ? Math.floorDiv(a, b) : a / b;
        }
        case "Mod" -> {
          if (b == 0) {
            return null;
          }
          out[i] = a % b;
        }
        case "FloorMod" -> {
          if (b == 0) {
            return null;
          }
          out[i] = Math.floorMod(a, b);
        }
        case "Greater" -> out[i] = a > b ? 1 : 0;
        case "GreaterEqual" -> out[i] = a >= b ? 1 : 0;
        case "Less" -> out[i] = a < b ? 1 : 0;
        case "LessEqual" -> out[i] = a <= b ? 1 : 0;
        case "Equal" -> out[i] = a == b ? 1 : 0;
        case "NotEqual" -> out[i] = a != b ? 1 : 0;
        case "Maximum" -> out[i] = Math.max(a, b);
        case "Minimum" -> out[i] = Math.min(a, b);
        default -> {
          return null;
        }
      }
    }
    return out;
  }

  /** Slicing a 1-D vector with one bound each (the shape-subgraph case). */
  private static long[] slice1d(OpNode n, long[][] in) {
    if (n.inputs().get(0).rank() != 1 || in[1].length != 1 || in[2].length != 1 || in.length < 4 || in[3].length != 1) {
      return null;
    }
    long len = in[0].length;
    long step = in[3][0];
    if (step != 1) {
      return null;
    }
    boolean ss = "StridedSlice".equals(n.type());
    long b = ss && mask(n, "begin_mask", 1)[0] != 0 ? 0 : in[1][0];
    long e = ss && mask(n, "end_mask", 1)[0] != 0 ? len : in[2][0];
    b = Math.max(0, Math.min(len, b < 0 ? b + len : b));
    e = Math.max(0, Math.min(len, e < 0 ? e + len : e));
    return e <= b ? new long[0] : Arrays.copyOfRange(in[0], (int) b, (int) e);
  }

  // ---------------------------------------------------------------- defaults

  private void defaultFor(int v) {
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
        addRequirement(v, List.of(new long[] {value}), why(cn, e.targetInput()));
        note(cn, e.targetInput(), "slice of a shape vector with no requirement downstream; "
            + "took its last " + m + " entries");
        return;
      }
      boolean divisor = (t.equals("Divide") || t.equals("Mod") || t.equals("FloorMod")) && e.targetInput() == 1;
      boolean stride = (t.equals("StridedSlice") || t.equals("Slice")) && e.targetInput() == 3;
      if (divisor || stride) {
        // Zero would divide by zero or make an invalid slice; one is safe.
        long[] ones = new long[(int) constCount(g.node(v))];
        Arrays.fill(ones, 1);
        addRequirement(v, List.of(ones), why(cn, e.targetInput()) + (divisor ? " (divisor)" : " (stride)"));
        return;
      }
    }
  }
}
