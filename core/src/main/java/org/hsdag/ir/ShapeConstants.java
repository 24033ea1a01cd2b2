package org.hsdag.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
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
  /** Values tried for the free constants of a subgraph that cannot be inverted. */
  private static final long[] TRIALS = {1, 2, 0, 3, 4, -1, 8, 16};
  static final int MAX_ALTERNATIVES = 64;

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
  record Result(Map<Integer, List<Requirement>> integers, Map<Integer, double[]> floats,
      List<SyntheticWeights.Note> notes) {}

  private final OpGraph g;
  private final Map<Integer, List<Requirement>> reqs = new HashMap<>();
  private final Map<Integer, double[]> floats = new HashMap<>();
  private final List<SyntheticWeights.Note> notes = new ArrayList<>();
  /** Const nodes by their .bin region, to see values a sibling sharing the bytes was given. */
  private final Map<List<Long>, List<Integer>> byRegion = new HashMap<>();

  private ShapeConstants(OpGraph g) {
    this.g = g;
    for (OpNode node : g.nodes()) {
      if (node.isConstant()) {
        byRegion.computeIfAbsent(List.of(node.constOffset(), node.constSize()), k -> new ArrayList<>())
            .add(node.index());
      }
    }
  }

  /** The node feeding input {@code k} of {@code node}, or -1. */
  int src(int node, int k) {
    int e = g.inputEdge(node, k);
    return e < 0 ? -1 : g.edge(e).source();
  }

  /** The output port of {@link #src}'s node that feeds input {@code k}. */
  int port(int node, int k) {
    int e = g.inputEdge(node, k);
    return e < 0 ? 0 : g.edge(e).sourceOutput();
  }

  /** Derives what can be derived for {@code graph}. */
  static Result derive(OpGraph graph) {
    ShapeConstants s = derived(graph);
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
    ShapeNeeds shapeRules = new ShapeNeeds(this, g);
    List<List<ShapeNeeds.Rule>> rules = new ArrayList<>();
    for (int v = 0; v < g.nodeCount(); v++) {
      rules.add(null);
    }
    // 1. Inputs fed by a Const, derived from the consumer's own port dims.
    for (int v : order) {
      rules.set(v, shapeRules.rules(v));
      for (ShapeNeeds.Rule r : rules.get(v)) {
        int p = src(v, r.input());
        if (p >= 0 && g.node(p).isConstant()) {
          addRequirement(p, r.alternatives(), r.why());
        }
      }
    }
    // 2. Inputs fed by a computed subgraph: requirements flow backwards, so consumers go last-first.
    for (int i = order.length - 1; i >= 0; i--) {
      int v = order[i];
      for (ShapeNeeds.Rule r : rules.get(v)) {
        int p = src(v, r.input());
        if (p >= 0 && !g.node(p).isConstant() && !satisfiedByAny(p, port(v, r.input()), r.needs())
            && !requireAny(p, port(v, r.input()), r.needs())) {
          note(g.node(v), r.input(), "not derivable through a " + g.node(p).type() + "; left to the defaults");
        }
      }
    }
    // 3. Integer Consts left free: slices of shape vectors default to the trailing window, divisors to 1.
    for (int v : order) {
      OpNode n = g.node(v);
      if (n.isConstant() && isInteger(constType(n)) && current(v) == null) {
        shapeRules.defaultFor(v);
        if (current(v) == null && !SyntheticWeights.isQuantizedWeight(constType(n))) {
          notes.add(new SyntheticWeights.Note("integer Const", n.name(),
              "no shape-like consumer constrains it; zeros (a valid index and count everywhere)"));
        }
      }
    }
  }

  /** Records float values derived for a Const (Interpolate scales). */
  void deriveFloats(int constNode, double[] values) {
    floats.put(constNode, values);
  }

  void note(OpNode n, int input, String message) {
    notes.add(new SyntheticWeights.Note(n.type() + " input " + input, n.name(), message));
  }

  static ElementType constType(OpNode n) {
    String t = n.attribute("element_type");
    return t == null ? ElementType.UNDEFINED : ElementType.parse(t);
  }

  long constCount(OpNode n) {
    long[] shape = Shapes.parseShape(n.attribute("shape") == null ? "" : n.attribute("shape"));
    return shape == null ? 0 : Shapes.elementCount(shape);
  }

  void addRequirement(int constNode, List<long[]> alternatives, String why) {
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

  // ---------------------------------------------------------------- backwards propagation

  private boolean requireAny(int node, int port, List<ValueNeed> needs) {
    for (ValueNeed need : needs) {
      if (require(node, port, need, 0)) {
        return true;
      }
    }
    return false;
  }

  private boolean satisfiedByAny(int node, int port, List<ValueNeed> needs) {
    long[] v = evaluate(node, port, Map.of());
    if (v == null) {
      return false;
    }
    for (ValueNeed need : needs) {
      if (need.matches(v)) {
        return true;
      }
    }
    return false;
  }

  /** Makes output {@code port} of {@code node} hold {@code need}; false when that cannot be arranged. */
  private boolean require(int node, int port, ValueNeed need, int depth) {
    OpNode n = g.node(node);
    if (depth > 16) {
      return false;
    }
    if (n.isConstant()) {
      long[] value = need.materialize();
      if (!acceptable(node, value)) {
        long[] have = current(node);
        return have != null && need.matches(have);
      }
      addRequirement(node, List.of(value), "value required downstream");
      return true;
    }
    long len = need.length();
    if (OpRule.of(n.type()).keepsValues()) {
      if (Shapes.elementCount(n.inputs().get(0).dims()) == len && src(node, 0) >= 0) {
        return require(src(node, 0), port(node, 0), need, depth + 1);
      }
      return search(node, port, need);
    }
    switch (n.type()) {
      case "Concat" -> {
        int at = 0;
        for (int i = 0; i < n.inputs().size(); i++) {
          int k = (int) Shapes.elementCount(n.inputs().get(i).dims());
          if (at + k > len || src(node, i) < 0) {
            return false;
          }
          ValueNeed piece = need.slice(at, at + k);
          if (!matchesNow(src(node, i), port(node, i), piece)
              && !require(src(node, i), port(node, i), piece, depth + 1)) {
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
      default -> {
      }
    }
    return search(node, port, need);
  }

  private boolean matchesNow(int node, int port, ValueNeed need) {
    long[] v = evaluate(node, port, Map.of());
    return v != null && need.matches(v);
  }

  /** Gather from a known shape vector: picks the indices whose dims give {@code need}. */
  private boolean gatherFromShape(int node, ValueNeed need) {
    if (g.node(node).inputs().size() < 3 || src(node, 1) < 0 || !g.node(src(node, 1)).isConstant()) {
      return false;
    }
    long[] data = evaluate(src(node, 0), port(node, 0), Map.of());
    if (data == null || g.node(node).inputs().get(0).rank() != 1) {
      return false;
    }
    long[] idx = new long[need.length()];
    for (int i = 0; i < idx.length; i++) {
      long w = need.want(i);
      int k = -1;
      if (w != DYN) {
        for (int j = 0; j < data.length && k < 0; j++) {
          k = data[j] == w ? j : -1;
        }
      } else {
        k = ShapeVectors.dynamicDim(data, need.pos(i), need.ordinal(i));
      }
      if (k < 0) {
        return false;
      }
      idx[i] = k;
    }
    int idxNode = src(node, 1);
    if (!acceptable(idxNode, idx)) {
      // Another consumer fixed these indices; fine if they pick equal dims.
      long[] picked = evaluate(node, 0, Map.of());
      return picked != null && need.matches(picked);
    }
    addRequirement(idxNode, List.of(idx), "Gather '" + g.node(node).name() + "' indices into a shape");
    int axisNode = src(node, 2);
    if (axisNode >= 0 && g.node(axisNode).isConstant() && current(axisNode) == null) {
      addRequirement(axisNode, List.of(new long[] {0}), "Gather '" + g.node(node).name() + "' axis of a shape");
    }
    return true;
  }

  /** ScatterUpdate writing computed dims into a constant vector: constant parts in data, dynamic parts updated. */
  private boolean scatterIntoShape(int node, ValueNeed need, int depth) {
    int[] s = new int[g.node(node).inputs().size()];
    Arrays.setAll(s, k -> src(node, k));
    if (s.length < 4 || s[0] < 0 || !g.node(s[0]).isConstant() || s[1] < 0 || !g.node(s[1]).isConstant()) {
      return false;
    }
    List<Integer> dyn = new ArrayList<>();
    for (int i = 0; i < need.length(); i++) {
      if (need.want(i) == DYN) {
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
      fill[i] = need.fill(dyn.get(i));
      pos[i] = need.pos(dyn.get(i));
    }
    return s[2] >= 0 && require(s[2], port(node, 2), new ValueNeed(want, fill, pos), depth + 1);
  }

  /**
   * For ops that cannot be inverted: tries small values for up to three free integer Consts
   * upstream and keeps the first assignment under which the subgraph evaluates to {@code need}.
   */
  private boolean search(int node, int port, ValueNeed need) {
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
      if (got != null && need.matches(got)) {
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
    if ("ShapeOf".equals(n.type()) || (depth > 0 && IntegerOps.isTensor(n))) {
      return; // the search stays inside the shape computation
    }
    for (int k = 0; k < n.inputs().size(); k++) {
      if (src(node, k) >= 0) {
        collectFree(src(node, k), free, seen, depth + 1);
      }
    }
  }

  // ---------------------------------------------------------------- forward evaluation of shape subgraphs

  /**
   * The value of a small integer tensor, {@link #DYN} for unknown entries; null when it is not a
   * shape computation this class evaluates. {@code trial} overrides Const values.
   */
  long[] evaluate(int node, int port, Map<Integer, long[]> trial) {
    return evaluate(node, port, trial, null, 0);
  }

  /**
   * The value of a shape computation once the model's inputs have concrete sizes: a ShapeOf reads
   * {@code shapeOfInput} (the concrete shape of its input, by the ShapeOf's node index), the
   * Consts their derived values. Null when an entry stays unknown.
   */
  long[] evaluate(int node, java.util.function.IntFunction<long[]> shapeOfInput) {
    long[] v = evaluate(node, 0, Map.of(), shapeOfInput, 0);
    return v == null || Arrays.stream(v).anyMatch(x -> x == DYN) ? null : v;
  }

  /** Derives the constants' values of {@code graph}, kept for {@link #evaluate(int, java.util.function.IntFunction)}. */
  static ShapeConstants derived(OpGraph graph) {
    ShapeConstants s = new ShapeConstants(graph);
    s.run();
    return s;
  }

  private long[] evaluate(int node, int port, Map<Integer, long[]> trial, java.util.function.IntFunction<long[]> shapes,
      int depth) {
    OpNode n = g.node(node);
    // Every op evaluated here (Const, ShapeOf, the integer ops) has a single output.
    if (depth > 32 || port != 0) {
      return null;
    }
    if (n.isConstant()) {
      if (!isInteger(constType(n))) {
        return null;
      }
      return trial.containsKey(node) ? trial.get(node) : current(node);
    }
    if ("ShapeOf".equals(n.type())) {
      long[] d = shapes != null ? shapes.apply(node) : n.inputs().get(0).dims();
      for (int i = 0; i < d.length; i++) {
        d[i] = d[i] < 0 ? DYN : d[i];
      }
      return d;
    }
    if (n.outputs().isEmpty() || IntegerOps.isTensor(n)) {
      return null;
    }
    // Value-preserving ops read only their data input (a Squeeze's axes may not be known yet).
    boolean dataOnly = OpRule.of(n.type()).keepsValues();
    long[][] in = new long[dataOnly ? 1 : n.inputs().size()][];
    for (int i = 0; i < in.length; i++) {
      if (src(node, i) < 0) {
        return null;
      }
      // Only the inputs an op reads as values; a Gather's data and a ShapeOf's input are handled above.
      in[i] = evaluate(src(node, i), port(node, i), trial, shapes, depth + 1);
      if (in[i] == null) {
        return null;
      }
    }
    return IntegerOps.apply(n, in);
  }

}
