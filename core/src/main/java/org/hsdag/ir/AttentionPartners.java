package org.hsdag.ir;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an attention says about a cached key or value input, found from the graph and never from
 * the input's name (exports rename inputs {@code Parameter_200692}): the input is the keys of an
 * attention (input 1 of a MatMul with {@code transpose_b} whose scores reach a Softmax, or of a
 * {@code ScaledDotProductAttention}) or its values (input 1 of the MatMul that reads the
 * Softmax, or input 2 of the fused op). Its length axis is the one the attention runs over (the
 * second to last). A cross-attention's cache is not concatenated with new keys: it holds the
 * encoder's states, so that axis has the encoder's length, the length of the mask added to the
 * same scores when one is found ({@link Partner#mask}).
 */
public final class AttentionPartners {
  private AttentionPartners() {}

  /** Ops followed from the scores to their Softmax, and back from it to the mask. */
  private static final Set<String> SCORE_OPS = Set.of("Add", "Subtract", "Multiply", "Divide", "Select", "Maximum",
      "Minimum", "Convert");

  /**
   * Ops a mask is built through (besides those that keep their input's values), followed back to its
   * input: a T5 export scales, inverts, slices and broadcasts its [batch, length] mask to the scores.
   */
  private static final Set<String> MASK_OPS = Set.of("Add", "Subtract", "Multiply", "Divide", "Select", "Maximum",
      "Minimum", "Broadcast", "Tile", "Slice", "StridedSlice");

  /** Ops followed between the scores and their Softmax, and the most hops followed anywhere. */
  private static final int HOPS = 8;

  /** Ops followed back from the scores to their mask (a T5 export's mask is 9 ops away). */
  private static final int MASK_HOPS = 16;

  /**
   * The attention an input feeds as keys or values.
   *
   * @param axis the input's length axis (the one the attention runs over)
   * @param attention the op that fixes it, for messages (e.g. {@code MatMul 'qk'})
   * @param mask the Parameter whose last axis is the mask of the same scores, or -1 when none is found
   */
  public record Partner(int axis, String attention, int mask) {}

  /** The attention Parameter {@code parameter} feeds as keys or values, or empty when it feeds none. */
  public static Optional<Partner> of(OpGraph g, int parameter) {
    int rank = g.node(parameter).outputs().get(0).rank();
    if (rank < 3) {
      return Optional.empty();
    }
    List<Integer> frontier = List.of(parameter);
    for (int hop = 0; hop < 3 && !frontier.isEmpty(); hop++) {
      List<Integer> next = new java.util.ArrayList<>();
      for (int v : frontier) {
        for (int j = 0; j < g.outDegree(v); j++) {
          Edge e = g.edge(g.outEdge(v, j));
          OpNode c = g.node(e.target());
          Optional<Partner> found = attention(g, e.target(), e.targetInput(), rank, parameter);
          if (found.isPresent()) {
            return found;
          }
          if ("Convert".equals(c.type())) {
            next.add(e.target());
          }
        }
      }
      frontier = next;
    }
    return rank == 3 ? projected(g, parameter) : Optional.empty();
  }

  /** Ops an encoder's states pass through on their way to an attention's keys or values (a projection, heads). */
  private static final Set<String> PROJECTION_OPS = Set.of("MatMul", "Add", "Multiply", "Convert", "Reshape",
      "Transpose");

  /**
   * The attention a {@code [batch, length, hidden]} input reaches as keys or values once projected
   * (MatMul by weights, split into heads by Reshape and Transpose): a decoder's encoder states, whose
   * length axis 1 is then the encoder's, the length of that attention's mask.
   */
  private static Optional<Partner> projected(OpGraph g, int parameter) {
    ArrayDeque<int[]> queue = new ArrayDeque<>();
    queue.add(new int[] {parameter, 0});
    Set<Integer> seen = new HashSet<>();
    while (!queue.isEmpty()) {
      int[] at = queue.poll();
      if (!seen.add(at[0]) || at[1] >= HOPS) {
        continue;
      }
      for (int j = 0; j < g.outDegree(at[0]); j++) {
        Edge e = g.edge(g.outEdge(at[0], j));
        if (at[1] > 0) {
          Optional<Partner> found = attention(g, e.target(), e.targetInput(), 4, parameter);
          if (found.isPresent()) {
            return Optional.of(new Partner(1, found.get().attention(), found.get().mask()));
          }
        }
        if (PROJECTION_OPS.contains(g.node(e.target()).type()) && e.targetInput() == 0) {
          queue.add(new int[] {e.target(), at[1] + 1});
        }
      }
    }
    return Optional.empty();
  }

  /** Whether consumer {@code c} reads the tensor on input {@code k} as an attention's keys or values. */
  private static Optional<Partner> attention(OpGraph g, int c, int k, int rank, int parameter) {
    OpNode n = g.node(c);
    String why = n.type() + " '" + n.name() + "'";
    if ("ScaledDotProductAttention".equals(n.type()) && (k == 1 || k == 2)) {
      int mask = n.inputs().size() > 3 ? maskBehind(g, producer(g, c, 3), parameter) : -1;
      return Optional.of(new Partner(rank - 2, why, mask));
    }
    if (!"MatMul".equals(n.type()) || k != 1) {
      return Optional.empty();
    }
    int softmax = OpAttributes.isTrue(n.attribute("transpose_b")) ? softmaxAfter(g, c) : softmaxBefore(g, c);
    if (softmax < 0) {
      return Optional.empty();
    }
    return Optional.of(new Partner(rank - 2, why, maskBehind(g, producer(g, softmax, 0), parameter)));
  }

  /** The Softmax the scores of MatMul {@code c} reach through element-wise ops (a scale, a mask), or -1. */
  private static int softmaxAfter(OpGraph g, int c) {
    ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(c));
    Set<Integer> seen = new HashSet<>();
    while (!queue.isEmpty() && seen.size() < HOPS * 4) {
      int v = queue.poll();
      if (!seen.add(v)) {
        continue;
      }
      for (int j = 0; j < g.outDegree(v); j++) {
        int t = g.edge(g.outEdge(v, j)).target();
        String type = g.node(t).type();
        if (isSoftmax(type)) {
          return t;
        }
        if (SCORE_OPS.contains(type)) {
          queue.add(t);
        }
      }
    }
    return -1;
  }

  /** The Softmax MatMul {@code c} reads on input 0 (through conversions), or -1. */
  private static int softmaxBefore(OpGraph g, int c) {
    int v = producer(g, c, 0);
    for (int hop = 0; hop < 3 && v >= 0; hop++) {
      String type = g.node(v).type();
      if (isSoftmax(type)) {
        return v;
      }
      v = "Convert".equals(type) ? producer(g, v, 0) : -1;
    }
    return -1;
  }

  /**
   * The Parameter (other than {@code parameter}) a mask reaching node {@code from} is built from,
   * through element-wise and reshaping ops, whose last axis is dynamic; -1 when none. The scores'
   * MatMul and anything computed from shapes (a causal mask's ShapeOf and Range) are not followed.
   */
  private static int maskBehind(OpGraph g, int from, int parameter) {
    if (from < 0) {
      return -1;
    }
    ArrayDeque<int[]> queue = new ArrayDeque<>();
    queue.add(new int[] {from, 0});
    Set<Integer> seen = new HashSet<>();
    while (!queue.isEmpty()) {
      int[] at = queue.poll();
      int v = at[0];
      OpNode n = g.node(v);
      if (!seen.add(v) || at[1] > MASK_HOPS) {
        continue;
      }
      if (n.isParameter()) {
        long[] dims = n.outputs().get(0).dims();
        if (v != parameter && dims.length > 0 && dims[dims.length - 1] < 0) {
          return v;
        }
        continue;
      }
      if (!MASK_OPS.contains(n.type()) && !OpRule.of(n.type()).keepsValues()) {
        continue;
      }
      for (int j = 0; j < g.inDegree(v); j++) {
        Edge e = g.edge(g.inEdge(v, j));
        if (!OpShapes.isValueInput(n.type(), e.targetInput()) && !g.node(e.source()).isConstant()) {
          queue.add(new int[] {e.source(), at[1] + 1});
        }
      }
    }
    return -1;
  }

  /** The node feeding input {@code k} of {@code v}, or -1. */
  private static int producer(OpGraph g, int v, int k) {
    int e = g.inputEdge(v, k);
    return e < 0 ? -1 : g.edge(e).source();
  }

  private static boolean isSoftmax(String type) {
    return "Softmax".equals(type) || "SoftMax".equals(type);
  }
}
