package org.hsdag.ir;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What the model itself says about the size of a dynamic axis of one of its inputs: a consumer
 * that ties the axis to a static dimension, found by following the input through ops that keep
 * its axes (element-wise ops, conversions, normalisations, the row axis of a MatMul):
 *
 * <ul>
 *   <li>a MatMul contracting the axis with a static one of its other operand (a hidden state times a weight);
 *   <li>an element-wise op whose other operand, or whose output, has a static size above 1 on the
 *       aligned axis (numpy broadcasting: a bias, a LayerNorm scale, a residual);
 *   <li>a Concat whose other inputs are static on that (non-concatenated) axis;
 *   <li>a convolution's input channels (axis 1) from its weights.
 * </ul>
 *
 * <p>The port dims the IR records for each op are OpenVINO's own shape inference at export time, so
 * these are the sizes OpenVINO will demand when it compiles the model. An axis nothing ties (a batch,
 * a sequence length, an image's height) has no derivable size.
 */
public final class InputAxes {
  private InputAxes() {}

  /** Most tensors visited while following one axis (a bound, not a limit real models reach). */
  private static final int MAX_VISITS = 100_000;

  /**
   * A size the model fixes.
   *
   * @param size the size
   * @param why the op that fixes it, e.g. {@code MatMul 'encoder.k_proj'}
   */
  public record Derived(long size, String why) {}

  /** One tensor axis to look at: output {@code port} of node {@code node}, axis {@code axis}. */
  private record At(int node, int port, int axis) {}

  /**
   * The size axis {@code axis} of Parameter {@code parameter}'s output must have, or empty when
   * nothing in the model fixes it.
   */
  public static Optional<Derived> derive(OpGraph g, int parameter, int axis) {
    ArrayDeque<At> queue = new ArrayDeque<>();
    Set<At> seen = new HashSet<>();
    queue.add(new At(parameter, 0, axis));
    while (!queue.isEmpty() && seen.size() < MAX_VISITS) {
      At at = queue.poll();
      if (!seen.add(at)) {
        continue;
      }
      int v = at.node();
      for (int j = 0; j < g.outDegree(v); j++) {
        Edge e = g.edge(g.outEdge(v, j));
        if (e.sourceOutput() != at.port()) {
          continue;
        }
        Optional<Derived> d = consumer(g, e.target(), e.targetInput(), at.axis(), queue);
        if (d.isPresent()) {
          return d;
        }
      }
    }
    return Optional.empty();
  }

  /** What consumer {@code c}, reading the tensor on input {@code k}, says about its axis {@code axis}; follows on through {@code queue}. */
  private static Optional<Derived> consumer(OpGraph g, int c, int k, int axis, ArrayDeque<At> queue) {
    OpNode n = g.node(c);
    if (n.outputs().isEmpty() || k >= n.inputs().size()) {
      return Optional.empty();
    }
    String type = n.type();
    if (ElementShapes.SAME_SHAPE.contains(type)) {
      if (k == 0) {
        queue.add(new At(c, 0, axis));
      }
      return Optional.empty();
    }
    if (ElementShapes.BROADCASTING.contains(type)) {
      return broadcasting(n, c, k, axis, queue);
    }
    return switch (type) {
      case "MatMul" -> matMul(n, c, k, axis, queue);
      case "Concat" -> concat(n, c, k, axis, queue);
      case "Convolution", "GroupConvolution" -> k == 0 && axis == 1 ? channels(n) : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<Derived> broadcasting(OpNode n, int c, int k, int axis, ArrayDeque<At> queue) {
    int rank = n.inputs().get(k).rank();
    long[] out = n.outputs().get(0).dims();
    int aligned = axis + out.length - rank;
    if (aligned < 0 || aligned >= out.length) {
      return Optional.empty();
    }
    boolean exact = "none".equalsIgnoreCase(n.attribute("auto_broadcast"));
    for (int i = 0; i < n.inputs().size(); i++) {
      if (i == k || (n.type().equals("Select") && i == 0)) {
        continue; // Select's condition broadcasts too, but a mask says nothing of the data's size
      }
      long[] other = n.inputs().get(i).dims();
      int a = aligned - (out.length - other.length);
      if (a >= 0 && (other[a] > 1 || (exact && other[a] >= 1))) {
        return Optional.of(new Derived(other[a], n.type() + " '" + n.name() + "'"));
      }
    }
    if (out[aligned] > 1) {
      return Optional.of(new Derived(out[aligned], n.type() + " '" + n.name() + "'"));
    }
    queue.add(new At(c, 0, aligned));
    return Optional.empty();
  }

  private static Optional<Derived> matMul(OpNode n, int c, int k, int axis, ArrayDeque<At> queue) {
    long[] self = n.inputs().get(k).dims();
    long[] other = n.inputs().get(1 - k).dims();
    int rank = self.length;
    if (rank < 2 || other.length < 1) {
      return Optional.empty();
    }
    boolean selfT = OpAttributes.isTrue(n.attribute(k == 0 ? "transpose_a" : "transpose_b"));
    boolean otherT = OpAttributes.isTrue(n.attribute(k == 0 ? "transpose_b" : "transpose_a"));
    // Input 0 contracts its columns, input 1 its rows (each swapped by its transpose flag).
    int contracted = (k == 0) != selfT ? rank - 1 : rank - 2;
    int otherContracted = other.length == 1 ? 0 : (k == 0) != otherT ? other.length - 2 : other.length - 1;
    String why = "MatMul '" + n.name() + "'";
    if (axis == contracted) {
      long size = other[otherContracted];
      return size >= 1 ? Optional.of(new Derived(size, why)) : Optional.empty();
    }
    long[] out = n.outputs().get(0).dims();
    if (axis >= rank - 2) {
      // The kept axis of a matrix becomes the output's row (input 0) or column (input 1) axis.
      int outAxis = k == 0 ? out.length - 2 : out.length - 1;
      if (outAxis >= 0 && out[outAxis] >= 1) {
        return Optional.of(new Derived(out[outAxis], why));
      }
      if (outAxis >= 0) {
        queue.add(new At(c, 0, outAxis));
      }
      return Optional.empty();
    }
    int aligned = axis + out.length - rank;
    if (aligned >= 0 && out[aligned] > 1) {
      return Optional.of(new Derived(out[aligned], why));
    }
    return Optional.empty();
  }

  private static Optional<Derived> concat(OpNode n, int c, int k, int axis, ArrayDeque<At> queue) {
    int rank = n.inputs().get(k).rank();
    String attr = n.attribute("axis");
    if (attr == null) {
      return Optional.empty();
    }
    int joined = Integer.parseInt(attr.trim());
    if (joined < 0) {
      joined += rank;
    }
    if (axis == joined) {
      return Optional.empty();
    }
    for (int i = 0; i < n.inputs().size(); i++) {
      long[] other = n.inputs().get(i).dims();
      if (i != k && axis < other.length && other[axis] >= 1) {
        return Optional.of(new Derived(other[axis], "Concat '" + n.name() + "'"));
      }
    }
    queue.add(new At(c, 0, axis));
    return Optional.empty();
  }

  private static Optional<Derived> channels(OpNode n) {
    long[] w = n.inputs().size() > 1 ? n.inputs().get(1).dims() : new long[0];
    String why = n.type() + " '" + n.name() + "'";
    if (n.type().equals("GroupConvolution")) {
      return w.length > 2 && w[0] >= 1 && w[2] >= 1 ? Optional.of(new Derived(w[0] * w[2], why)) : Optional.empty();
    }
    return w.length > 1 && w[1] >= 1 ? Optional.of(new Derived(w[1], why)) : Optional.empty();
  }
}
