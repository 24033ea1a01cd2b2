package org.hsdag.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hsdag.coarsen.IntGraph;
import org.junit.jupiter.api.Test;

class FractalDimensionTest {
  private static final double EPS = 1e-9;

  /** Least-squares slope written out for the hand checks: x = ln r, y = ln N. */
  private static double slope(double[] r, double[] n) {
    double mx = 0;
    double my = 0;
    for (int k = 0; k < r.length; k++) {
      mx += Math.log(r[k]) / r.length;
      my += Math.log(n[k]) / r.length;
    }
    double num = 0;
    double den = 0;
    for (int k = 0; k < r.length; k++) {
      num += (Math.log(r[k]) - mx) * (Math.log(n[k]) - my);
      den += (Math.log(r[k]) - mx) * (Math.log(r[k]) - mx);
    }
    return num / den;
  }

  @Test
  void starLeafAndCentre() {
    // Centre 0 with leaves 1..4 (edges point outwards; direction is ignored).
    IntGraph star = new IntGraph(5, new int[] {0, 0, 0, 0}, new int[] {1, 2, 3, 4});
    double[] d = FractalDimension.withDefaults().compute(star);
    // Centre: one shell only (N(1) = 5), slope undefined -> 0.
    assertEquals(0.0, d[0], EPS);
    // Leaf: N(1) = 2, N(2) = 5; two points give slope (ln 5 - ln 2) / (ln 2 - ln 1) = log2(2.5).
    double expected = Math.log(2.5) / Math.log(2);
    assertEquals(1.3219280948873624, expected, 1e-12);
    for (int leaf = 1; leaf <= 4; leaf++) {
      assertEquals(expected, d[leaf], EPS);
    }
  }

  @Test
  void pathGraph() {
    // 0 -> 1 -> 2 -> 3 -> 4.
    IntGraph path = new IntGraph(5, new int[] {0, 1, 2, 3}, new int[] {1, 2, 3, 4});
    double[] d = FractalDimension.withDefaults().compute(path);
    // End node: N = 2, 3, 4, 5 at r = 1..4.
    assertEquals(slope(new double[] {1, 2, 3, 4}, new double[] {2, 3, 4, 5}), d[0], EPS);
    assertEquals(d[0], d[4], EPS);
    // Middle node: N = 3, 5 at r = 1, 2 -> log2(5/3).
    assertEquals(Math.log(5.0 / 3.0) / Math.log(2), d[2], EPS);
    // Node 1: N = 3, 4, 5 at r = 1, 2, 3.
    assertEquals(slope(new double[] {1, 2, 3}, new double[] {3, 4, 5}), d[1], EPS);
  }

  @Test
  void radiusBoundCutsTheFit() {
    IntGraph path = new IntGraph(5, new int[] {0, 1, 2, 3}, new int[] {1, 2, 3, 4});
    double[] d = new FractalDimension(2, 1000).compute(path);
    // Only r = 1, 2 for the end node: N = 2, 3.
    assertEquals(Math.log(1.5) / Math.log(2), d[0], EPS);
  }

  @Test
  void edgeBudgetKeepsOnlyCompletedShells() {
    IntGraph star = new IntGraph(5, new int[] {0, 0, 0, 0}, new int[] {1, 2, 3, 4});
    // A leaf scans 1 entry for shell 1, then 4 for shell 2: a budget of 4 stops before shell 2.
    double[] d = new FractalDimension(8, 4).compute(star);
    assertEquals(0.0, d[1], EPS);
  }

  @Test
  void parallelEdgesSelfLoopsAndIsolatedNodes() {
    IntGraph withDuplicates = new IntGraph(4, new int[] {0, 0, 1, 1, 2}, new int[] {1, 1, 0, 1, 2});
    IntGraph plain = new IntGraph(4, new int[] {0}, new int[] {1});
    double[] a = FractalDimension.withDefaults().compute(withDuplicates);
    assertArrayEquals(FractalDimension.withDefaults().compute(plain), a, EPS);
    assertEquals(0.0, a[3], EPS);
  }

  @Test
  void rejectsBoundsThatAllowNoSlope() {
    assertThrows(IllegalArgumentException.class, () -> new FractalDimension(1, 10));
    assertThrows(IllegalArgumentException.class, () -> new FractalDimension(4, 0));
  }
}
