package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The memo of HETERO splits: a split answered from it equals a fresh one, and it stays within its bound. */
class SplitMemoTest {
  @Test
  void aMemoisedSplitEvaluatesAsAFreshOneOnEveryModelThatSharesIt() {
    OpGraph g = TinyGraphs.randomDag(300, 8, 11);
    DeviceProfile paper = DeviceProfile.load("paper");
    CostModel cm = new CostModel(ShapeAssumption.DEFAULT);
    HeteroCostModel memoised = HeteroCostModel.forProfile(g, paper, cm);
    int devices = paper.devices().size();
    SplittableRandom rnd = new SplittableRandom(4);
    List<int[]> placements = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      placements.add(blocks(memoised.opCount(), devices, rnd));
    }
    // Other device costs, the same split: a corrected model of a run.
    List<HeteroDevice> costs = memoised.devices().stream()
        .map(d -> new HeteroDevice(d.name(), d.linkLatencyUs() * 2, d.linkMicrosPerByte() * 2,
            d.subModelOverheadUs() * 3))
        .toList();
    double request = memoised.requestOverhead() + 5;
    HeteroCostModel slower = memoised.withDeviceCosts(costs, request);
    for (int round = 0; round < 2; round++) {
      for (int[] dc : placements) {
        // A model built anew has a memo of its own, empty: its answer is a fresh split's.
        HeteroCostModel fresh = HeteroCostModel.forProfile(g, paper, cm);
        assertEquals(fresh.evaluate(dc), memoised.evaluate(dc), "round " + round);
        assertEquals(fresh.withDeviceCosts(costs, request).evaluate(dc), slower.evaluate(dc));
        int[] rootFresh = new int[dc.length];
        int[] rootMemo = new int[dc.length];
        assertEquals(fresh.subModels(dc, rootFresh), memoised.subModels(dc, rootMemo));
        assertArrayEquals(rootFresh, rootMemo);
        CostTerms a = fresh.terms(dc);
        CostTerms b = memoised.terms(dc);
        for (int d = 0; d < devices; d++) {
          assertEquals(a.subModels(d), b.subModels(d));
        }
        for (int op = 0; op < dc.length; op++) {
          assertEquals(a.opMicros(op), b.opMicros(op));
        }
      }
    }
    long[] hm = memoised.splitMemoHitsAndMisses();
    assertEquals(placements.size(), hm[1], "each placement split once");
    // Per placement and round: evaluate, the slower model's evaluate, subModels, terms; all but the first a hit.
    assertEquals(8L * placements.size() - placements.size(), hm[0], "every later lookup answered from the memo");
  }

  @Test
  void theLeastRecentlyUsedSplitLeavesFirstAndAStoredPlacementIsACopy() {
    SplitMemo memo = new SplitMemo(2);
    SplitMemo.Entry e = new SplitMemo.Entry(new int[] {0, 0}, new int[] {1}, 1, false);
    int[] a = {0, 0};
    int[] b = {0, 1};
    int[] c = {1, 1};
    memo.put(a, e);
    memo.put(b, e);
    assertSame(e, memo.get(new int[] {0, 0}), "found by value");
    a[1] = 1; // the caller's array changes; the memo kept its own copy
    assertSame(e, memo.get(a), "{0, 1} now: b's placement, found by value");
    assertSame(e, memo.get(new int[] {0, 0}), "the stored {0, 0} did not change with the caller's array");
    memo.put(c, e); // evicts b, the least recently used
    assertNotNull(memo.get(new int[] {0, 0}));
    assertNull(memo.get(new int[] {0, 1}));
    assertNotNull(memo.get(new int[] {1, 1}));
  }

  @Test
  void aLargeModelsMemoStaysWithinItsBudget() {
    assertEquals(SplitMemo.MAX_ENTRIES, SplitMemo.forOps(10).capacity());
    int ops = 100_000;
    assertTrue(SplitMemo.forOps(ops).capacity() * 8L * ops <= SplitMemo.BUDGET_BYTES);
    assertEquals(16, SplitMemo.forOps(10_000_000).capacity());
  }

  private static int[] blocks(int ops, int devices, SplittableRandom rnd) {
    int[] dc = new int[ops];
    int block = 1 + rnd.nextInt(30);
    int cur = 0;
    for (int i = 0; i < ops; i++) {
      if (i % block == 0) {
        cur = rnd.nextInt(devices);
      }
      dc[i] = cur;
    }
    return dc;
  }
}
