package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.junit.jupiter.api.Test;

/**
 * The cuts against brute force on random small models (up to 14 ops): for two devices the cut is
 * the exact minimum of the planner's own {@link CutModel}; for three, every α-expansion move is
 * the exact minimum over its keep/move choices and α-expansion ends where no move helps.
 */
class MinCutTest {
  /** Capacities are rounded to picoseconds: allow that much per term. */
  private static final double TOL = 1e-3;

  @Test
  void maxFlowOfASmallTextbookNetwork() {
    // CLRS figure 26.1: maximum flow 23.
    MaxFlow f = new MaxFlow(4, 16);
    int s = f.source();
    int t = f.sink();
    f.addEdge(s, 0, 16);
    f.addEdge(s, 1, 13);
    f.addEdge(1, 0, 4);
    f.addEdge(0, 2, 12);
    f.addEdge(2, 1, 9);
    f.addEdge(1, 3, 14);
    f.addEdge(3, 2, 7);
    f.addEdge(2, t, 20);
    f.addEdge(3, t, 4);
    assertEquals(23, f.solve());
    assertTrue(f.sourceSide(0) && f.sourceSide(1) && f.sourceSide(3));
    assertTrue(!f.sourceSide(2) && !f.sourceSide(t));
  }

  @Test
  void maxFlowEqualsTheBruteForceMinimumCutOnRandomNetworks() {
    SplittableRandom rnd = new SplittableRandom(4);
    for (int trial = 0; trial < 60; trial++) {
      int n = 1 + rnd.nextInt(9);
      int edges = rnd.nextInt(3 * n + 3);
      int[][] e = new int[edges][];
      MaxFlow f = new MaxFlow(n, edges);
      for (int k = 0; k < edges; k++) {
        int u = rnd.nextInt(n + 2);
        int v = rnd.nextInt(n + 2);
        int c = rnd.nextInt(20);
        e[k] = new int[] {u, v, c};
        f.addEdge(u, v, c);
      }
      long flow = f.solve();
      long best = Long.MAX_VALUE;
      for (int mask = 0; mask < 1 << n; mask++) {
        // Inner node i on the source side when bit i is set; the source is n, the sink n + 1.
        final int m = mask;
        java.util.function.IntPredicate sourceSide = x -> x == n || (x < n && (m >> x & 1) == 1);
        long cut = 0;
        for (int[] edge : e) {
          if (sourceSide.test(edge[0]) && !sourceSide.test(edge[1])) {
            cut += edge[2];
          }
        }
        best = Math.min(best, cut);
      }
      assertEquals(best, flow, "trial " + trial);
      long cutOfSides = 0;
      for (int[] edge : e) {
        if (f.sourceSide(edge[0]) && !f.sourceSide(edge[1])) {
          cutOfSides += edge[2];
        }
      }
      assertEquals(flow, cutOfSides, "the reported sides form a minimum cut");
    }
  }

  @Test
  void twoDeviceCutIsTheExactMinimumOfTheCutModel() {
    for (long seed = 0; seed < 40; seed++) {
      int ops = 3 + (int) (seed % 12);
      HeteroCostModel model = RandomModels.random(ops, 2, seed);
      for (double lambda : new double[] {0, 0.7, 2}) {
        CutModel cut = new CutModel(model, lambda);
        double[] best = {Double.POSITIVE_INFINITY};
        RandomModels.forEachLabeling(ops, 2, l -> best[0] = Math.min(best[0], cut.energy(l)));
        int[] label = Expansion.twoDevices(cut);
        assertEquals(best[0], cut.energy(label), TOL * ops, "seed " + seed + " λ " + lambda);
      }
    }
  }

  @Test
  void everyExpansionMoveIsExactAndAlphaExpansionEndsAtAMoveOptimum() {
    for (long seed = 0; seed < 30; seed++) {
      int ops = 3 + (int) (seed % 10);
      HeteroCostModel model = RandomModels.random(ops, 3, 100 + seed);
      CutModel cut = new CutModel(model, seed % 2 == 0 ? 0 : 1);
      SplittableRandom rnd = new SplittableRandom(seed);
      int[] start = feasible(model, rnd);
      for (int alpha = 0; alpha < 3; alpha++) {
        int[] moved = Expansion.move(cut, start, alpha);
        assertEquals(bestMove(cut, start, alpha), cut.energy(moved), TOL * ops, "seed " + seed + " α " + alpha);
      }
      int[] end = Expansion.alphaExpansion(cut, start);
      double e = cut.energy(end);
      assertTrue(e <= cut.energy(start) + TOL * ops);
      for (int alpha = 0; alpha < 3; alpha++) {
        assertTrue(bestMove(cut, end, alpha) >= e - TOL * ops,
            "no expansion move improves the end (seed " + seed + ")");
      }
    }
  }

  /** Brute force over the keep / move-to-α choices from {@code label}. */
  private static double bestMove(CutModel cut, int[] label, int alpha) {
    int n = label.length;
    double best = Double.POSITIVE_INFINITY;
    int[] l = new int[n];
    for (int mask = 0; mask < 1 << n; mask++) {
      for (int i = 0; i < n; i++) {
        l[i] = (mask >> i & 1) == 1 ? alpha : label[i];
      }
      best = Math.min(best, cut.energy(l));
    }
    return best;
  }

  private static int[] feasible(HeteroCostModel model, SplittableRandom rnd) {
    int[] l = new int[model.opCount()];
    for (int i = 0; i < l.length; i++) {
      do {
        l[i] = rnd.nextInt(model.deviceCount());
      } while (!model.supported(i, l[i]));
    }
    return l;
  }
}
