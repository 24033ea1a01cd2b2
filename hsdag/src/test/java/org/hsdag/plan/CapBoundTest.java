package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;
import org.junit.jupiter.api.Test;

/** The Lagrangian lower bound under weight budgets, and the capped reference search, against brute force. */
class CapBoundTest {
  /** Three independent ops, 10 µs on the slow uncapped D0 and 1 µs on the fast capped D1, no copy or start costs. */
  private static HeteroCostModel threeIndependentOps() {
    List<HeteroDevice> devs = List.of(new HeteroDevice("D0", 0, 0, 0), new HeteroDevice("D1", 0, 0, 0));
    HeteroCostModelBuilder b = HeteroCostModel.builder(devs, 0);
    for (int i = 0; i < 3; i++) {
      b.op(i, new double[] {10, 1});
      b.tensor(i, 0, 1);
    }
    return b.build();
  }

  @Test
  void theBoundIsTheOptimumWhenTheBudgetHoldsWholeOps() {
    // D1 holds two of the three ops: the optimum is 1 + 1 + 10 = 12; L(μ) = 3 + μ up to μ = 9, then 30 - 2μ.
    CapBound.Bound b = CapBound.of(threeIndependentOps(),
        new OpBudget(new long[] {1, 1, 1}, new long[] {Long.MAX_VALUE, 2}));
    assertEquals(12.0, b.micros(), 1e-3);
    assertEquals(9.0, b.price().get(1), 1e-6);
  }

  @Test
  void theBoundStaysBelowTheOptimumWhenTheBudgetSplitsAnOp() {
    // Ops of 2 bytes, budget 3: one op fits on D1, optimum 1 + 10 + 10 = 21; the dual peaks at μ = 4.5 with 3 + 3μ = 16.5.
    CapBound.Bound b = CapBound.of(threeIndependentOps(),
        new OpBudget(new long[] {2, 2, 2}, new long[] {Long.MAX_VALUE, 3}));
    assertEquals(16.5, b.micros(), 1e-3);
  }

  @Test
  void anActivationTakesItsShareOfTheBudgetOnlyWhereItsOpRuns() {
    // Budget 3 for weights 1 + 1 + 1 and op 0's output of 1 byte: all three do not fit on D1 (3 + 1), any two do: 12.
    CapBound.Bound b = CapBound.of(threeIndependentOps(),
        new OpBudget(new long[] {1, 1, 1}, new long[] {Long.MAX_VALUE, 3}),
        new long[] {1, 0, 0});
    assertEquals(12.0, b.micros(), 1e-3);
  }

  /** Whether each device holds its ops' bytes plus the largest activation among them. */
  private static boolean fits(int[] label, long[] bytes, long[] activation, long[] budget) {
    long[] load = new long[budget.length];
    long[] peak = new long[budget.length];
    for (int i = 0; i < label.length; i++) {
      load[label[i]] += bytes[i];
      peak[label[i]] = Math.max(peak[label[i]], activation[i]);
    }
    for (int d = 0; d < budget.length; d++) {
      if (budget[d] != Long.MAX_VALUE && load[d] + peak[d] > budget[d]) {
        return false;
      }
    }
    return true;
  }

  @Test
  void theBoundNeverExceedsTheBruteForceOptimumAndTheReferenceReachesIt() {
    for (int devices = 2; devices <= 3; devices++) {
      int ops = devices == 2 ? 10 : 7;
      for (long seed = 1; seed <= 12; seed++) {
        HeteroCostModel model = RandomModels.random(ops, devices, seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] bytes = rnd.ints(ops, 0, 100).asLongStream().toArray();
        long[] activation = rnd.ints(ops, 0, 30).asLongStream().toArray();
        long total = java.util.Arrays.stream(bytes).sum();
        long[] budget = new long[devices];
        budget[0] = Long.MAX_VALUE;
        for (int d = 1; d < devices; d++) {
          budget[d] = total * (20 + rnd.nextInt(40)) / 100;
        }
        OpBudget ob = new OpBudget(bytes, budget);
        double[] optimum = {Double.POSITIVE_INFINITY};
        double[] withActivations = {Double.POSITIVE_INFINITY};
        HeteroCostModel.Evaluator exact = model.evaluator();
        RandomModels.forEachLabeling(ops, devices, label -> {
          if (ob.holds(label)) {
            optimum[0] = Math.min(optimum[0], exact.micros(label));
          }
          if (fits(label, bytes, activation, budget)) {
            withActivations[0] = Math.min(withActivations[0], exact.micros(label));
          }
        });
        CapBound.Bound bound = CapBound.of(model, ob);
        String where = devices + " devices, seed " + seed;
        assertTrue(bound.micros() <= optimum[0] + 1e-6,
            where + ": bound " + bound.micros() + " > optimum " + optimum[0]);
        CapBound.Bound classes = CapBound.of(model, ob, activation);
        assertTrue(classes.micros() <= withActivations[0] + 1e-6,
            where + ": bound " + classes.micros() + " > optimum with activations " + withActivations[0]);
        int[] start = new int[ops];
        for (int i = 0; i < ops; i++) {
          start[i] = model.supported(i, 0) ? 0 : 1 + (int) (seed % (devices - 1));
        }
        if (!ob.holds(start) || Double.isInfinite(exact.micros(start))) {
          continue;
        }
        double found = CappedReference.anneal(model, new int[0][], List.of(start), ob, 3_000, 2, seed).stream()
            .mapToDouble(AnnealingSearch.Result::micros).min().orElseThrow();
        assertEquals(optimum[0], found, 1e-6, where + ": the capped reference misses the optimum");
      }
    }
  }
}
