package org.hsdag.parsing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.coarsen.Quotients;
import org.junit.jupiter.api.Test;

class GraphParsingTest {
  /** Path 0-1-2-3-4-5 as edges e0..e4 (ek joins k and k+1). */
  private static final IntGraph PATH = new IntGraph(6, new int[] {0, 1, 2, 3, 4}, new int[] {1, 2, 3, 4, 5});

  @Test
  void eachNodeKeepsItsDominantEdge() {
    //            e0   e1   e2   e3   e4
    float[] s = {0.9f, 0.2f, 0.1f, 0.3f, 0.8f};
    ParseResult r = GraphParsing.parse(PATH, s, 1);
    // 0:e0 1:e0 2:e1 3:e3 4:e4 5:e4 -> components {0,1,2} {3,4,5}.
    assertArrayEquals(new int[] {0, 0, 1, 3, 4, 4}, r.keptEdge());
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, r.clusterOf());
    assertEquals(2, r.clusterCount());
    assertEquals(new IntGraph(2, new int[] {0}, new int[] {1}), r.pooled());
  }

  @Test
  void tiesGoToTheLowerEdgeIndexInEitherDirection() {
    // Node 1 has an incoming e0 and an outgoing e1 with the same score: e0 wins.
    IntGraph g = new IntGraph(3, new int[] {0, 1}, new int[] {1, 2});
    ParseResult r = GraphParsing.parse(g, new float[] {0.5f, 0.5f}, 1);
    assertArrayEquals(new int[] {0, 0, 1}, r.keptEdge());
    assertEquals(1, r.clusterCount());
  }

  @Test
  void minClustersDropsKeptEdgesFromTheLowestScore() {
    float[] s = {0.9f, 0.2f, 0.1f, 0.3f, 0.8f};
    // Kept edges by score: e0 0.9, e4 0.8, e3 0.3, e1 0.2. With all, 2 clusters; asking 4 drops e1 and e3.
    ParseResult r = GraphParsing.parse(PATH, s, 4);
    assertEquals(4, r.clusterCount());
    assertArrayEquals(new int[] {0, 0, 1, 2, 3, 3}, r.clusterOf());
    assertArrayEquals(new int[] {0, 0, -1, -1, 4, 4}, r.keptEdge());
    assertEquals(new IntGraph(4, new int[] {0, 1, 2}, new int[] {1, 2, 3}), r.pooled());
    // A bound above the node count keeps every node alone.
    assertEquals(6, GraphParsing.parse(PATH, s, 100).clusterCount());
  }

  @Test
  void connectedGraphWithMinClustersTwoNeverCollapses() {
    IntGraph g = new IntGraph(4, new int[] {0, 1, 2, 0}, new int[] {1, 2, 3, 3});
    ParseResult r = GraphParsing.parse(g, new float[] {0.5f, 0.6f, 0.7f, 0.8f}, 2);
    // Dominant: 0:e3 1:e1 2:e2 3:e3; together one component. e3 then e2 give {0,2,3} {1}; e1 (lowest)
    // would collapse to one cluster and is dropped.
    assertEquals(2, r.clusterCount());
    assertArrayEquals(new int[] {0, 1, 0, 0}, r.clusterOf());
    assertArrayEquals(new int[] {3, -1, 2, 3}, r.keptEdge());
  }

  @Test
  void pooledGraphMergesDuplicatesAndDropsSelfLoops() {
    // Two triangles joined by two parallel links 2->3 and 1->4; a self-loop on 5.
    IntGraph g = new IntGraph(6,
        new int[] {0, 1, 0, 3, 4, 3, 2, 1, 5},
        new int[] {1, 2, 2, 4, 5, 5, 3, 4, 5});
    float[] s = {0.9f, 0.8f, 0.7f, 0.9f, 0.8f, 0.7f, 0.1f, 0.1f, 5f};
    ParseResult r = GraphParsing.parse(g, s, 1);
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, r.clusterOf());
    assertEquals(new IntGraph(2, new int[] {0}, new int[] {1}), r.pooled());
    assertEquals(4, r.keptEdge(5), "the self-loop is ignored even with the top score");
  }

  @Test
  void isolatedNodesStayAloneAndKeepNoEdge() {
    IntGraph g = new IntGraph(4, new int[] {1}, new int[] {2});
    ParseResult r = GraphParsing.parse(g, new float[] {0.3f}, 1);
    assertArrayEquals(new int[] {-1, 0, 0, -1}, r.keptEdge());
    assertArrayEquals(new int[] {0, 1, 1, 2}, r.clusterOf());
  }

  @Test
  void clustersAreComponentsOfKeptEdgesOnRandomGraphs() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + rnd.nextInt(60);
      int m = rnd.nextInt(3 * n);
      int[] src = new int[m];
      int[] dst = new int[m];
      float[] s = new float[m];
      for (int e = 0; e < m; e++) {
        src[e] = rnd.nextInt(n);
        dst[e] = rnd.nextInt(n);
        s[e] = rnd.nextInt(5) / 4f; // coarse scores to exercise ties
      }
      IntGraph g = new IntGraph(n, src, dst);
      int min = 1 + rnd.nextInt(n);
      ParseResult r = GraphParsing.parse(g, s, min);
      assertTrue(r.clusterCount() >= Math.min(min, n), "bound respected");
      assertEquals(Quotients.of(g, r.clusterOf(), r.clusterCount()), r.pooled());
      for (int v = 0; v < n; v++) {
        int k = r.keptEdge(v);
        if (k >= 0) {
          assertTrue(src[k] == v || dst[k] == v, "kept edge touches its node");
          assertEquals(r.clusterOf(src[k]), r.clusterOf(dst[k]), "kept edge is inside a cluster");
          for (int e = 0; e < m; e++) {
            if ((src[e] == v || dst[e] == v) && src[e] != dst[e]) {
              assertTrue(s[e] < s[k] || (s[e] == s[k] && e >= k), "kept edge is the dominant one");
            }
          }
        }
      }
      // Every cluster is connected through kept edges: count components of kept edges directly.
      org.hsdag.coarsen.DisjointSets ds = new org.hsdag.coarsen.DisjointSets(n);
      for (int v = 0; v < n; v++) {
        if (r.keptEdge(v) >= 0) {
          ds.union(src[r.keptEdge(v)], dst[r.keptEdge(v)]);
        }
      }
      assertEquals(r.clusterCount(), ds.setCount(), "clusters = components of the kept edges");
    }
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> GraphParsing.parse(PATH, new float[4], 1));
    assertThrows(IllegalArgumentException.class, () -> GraphParsing.parse(PATH, new float[5], 0));
    float[] nan = {0, 0, Float.NaN, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> GraphParsing.parse(PATH, nan, 1));
  }

  @org.junit.jupiter.api.Test
  void bestFirstOrdersLikeTheScoreComparatorWithTiesAndSignedZeros() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
    float[] palette = {0f, -0f, 1f, -1f, 0.5f, 0.5f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.MAX_VALUE, 1e-30f};
    for (int trial = 0; trial < 200; trial++) {
      int m = 1 + rnd.nextInt(60);
      float[] scores = new float[m];
      boolean[] kept = new boolean[m];
      int count = 0;
      for (int e = 0; e < m; e++) {
        scores[e] = rnd.nextBoolean() ? palette[rnd.nextInt(palette.length)] : (float) rnd.nextGaussian();
        kept[e] = rnd.nextInt(4) != 0;
        count += kept[e] ? 1 : 0;
      }
      Integer[] expected = java.util.stream.IntStream.range(0, m).filter(e -> kept[e]).boxed().toArray(Integer[]::new);
      java.util.Arrays.sort(expected, (x, y) -> {
        int byScore = Float.compare(scores[y], scores[x]);
        return byScore != 0 ? byScore : Integer.compare(x, y);
      });
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          java.util.Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
          GraphParsing.bestFirst(kept, count, scores));
    }
  }
}
