package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SegmentMovesTest {
  private static Set<String> asStrings(List<int[]> moves) {
    Set<String> s = new HashSet<>();
    for (int[] m : moves) {
      s.add(Arrays.toString(m));
    }
    return s;
  }

  @Test
  void shiftsEveryBoundaryByPowersOfTwoAndOpensRunsAtTheEnds() {
    SegmentMoves moves = new SegmentMoves(new int[] {0, 1, 2, 3, 4, 5}, new long[] {3, 3, 3, 3, 3, 3}, 2);
    List<int[]> around = moves.around(new int[] {0, 0, 0, 1, 1, 1});
    Set<String> expected = Set.of(
        // a new head run
        "[1, 0, 0, 1, 1, 1]", "[1, 1, 0, 1, 1, 1]", "[1, 1, 1, 1, 1, 1]",
        // the boundary after node 2 shifted left, then right
        "[0, 0, 1, 1, 1, 1]", "[0, 1, 1, 1, 1, 1]", "[0, 0, 0, 0, 1, 1]", "[0, 0, 0, 0, 0, 1]",
        // a new tail run
        "[0, 0, 0, 1, 1, 0]", "[0, 0, 0, 1, 0, 0]", "[0, 0, 0, 0, 0, 0]");
    assertEquals(expected, asStrings(around));
    assertEquals(expected.size(), around.size(), "no move twice");
  }

  @Test
  void stretchesOpenRunsInsideRunsAndLeaveBoundaryMovesToAround() {
    SegmentMoves moves = new SegmentMoves(new int[] {0, 1, 2, 3, 4, 5}, new long[] {3, 3, 3, 3, 3, 3}, 2);
    int[] start = {0, 0, 0, 0, 0, 1};
    Set<String> stretches = asStrings(moves.stretches(start));
    assertEquals(moves.stretches(start).size(), stretches.size(), "no move twice");
    assertTrue(stretches.contains("[0, 0, 1, 1, 0, 1]"), "a new run of two inside the run of device 0");
    assertTrue(stretches.contains("[0, 1, 0, 0, 0, 1]"), "a new run of one");
    for (String m : asStrings(moves.around(start))) {
      assertTrue(!stretches.contains(m), "boundary moves are around's: " + m);
    }
    for (int[] m : moves.stretches(start)) {
      int first = -1;
      int last = -1;
      for (int v = 0; v < m.length; v++) {
        if (m[v] != start[v]) {
          first = first < 0 ? v : first;
          last = v;
        }
      }
      assertTrue(first >= 0, "changes something");
      assertTrue(last - first + 1 <= 4, "at most one stretch of up to 4 nodes: " + Arrays.toString(m));
    }
  }

  @Test
  void followsTheGivenOrderAndKeepsNodesOffDevicesTheyCannotUse() {
    // Order 2, 0, 1; node 0 may only use device 0; three devices.
    SegmentMoves moves = new SegmentMoves(new int[] {2, 0, 1}, new long[] {1, 7, 7}, 3);
    int[] start = {0, 0, 2};
    List<int[]> around = moves.around(start);
    assertTrue(asStrings(around).contains("[0, 2, 2]"), "the run of node 2 grows over node 0 (kept) to node 1");
    assertTrue(asStrings(around).contains("[0, 1, 2]"), "a new tail run: node 1 on device 1");
    for (int[] m : around) {
      assertEquals(0, m[0], "node 0 runs on device 0 only");
      assertNotEquals(Arrays.toString(start), Arrays.toString(m));
    }
  }

  /**
   * A chain whose cost is per-node plus a charge per device change, as HETERO's sub-model
   * boundaries: every single-node flip from "all on device 0" is worse, yet climbing by segment
   * moves ends at the optimum (brute force over all 2^n placements).
   */
  @Test
  void climbingBySegmentMovesReachesAnOptimumThatSingleFlipsCannotLeaveTheirStartFor() {
    int n = 14;
    double[][] cost = new double[n][2];
    for (int v = 0; v < n; v++) {
      cost[v][0] = 1;
      cost[v][1] = v >= 4 && v < 11 ? -1 : 3;
    }
    double boundary = 3;
    int[] order = new int[n];
    long[] masks = new long[n];
    for (int v = 0; v < n; v++) {
      order[v] = v;
      masks[v] = 3;
    }
    int[] current = new int[n];
    for (int v = 0; v < n; v++) {
      int[] flipped = current.clone();
      flipped[v] = 1;
      assertTrue(total(flipped, cost, boundary) > total(current, cost, boundary),
          "single flips are worse at the start");
    }
    SegmentMoves moves = new SegmentMoves(order, masks, 2);
    for (boolean improved = true; improved;) {
      improved = false;
      for (int[] m : moves.around(current)) {
        if (total(m, cost, boundary) < total(current, cost, boundary) - 1e-9) {
          current = m;
          improved = true;
          break;
        }
      }
    }
    double optimum = Double.POSITIVE_INFINITY;
    for (int bits = 0; bits < 1 << n; bits++) {
      int[] p = new int[n];
      for (int v = 0; v < n; v++) {
        p[v] = bits >>> v & 1;
      }
      optimum = Math.min(optimum, total(p, cost, boundary));
    }
    assertEquals(optimum, total(current, cost, boundary), 1e-9);
    assertTrue(optimum < total(new int[n], cost, boundary));
  }

  private static double total(int[] p, double[][] cost, double boundary) {
    double t = 0;
    for (int v = 0; v < p.length; v++) {
      t += cost[v][p[v]] + (v > 0 && p[v] != p[v - 1] ? boundary : 0);
    }
    return t;
  }
}
