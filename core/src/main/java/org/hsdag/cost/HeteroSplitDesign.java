package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The placements a calibration measures to separate HETERO's sub-model start and boundary-copy
 * costs from its kernels: each device alone; each device with only its last op elsewhere (the
 * placement its kernels are profiled in); and, for the first device paired with each other one, in
 * both directions, contiguous runs along the ops' topological order with 1 boundary (at a quarter,
 * half and three quarters of the ops, so boundary tensors of different sizes), 2 and 4 boundaries
 * (evenly spaced), the op with the most inputs alone on the other device (several copies for
 * one sub-model, so copy and start costs separate), and {@value #SCATTERED} single ops spread along the order on
 * the other device (many sub-models). An op a device cannot run stays on the other device of the pair.
 * Deterministic.
 */
public final class HeteroSplitDesign {
  private HeteroSplitDesign() {}

  /**
   * One designed placement.
   *
   * @param label what it is, e.g. {@code CPU2 alone} or {@code CPU->CPU2, 2 boundaries}
   * @param deviceOfOp model device per op
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out
  public record Designed(String label, int[] deviceOfOp) {
    public Designed {
      deviceOfOp = deviceOfOp.clone();
    }

    @Override
    public int[] deviceOfOp() {
      return deviceOfOp.clone();
    }
  }

  /**
   * Every op on device {@code d} except the last op another device can run, which goes to that
   * device (the first such device): HETERO then runs {@code d} as it runs it in a split. With one
   * device, or no op another device runs, every op stays on {@code d}.
   */
  public static int[] withTail(HeteroCostModel model, int d) {
    int nc = model.opCount();
    int[] dc = new int[nc];
    Arrays.fill(dc, d);
    for (int i = nc - 1; i >= 0; i--) {
      int e = otherDevice(model, i, d);
      if (e >= 0) {
        dc[i] = e;
        return dc;
      }
    }
    return dc;
  }

  /** The first device other than {@code d} that runs {@code op}, or -1 when none does. */
  public static int otherDevice(HeteroCostModel model, int op, int d) {
    return otherDevice(model.deviceCount(), d, e -> model.supported(op, e));
  }

  /** The first of {@code deviceCount} devices other than {@code d} that {@code runs} the op, or -1. */
  public static int otherDevice(int deviceCount, int d, IntPredicate runs) {
    for (int e = 0; e < deviceCount; e++) {
      if (e != d && runs.test(e)) {
        return e;
      }
    }
    return -1;
  }

  /** The designed placements of {@code model}, those with an op its device cannot run left out. */
  public static List<Designed> placements(HeteroCostModel model) {
    int nc = model.opCount();
    int dn = model.deviceCount();
    List<Designed> out = new ArrayList<>();
    for (int d = 0; d < dn; d++) {
      int[] alone = new int[nc];
      Arrays.fill(alone, d);
      add(out, model, model.device(d).name() + " alone", alone);
    }
    if (dn < 2 || nc < 5) {
      return out;
    }
    for (int d = 0; d < dn; d++) {
      add(out, model, model.device(d).name() + " with its last op elsewhere", withTail(model, d));
    }
    for (int b = 1; b < dn; b++) {
      for (int[] pair : new int[][] {{0, b}, {b, 0}}) {
        String dir = model.device(pair[0]).name() + "->" + model.device(pair[1]).name();
        for (double at : new double[] {0.25, 0.5, 0.75}) {
          add(out, model, dir + ", 1 boundary at " + Math.round(100 * at) + " %", runs(model, pair, new double[] {at}));
        }
        add(out, model, dir + ", 2 boundaries", runs(model, pair, new double[] {1 / 3.0, 2 / 3.0}));
        add(out, model, dir + ", 4 boundaries", runs(model, pair, new double[] {0.2, 0.4, 0.6, 0.8}));
        int join = widestJoin(model);
        int[] flip = new int[nc];
        Arrays.fill(flip, pair[0]);
        flip[join] = pair[1];
        add(out, model, dir + ", only op " + join + " (most inputs) on " + model.device(pair[1]).name(), flip);
        add(out, model, dir + ", " + SCATTERED + " single ops on " + model.device(pair[1]).name(),
            scattered(model, pair));
      }
    }
    return out;
  }

  /**
   * Single ops the second device of a pair runs in a first-device model, spread evenly along the op order. HETERO
   * cuts such a placement into many sub-models (cycle splitting adds more), so start costs are measured where they
   * add up; without it the fit saw at most 6 sub-models and under-predicted a 64-sub-model placement by 28 %.
   */
  static final int SCATTERED = 8;

  private static int[] scattered(HeteroCostModel model, int[] pair) {
    int nc = model.opCount();
    int[] dc = new int[nc];
    Arrays.fill(dc, pair[0]);
    for (int k = 0; k < SCATTERED; k++) {
      int i = (int) ((k + 0.5) * nc / SCATTERED);
      if (model.supported(i, pair[1])) {
        dc[i] = pair[1];
      }
    }
    return dc;
  }

  /** The op with the most predecessor ops (a join: several boundary tensors for one sub-model), the first of them. */
  private static int widestJoin(HeteroCostModel model) {
    int best = 0;
    for (int i = 1; i < model.opCount(); i++) {
      if (model.predecessorCount(i) > model.predecessorCount(best)) {
        best = i;
      }
    }
    return best;
  }

  /** Runs alternating between the pair's devices, starting on the first, changing at the given fractions of the ops. */
  private static int[] runs(HeteroCostModel model, int[] pair, double[] cuts) {
    int nc = model.opCount();
    int[] dc = new int[nc];
    int k = 0;
    int side = 0;
    for (int i = 0; i < nc; i++) {
      while (k < cuts.length && i >= (int) Math.round(cuts[k] * nc)) {
        side = 1 - side;
        k++;
      }
      int d = pair[side];
      dc[i] = model.supported(i, d) ? d : pair[1 - side];
    }
    return dc;
  }

  private static void add(List<Designed> out, HeteroCostModel model, String label, int[] dc) {
    for (int i = 0; i < dc.length; i++) {
      if (!model.supported(i, dc[i])) {
        return;
      }
    }
    for (Designed p : out) {
      if (Arrays.equals(p.deviceOfOp, dc)) {
        return;
      }
    }
    out.add(new Designed(label, dc));
  }
}
