package org.hsdag.ir;

import static org.hsdag.ir.OpShapes.arity;
import static org.hsdag.ir.OpShapes.constValues;
import static org.hsdag.ir.OpShapes.one;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.ir.OpShapes.Input;
import org.hsdag.ir.OpShapes.Output;

/**
 * The shape rules of the ops whose output size is the value of an input (Range, Broadcast, Tile,
 * Pad, the slices, Interpolate, detection heads ...): forwards from those values (no rule from the
 * IR's port dims alone), and backwards, the bounds, sizes or scales that give the IR's output dims.
 */
final class SizedShapes {
  private SizedShapes() {}

  static void register(Map<String, OpRule> m) {
    OpRule.add(m, OpRule.values(0, 1, 2).sizedByValues().withForward(SizedShapes::range).withBackward((s, n, in, o,
        out) -> {
      // start 0, stop = the length, step 1 (integer Ranges only: a float Const gets random values). A
      // dynamic length is a sequence length: the last dynamic dim of the shape it is read from.
      ValueNeed length = o.length == 1 && o[0] >= 0 ? ValueNeed.of(o[0])
          : new ValueNeed(new long[] {ShapeConstants.DYN}, new long[] {1}, new int[] {ShapeVectors.LAST_DYNAMIC});
      ShapeNeeds.rule(out, n, 0, List.of(ValueNeed.of(0)), List.of(new ShapeNeeds.Rule(1, List.of(length),
          ShapeNeeds.why(n, 1)), new ShapeNeeds.Rule(2, List.of(ValueNeed.of(1)), ShapeNeeds.why(n, 2))));
    }), "Range");
    OpRule.add(m, OpRule.values(1, 2).sizedByValues().withForward(SizedShapes::broadcast)
        .withBackward(SizedShapes::broadcastNeeds), "Broadcast");
    OpRule.add(m, OpRule.values(1).sizedByValues().withForward(SizedShapes::tile).withBackward(SizedShapes::tileNeeds),
        "Tile");
    OpRule.add(m, OpRule.values(1, 2).withBackward(SizedShapes::padNeeds), "Pad");
    OpRule.add(m, OpRule.values(1, 2, 3).withBackward(SizedShapes::stridedSliceNeeds), "StridedSlice");
    OpRule.add(m, OpRule.values(1, 2, 3, 4).withBackward(SizedShapes::sliceNeeds), "Slice");
    OpRule.add(m, OpRule.values(1, 2, 3).sizedByValues().withBackward(SizedShapes::interpolateNeeds), "Interpolate");
    OpRule.add(m, OpRule.NONE.sizedByValues(), "NonZero", "NonMaxSuppression", "Loop", "TensorIterator", "If");
    OpRule.add(m, OpRule.values(0, 1), "PriorBox", "PriorBoxClustered");
    OpRule.add(m, OpRule.values(1), "OneHot", "Multinomial");
    OpRule.add(m, OpRule.values(1, 2, 3), "SpaceToBatch", "BatchToSpace");
    OpRule.add(m, OpRule.values(2), "ConvolutionBackpropData", "GroupConvolutionBackpropData");
    OpRule.add(m, OpRule.values(0, 1, 2), "Eye");
    OpRule.add(m, OpRule.values(0), "RandomUniform");
  }

  /** {@code ceil((stop - start) / step)} entries, none when the range is empty. */
  private static List<Output> range(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 3);
    long[] start = constValues(type, in.get(0), "start");
    long[] stop = constValues(type, in.get(1), "stop");
    long[] step = constValues(type, in.get(2), "step");
    if (start.length != 1 || stop.length != 1 || step.length != 1 || step[0] == 0) {
      throw new IrException(type + ": start, stop and a non-zero step must be scalars");
    }
    String t = attrs.get("output_type");
    return one(t == null ? in.get(0).type() : ElementType.parse(t),
        new long[] {Math.max(0, Math.floorDiv(stop[0] - start[0] + step[0] - Long.signum(step[0]), step[0]))});
  }

  /** The target shape (numpy, explicit), or the data broadcast with it (bidirectional). */
  private static List<Output> broadcast(String type, Map<String, String> attrs, List<Input> in) {
    if (in.size() < 2) {
      throw new IrException(type + ": needs data and a target shape");
    }
    long[] target = constValues(type, in.get(1), "target shape");
    return switch (attrs.getOrDefault("mode", "numpy").toLowerCase(Locale.ROOT)) {
      case "numpy", "explicit" -> one(in.get(0).type(), target);
      // Sizes the cost model assumed may conflict; it still wants a size (the later one).
      case "bidirectional" -> one(in.get(0).type(), ElementShapes.broadcastAll(in.get(0).dims(), target));
      default -> throw new IrException(type + ": mode " + attrs.get("mode") + " is not supported");
    };
  }

  /** Each axis times its repeats, the shorter of the two padded with leading ones. */
  private static List<Output> tile(String type, Map<String, String> attrs, List<Input> in) {
    arity(type, in, 2);
    long[] x = in.get(0).dims();
    long[] reps = constValues(type, in.get(1), "repeats");
    int rank = Math.max(reps.length, x.length);
    long[] out = new long[rank];
    for (int a = 0; a < rank; a++) {
      int i = a - (rank - x.length);
      int r = a - (rank - reps.length);
      out[a] = (i >= 0 ? x[i] : 1) * (r >= 0 ? reps[r] : 1);
    }
    return one(in.get(0).type(), out);
  }

  private static void interpolateNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
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
    List<ShapeNeeds.Rule> more = new ArrayList<>();
    if (axesInput < n.inputs().size()) {
      more.add(new ShapeNeeds.Rule(axesInput, List.of(ValueNeed.of(axes)), ShapeNeeds.why(n, axesInput)));
    }
    // Float scales go straight to the Const; integer inputs (sizes) through the rules.
    for (int k = 1; k < Math.min(axesInput, n.inputs().size()); k++) {
      if (!s.deriveFloats(n, k, scales)) {
        more.add(new ShapeNeeds.Rule(k, List.of(ValueNeed.of(sizes)), ShapeNeeds.why(n, k)));
      }
    }
    ShapeNeeds.rule(out, n, 0, List.of(), more);
  }

  private static void stridedSliceNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    if (n.inputs().size() < 3) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] endMask = ShapeNeeds.mask(n, "end_mask", count);
    for (String m : List.of("new_axis_mask", "shrink_axis_mask", "ellipsis_mask")) {
      if (Arrays.stream(ShapeNeeds.mask(n, m, count)).anyMatch(x -> x != 0)) {
        s.note(n, 1, m + " is not handled; bounds left to the defaults");
        return;
      }
    }
    if (!s.fed(n, 0) || s.valued(n, 0)) {
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
      want[i] = ignored ? 0 : o[i] < 0 ? ShapeConstants.DYN : o[i];
      fill[i] = ignored ? 0 : o[i] < 0 ? ShapeNeeds.TO_END : o[i];
    }
    List<ShapeNeeds.Rule> more = List.of(
        new ShapeNeeds.Rule(2, List.of(new ValueNeed(want, fill, pos)), ShapeNeeds.why(n, 2)),
        new ShapeNeeds.Rule(3, List.of(ValueNeed.of(stride)), ShapeNeeds.why(n, 3)));
    ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(begin)), more);
  }

  private static void sliceNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    if (n.inputs().size() < 3 || !s.fed(n, 0) || (s.valued(n, 0) && in.length == 1)) {
      return;
    }
    int count = (int) Math.max(1, Shapes.elementCount(n.inputs().get(1).dims()));
    long[] axes = ShapeVectors.changedAxes(in, o, count, false);
    if (axes.length != count || (n.inputs().size() < 5 && count != in.length)) {
      s.note(n, 4, axes.length + " sliced axes for " + count + " bounds; left to the defaults");
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
      want[i] = o[ax] < 0 ? ShapeConstants.DYN : o[ax];
      fill[i] = o[ax] < 0 ? ShapeNeeds.TO_END : o[ax];
    }
    List<ShapeNeeds.Rule> more = new ArrayList<>();
    more.add(new ShapeNeeds.Rule(2, List.of(new ValueNeed(want, fill, pos)), ShapeNeeds.why(n, 2)));
    more.add(new ShapeNeeds.Rule(3, List.of(ValueNeed.of(ones)), ShapeNeeds.why(n, 3)));
    more.add(new ShapeNeeds.Rule(4, ShapeNeeds.signed(axes, in.length), ShapeNeeds.why(n, 4)));
    ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(zeros)), more);
  }

  private static void broadcastNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    String mode = n.attribute("mode") == null ? "numpy" : n.attribute("mode").toLowerCase(Locale.ROOT);
    if (mode.equals("explicit")) {
      s.note(n, 2, "explicit axes_mapping is not derived");
      return;
    }
    long[] want = new long[o.length];
    long[] fill = new long[o.length];
    int[] pos = new int[o.length];
    for (int i = 0; i < o.length; i++) {
      pos[i] = i;
      want[i] = o[i] < 0 ? ShapeConstants.DYN : o[i];
      fill[i] = o[i] < 0 ? 1 : o[i];
    }
    ShapeNeeds.rule(out, n, 1, List.of(new ValueNeed(want, fill, pos)));
  }

  private static void tileNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    long[] reps = new long[o.length];
    for (int i = 0; i < o.length; i++) {
      int j = i - (o.length - in.length);
      long d = j >= 0 ? in[j] : 1;
      reps[i] = o[i] < 0 || d <= 0 ? 1 : o[i] / d;
    }
    ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(reps)));
  }

  private static void padNeeds(ShapeNeeds s, OpNode n, long[] in, long[] o, List<ShapeNeeds.Rule> out) {
    long[] begin = new long[in.length];
    long[] end = new long[in.length];
    for (int i = 0; i < in.length && i < o.length; i++) {
      long diff = in[i] < 0 || o[i] < 0 ? 0 : o[i] - in[i];
      begin[i] = Math.floorDiv(diff, 2);
      end[i] = diff - begin[i];
    }
    if (Arrays.stream(begin).anyMatch(x -> x != 0)) {
      s.note(n, 1, "the XML gives only the total padding per axis; split as evenly as possible");
    }
    ShapeNeeds.rule(out, n, 1, List.of(ValueNeed.of(begin)),
        List.of(new ShapeNeeds.Rule(2, List.of(ValueNeed.of(end)), ShapeNeeds.why(n, 2))));
  }

}
