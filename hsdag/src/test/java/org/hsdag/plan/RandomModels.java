package org.hsdag.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;

/**
 * Random small op-level cost models with every feature the cut must handle: several inputs per
 * op, fusion pairs, tensors with several consumers, model outputs, model inputs with several
 * consumers, two outputs of one op, device-specific link and sub-model costs, unsupported ops.
 */
final class RandomModels {
  private RandomModels() {}

  static HeteroCostModel random(int ops, int devices, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<HeteroDevice> devs = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      double link = d == 0 ? 0 : rnd.nextDouble(0, 20);
      double perByte = d == 0 ? 0 : rnd.nextDouble(0, 0.01);
      devs.add(new HeteroDevice("D" + d, link, perByte, rnd.nextDouble(0, 40)));
    }
    HeteroCostModelBuilder b = HeteroCostModel.builder(devs, 50);
    List<List<Integer>> consumers = new ArrayList<>();
    for (int i = 0; i < ops; i++) {
      int k = i == 0 ? 0 : rnd.nextInt(Math.min(i, 3) + 1);
      int[] preds = rnd.ints(k, 0, Math.max(i, 1)).distinct().toArray();
      double[] t = new double[devices];
      for (int d = 0; d < devices; d++) {
        t[d] = rnd.nextDouble(1, 100);
      }
      int op = b.op(i, t, preds);
      consumers.add(new ArrayList<>());
      for (int p : preds) {
        consumers.get(p).add(op);
      }
      if (preds.length > 0 && rnd.nextInt(3) == 0) {
        double[] fused = new double[devices];
        for (int d = 0; d < devices; d++) {
          fused[d] = t[d] * rnd.nextDouble(0, 1);
        }
        b.fuse(op, preds[rnd.nextInt(preds.length)], fused);
      }
      if (rnd.nextInt(6) == 0) {
        // Some device cannot run it (never all).
        b.unsupported(op, rnd.nextInt(devices));
      }
    }
    for (int i = 0; i < ops; i++) {
      List<Integer> cs = consumers.get(i);
      int results = cs.isEmpty() || rnd.nextInt(8) == 0 ? 1 : 0;
      if (cs.size() >= 2 && rnd.nextInt(4) == 0) {
        // Two output ports: the consumers split between two tensors.
        int cut = 1 + rnd.nextInt(cs.size() - 1);
        b.tensor(i, rnd.nextDouble(0, 4000), results, toArray(cs.subList(0, cut)));
        b.tensor(i, rnd.nextDouble(0, 4000), 0, toArray(cs.subList(cut, cs.size())));
      } else {
        b.tensor(i, rnd.nextDouble(0, 4000), results, toArray(cs));
      }
    }
    // Model inputs feed the first op and a few random ones.
    b.tensor(-1, rnd.nextDouble(0, 4000), 0, 0);
    if (ops > 2) {
      b.tensor(-1, rnd.nextDouble(0, 4000), 0, rnd.ints(1 + rnd.nextInt(3), 0, ops).toArray());
    }
    return b.build();
  }

  private static int[] toArray(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Calls {@code visit} with every labeling of {@code ops} ops over {@code devices} devices (one reused array). */
  static void forEachLabeling(int ops, int devices, java.util.function.Consumer<int[]> visit) {
    int[] label = new int[ops];
    while (true) {
      visit.accept(label);
      int i = 0;
      while (i < ops && ++label[i] == devices) {
        label[i++] = 0;
      }
      if (i == ops) {
        return;
      }
    }
  }
}
