package org.hsdag.ir;

import static org.hsdag.ir.OpShapes.arity;
import static org.hsdag.ir.OpShapes.attr;
import static org.hsdag.ir.OpShapes.constValues;
import static org.hsdag.ir.OpShapes.normAxis;
import static org.hsdag.ir.OpShapes.one;
import static org.hsdag.ir.OpShapes.sameType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.OpShapes.Input;
import org.hsdag.ir.OpShapes.Output;

/**
 * The shape rules of the ops that rearrange dims (Reshape, Squeeze, Unsqueeze, Transpose) or work
 * along axes (Concat, Gather, Split, the reductions, TopK): forwards from the shape inputs' values,
 * forwards from the IR's port dims, and backwards (the target, axes or order that give the IR's
 * output dims). From port dims, a reshape's dynamic axes take the input's in order ({@code
 * special_zero} patterns such as {@code [0,0,12,64]}) when the element count agrees, else the one
 * axis the count solves; a Gather's axis is the last one that reproduces the static output dims.
 */
final class LayoutShapes {
  private LayoutShapes() {}

  static void register(Map<String, OpRule> m) {
    OpRule view = OpRule.values(1).keepingValues()
        .withConcrete((node, port, in, ir) -> reshaped(in[0], node.inputs().get(0).dims(), ir));
    OpRule.add(m, view.withForward(LayoutShapes::reshape).withBackward(LayoutShapes::reshapeNeeds), "Reshape");
    OpRule.add(m, view.withBackward((s, n, in, o, out) -> ShapeNeeds.rule(out, n, 1,
        ShapeNeeds.signed(ShapeVectors.removedAxes(in, o), in.length))), "Squeeze");
    OpRule.add(m, view.withForward(LayoutShapes::unsqueeze).withBackward(
        (s, n, in, o, out) -> ShapeNeeds.rule(out, n, 1, ShapeNeeds.signed(ShapeVectors.removedAxes(o, in), o.length))),
        "Unsqueeze");
    OpRule.add(m,
        OpRule.values(1).withForward(LayoutShapes::transpose).withBackward(
            (s, n, in, o, out) -> ShapeNeeds.rule(out, n, 1, ShapeNeeds.exactly(ShapeVectors.permutations(in, o)))),
        "Transpose");
    OpRule.add(m, OpRule.NONE.withForward(LayoutShapes::concat).withConcrete((node, port, in, ir) -> {
      String axis = node.attribute("axis");
      return axis == null ? null : ShapeMath.concat(in, Integer.parseInt(axis.trim()));
    }), "Concat");
    OpRule.add(m, OpRule.values(2).withForward(LayoutShapes::gather).withBackward(LayoutShapes::gatherNeeds)
        .withConcrete((node, port, in, ir) -> in.length < 2 ? null : gather(node, in[0], in[1], ir)), "Gather");
    OpRule.add(m, OpRule.values(1).withBackward(LayoutShapes::splitNeeds), "Split");
    OpRule.add(m, OpRule.values(1, 2).withBackward(LayoutShapes::splitNeeds), "VariadicSplit");
    OpRule reduce = OpRule.values(1).withBackward(LayoutShapes::reduceNeeds);
    OpRule.add(m, reduce.withForward(LayoutShapes::reduce), "ReduceMean");
    OpRule.add(m, reduce, "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogicalAnd", "ReduceLogicalOr");
    OpRule.add(m, OpRule.values(1).sizedByValues().withBackward(LayoutShapes::topKNeeds), "TopK");
  }

  private static List<Output> reshape(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] target = constValues(type, in.get(1), "target shape");
    boolean specialZero = Boolean.parseBoolean(attr(type, attrs, "special_zero"));
    long[] out = new long[target.length];
    int minusOne = -1;
    long known = 1;
    for (int i = 0; i < target.length; i++) {
      long t = target[i];
      if (t == 0 && specialZero) {
        if (i >= x.length) {
          throw new IrException(type + ": special zero at axis " + i + " beyond input rank " + x.length);
        }
        out[i] = x[i];
      } else if (t == -1) {
        if (minusOne >= 0) {
          throw new IrException(type + ": more than one -1 in target shape " + Arrays.toString(target));
        }
        minusOne = i;
        continue;
      } else if (t < 0) {
        throw new IrException(type + ": bad target dimension " + t);
      } else {
        out[i] = t;
      }
      known *= out[i];
    }
    long total = Shapes.elementCount(x);
    if (minusOne >= 0) {
      if (known == 0 || total % known != 0) {
        throw new IrException(type + ": cannot infer -1 in " + Arrays.toString(target) + " from " + Arrays.toString(x));
      }
      out[minusOne] = total / known;
    } else if (known != total) {
      throw new IrException(type + ": cannot reshape " + Arrays.toString(x) + " (" + total + " elements) to "
          + Arrays.toString(out));
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> transpose(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] perm = constValues(type, in.get(1), "order");
    if (perm.length != x.length) {
      throw new IrException(type + ": order " + Arrays.toString(perm) + " does not match rank " + x.length);
    }
    boolean[] seen = new boolean[x.length];
    long[] out = new long[x.length];
    for (int i = 0; i < perm.length; i++) {
      int p = normAxis(type, perm[i], x.length);
      if (seen[p]) {
        throw new IrException(type + ": order " + Arrays.toString(perm) + " repeats axis " + p);
      }
      seen[p] = true;
      out[i] = x[p];
    }
    return one(in.get(0).type(), out);
  }

  private static List<Output> unsqueeze(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] axes = constValues(type, in.get(1), "axes");
    int rank = x.length + axes.length;
    boolean[] inserted = new boolean[rank];
    for (long a : axes) {
      int p = normAxis(type, a, rank);
      if (inserted[p]) {
        throw new IrException(type + ": axis " + a + " repeated");
      }
      inserted[p] = true;
    }
    long[] out = new long[rank];
    int k = 0;
    for (int i = 0; i < rank; i++) {
      out[i] = inserted[i] ? 1 : x[k++];
    }
    return one(in.get(0).type(), out);
  }

  private static void reshapeNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    boolean specialZero = OpAttributes.isTrue(n.attribute("special_zero"));
    int r = o.length;
    long[] want = new long[r];
    long[] fill = new long[r];
    int[] pos = new int[r];
    int inferred = 0;
    for (int p = 0; p < r; p++) {
      pos[p] = p;
      want[p] = o[p] < 0 ? ShapeConstants.DYN : o[p];
      boolean copies = specialZero && p < in.length && in[p] < 0;
      fill[p] = o[p] < 0 ? (copies ? 0 : -1) : o[p];
      if (o[p] < 0 && !copies) {
        inferred++;
      }
    }
    if (inferred > 1 && s.constFed(n, 1)) {
      s.note(n, 1, inferred + " dynamic dims cannot be copied from the input; only one may be -1");
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
        if (needs.size() >= ShapeConstants.MAX_ALTERNATIVES) {
          break;
        }
        if (!Arrays.equals(v, fill)) {
          needs.add(ValueNeed.of(v));
        }
      }
    }
    ShapeNeeds.rule(out, n, 1, needs);
  }

  /**
   * A reshape's output: the dynamic axes in order from the input's, kept when the element count
   * agrees; else the first dynamic axis whose size the element count solves, the others in order.
   */
  private static long[] reshaped(long[] in, long[] inIr, long[] ir) {
    long total = product(in);
    long[] ordered = ShapeMath.inOrder(in, inIr, ir);
    if (ordered != null && product(ordered) == total) {
      return ordered;
    }
    long[] base = ordered != null ? ordered : ir.clone();
    for (int a = 0; a < ir.length; a++) {
      if (ir[a] >= 0) {
        continue;
      }
      long[] out = base.clone();
      out[a] = 1;
      long rest = 1;
      boolean known = true;
      for (int o = 0; o < out.length; o++) {
        known &= out[o] >= 0;
        rest *= Math.max(out[o], 1);
      }
      if (known && rest > 0 && total % rest == 0) {
        out[a] = total / rest;
        return out;
      }
    }
    return null;
  }

  private static long product(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }

  private static List<Output> concat(String type, Map<String, String> attrs, List<Input> in) {
    if (in.isEmpty()) {
      throw new IrException(type + ": needs at least one input");
    }
    sameType(type, in);
    long[] first = in.get(0).dims();
    int axis = normAxis(type, Long.parseLong(attr(type, attrs, "axis")), first.length);
    long[][] dims = new long[in.size()][];
    for (int i = 0; i < dims.length; i++) {
      long[] d = in.get(i).dims();
      if (d.length != first.length) {
        throw new IrException(type + ": inputs have different ranks");
      }
      for (int k = 0; k < d.length; k++) {
        if (k != axis && d[k] != first[k] && d[k] >= 0 && first[k] >= 0) {
          throw new IrException(type + ": inputs differ in dimension " + k + " (" + first[k] + " vs " + d[k] + ")");
        }
      }
      dims[i] = d;
    }
    return one(in.get(0).type(), ShapeMath.concat(dims, axis));
  }

  private static List<Output> gather(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 3);
    if (!"0".equals(attrs.getOrDefault("batch_dims", "0").trim())) {
      throw new IrException(type + ": only batch_dims=0 is supported by the model builders");
    }
    long[] data = in.get(0).dims();
    long[] idx = in.get(1).dims();
    long[] axisVal = constValues(type, in.get(2), "axis");
    if (axisVal.length != 1) {
      throw new IrException(type + ": axis must hold one value");
    }
    int axis = normAxis(type, axisVal[0], data.length);
    return one(in.get(0).type(), ShapeMath.gather(data, idx, axis, 0));
  }

  private static List<Output> reduce(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    boolean keep = Boolean.parseBoolean(attr(type, attrs, "keep_dims"));
    boolean[] reduced = new boolean[x.length];
    for (long a : constValues(type, in.get(1), "axes")) {
      reduced[normAxis(type, a, x.length)] = true;
    }
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      if (!reduced[i]) {
        out.add(x[i]);
      } else if (keep) {
        out.add(1L);
      }
    }
    return one(in.get(0).type(), out.stream().mapToLong(Long::longValue).toArray());
  }

  private static void reduceNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    if (n.inputs().size() < 2) {
      return;
    }
    long[] axes;
    if (o.length == in.length) {
      axes = ShapeVectors.changedAxes(in, o, (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims())), true);
    } else {
      axes = ShapeVectors.removedAxes(in, o);
    }
    ShapeNeeds.rule(out, n, 1, ShapeNeeds.signed(axes, in.length));
  }

  private static void gatherNeeds(ShapeNeeds s, OpNode n, long[] data, long[] o, List<ShapeNeeds.Rule> out) {
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
    List<ValueNeed> needs = new ArrayList<>(ShapeNeeds.exactly(axes));
    for (long[] a : axes) {
      needs.add(ValueNeed.of(a[0] - data.length));
    }
    ShapeNeeds.rule(out, n, 2, needs);
  }

  private static void splitNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
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
      s.note(n, 1, "no axis splits the input into the output dims");
      return;
    }
    List<ShapeNeeds.Rule> more = new ArrayList<>();
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
      more.add(new ShapeNeeds.Rule(2, needs, ShapeNeeds.why(n, 2)));
    }
    ShapeNeeds.rule(out, n, 1, ShapeNeeds.signed(new long[] {axis}, in.length), more);
  }

  private static void topKNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    long axis = Shapes.parseLongs(n.attribute("axis") == null ? "-1" : n.attribute("axis"))[0];
    int a = (int) (axis < 0 ? axis + o.length : axis);
    if (a >= 0 && a < o.length && o[a] >= 0) {
      ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(o[a])));
    }
  }

  private static long[] gather(OpNode node, long[] data, long[] indices, long[] ir) {
    String b = node.attribute("batch_dims");
    int batchDims = b == null ? 0 : Integer.parseInt(b.trim());
    if (batchDims < 0) {
      batchDims += indices.length;
    }
    // The last axis that fits: a select such as hidden[:, 0] fits axis 0 too, but batches are not gathered.
    for (int axis = data.length - 1; axis >= Math.max(batchDims, 0); axis--) {
      long[] out = ShapeMath.gather(data, indices, axis, batchDims);
      if (fits(out, ir)) {
        return out;
      }
    }
    return null;
  }

  /** True when {@code out} has {@code ir}'s rank and agrees with each of its static dims. */
  private static boolean fits(long[] out, long[] ir) {
    if (out.length != ir.length) {
      return false;
    }
    for (int a = 0; a < ir.length; a++) {
      if (ir[a] >= 0 && ir[a] != out[a]) {
        return false;
      }
    }
    return true;
  }
}
