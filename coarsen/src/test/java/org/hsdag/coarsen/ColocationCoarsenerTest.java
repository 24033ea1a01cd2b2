package org.hsdag.coarsen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;

class ColocationCoarsenerTest {
  /**
   * p, w → conv → r → {s, t} → u → res. The ReLU r has two consumers and the Add u two producers, which is
   * where the two rules cut.
   */
  private static final class Diamond {
    final TestGraphs.Builder b = TestGraphs.builder();
    final int p = b.node("Parameter", 1, 3, 8, 8);
    final int w = b.node("Const", 4, 3, 3, 3);
    final int conv = b.node("Convolution", 1, 4, 8, 8);
    final int r = b.node("ReLU", 1, 4, 8, 8);
    final int s = b.node("ReLU", 1, 4, 8, 8);
    final int t = b.node("Sigmoid", 1, 4, 8, 8);
    final int u = b.node("Add", 1, 4, 8, 8);
    final int res = b.node("Result");
    final OpGraph g;

    Diamond() {
      b.edge(p, conv).edge(w, conv).edge(conv, r).edge(r, s).edge(r, t).edge(s, u).edge(t, u).edge(u, res);
      g = b.build();
    }
  }

  private static Coarsening coarsen(CoarseningMode mode, OpGraph g) {
    return new ColocationCoarsener(mode).coarsen(g);
  }

  @Test
  void mirhoseiniJoinsSingleConsumerUpToTheFork() {
    Diamond d = new Diamond();
    Coarsening c = coarsen(CoarseningMode.MIRHOSEINI, d.g);
    assertEquals(2, c.clusterCount());
    assertArrayEquals(new int[] {d.p, d.w, d.conv, d.r}, c.members(0));
    assertArrayEquals(new int[] {d.s, d.t, d.u, d.res}, c.members(1));
    assertEquals(new IntGraph(2, new int[] {0}, new int[] {1}), c.quotient());
  }

  @Test
  void hsdagJoinsSingleProducerUpToTheJoin() {
    Diamond d = new Diamond();
    Coarsening c = coarsen(CoarseningMode.HSDAG, d.g);
    // conv has two producers and starts a group; p and w are followers and join it.
    assertEquals(2, c.clusterCount());
    assertArrayEquals(new int[] {d.p, d.w, d.conv, d.r, d.s, d.t}, c.members(0));
    assertArrayEquals(new int[] {d.u, d.res}, c.members(1));
  }

  @Test
  void noneOnlyFoldsFollowers() {
    Diamond d = new Diamond();
    Coarsening c = coarsen(CoarseningMode.NONE, d.g);
    assertEquals(6, c.clusterCount());
    assertEquals(c.clusterOf(d.conv), c.clusterOf(d.p));
    assertEquals(c.clusterOf(d.conv), c.clusterOf(d.w));
    assertEquals(3, c.members(c.clusterOf(d.conv)).length);
  }

  @Test
  void mirhoseiniCountsDistinctConsumers() {
    TestGraphs.Builder b = TestGraphs.builder();
    int p = b.node("Parameter", 4);
    int x = b.node("ReLU", 4);
    int sq = b.node("Multiply", 4);
    int res = b.node("Result");
    b.edge(p, x).edge(x, sq).edge(x, sq).edge(sq, res);
    Coarsening c = coarsen(CoarseningMode.MIRHOSEINI, b.build());
    assertEquals(1, c.clusterCount(), "x feeds both inputs of one Multiply: one consumer");
  }

  @Test
  void hsdagCountsDistinctProducers() {
    TestGraphs.Builder b = TestGraphs.builder();
    int p = b.node("Parameter", 4);
    int x = b.node("ReLU", 4);
    int y = b.node("ReLU", 4);
    int sq = b.node("Multiply", 4);
    int res = b.node("Result");
    b.edge(p, x).edge(p, y).edge(x, sq).edge(x, sq).edge(sq, res).edge(y, res);
    Coarsening c = coarsen(CoarseningMode.HSDAG, b.build());
    assertEquals(c.clusterOf(x), c.clusterOf(sq), "x*x has one producer");
    assertNotEquals(c.clusterOf(sq), c.clusterOf(res), "the Result has two producers");
  }

  @Test
  void constantChainFollowsItsConsumerInEveryMode() {
    for (CoarseningMode mode : CoarseningMode.values()) {
      TestGraphs.Builder b = TestGraphs.builder();
      int p = b.node("Parameter", 1, 3, 8, 8);
      int relu = b.node("ReLU", 1, 3, 8, 8);
      int w = b.node("Const", 4, 3, 3, 3);
      int cw = b.node("Convert", 4, 3, 3, 3);
      int conv = b.node("Convolution", 1, 4, 8, 8);
      int relu2 = b.node("ReLU", 1, 4, 8, 8);
      int other = b.node("Sigmoid", 1, 3, 8, 8);
      int add = b.node("Add", 1, 4, 8, 8);
      int res = b.node("Result");
      b.edge(p, relu).edge(relu, conv).edge(relu, other).edge(w, cw).edge(cw, conv).edge(conv, relu2)
          .edge(relu2, add).edge(other, add).edge(add, res);
      Coarsening c = coarsen(mode, b.build());
      assertEquals(c.clusterOf(conv), c.clusterOf(cw), mode + ": decompression Convert joins the convolution");
      assertEquals(c.clusterOf(conv), c.clusterOf(w), mode + ": weights join the convolution");
      assertEquals(c.clusterOf(relu), c.clusterOf(p), mode + ": the Parameter joins its consumer");
    }
  }

  @Test
  void sharedConstantJoinsItsEarliestConsumerWithoutCycle() {
    // c feeds a and b, and a feeds b: joining b would make {c, b} -> a -> {c, b}.
    for (CoarseningMode mode : CoarseningMode.values()) {
      TestGraphs.Builder bld = TestGraphs.builder();
      int p = bld.node("Parameter", 4);
      int x = bld.node("ReLU", 4);
      int y = bld.node("Sigmoid", 4);
      int c = bld.node("Const", 4);
      int a = bld.node("Add", 4);
      int b = bld.node("Multiply", 4);
      int res = bld.node("Result");
      bld.edge(p, x).edge(p, y).edge(x, a).edge(c, a).edge(c, b).edge(a, b).edge(y, b).edge(b, res);
      Coarsening co = coarsen(mode, bld.build());
      assertTrue(Quotients.isAcyclic(co.quotient()), mode.toString());
      assertEquals(co.clusterOf(a), co.clusterOf(c), mode + ": shared constant joins its first consumer");
    }
  }

  @Test
  void constantFeedingBothAConstantAndAnOpStillFoldsEverything() {
    // w feeds the constant Convert s and the Add b; s feeds m; b feeds m. A follower pass that only moved
    // producer-free groups would leave s alone once w had joined b.
    TestGraphs.Builder bld = TestGraphs.builder();
    int w = bld.node("Const", 4);
    int s = bld.node("Convert", 4);
    int p = bld.node("Parameter", 4);
    int b = bld.node("Add", 4);
    int m = bld.node("Multiply", 4);
    int res = bld.node("Result");
    bld.edge(w, s).edge(w, b).edge(p, b).edge(b, m).edge(s, m).edge(m, res);
    OpGraph g = bld.build();
    for (CoarseningMode mode : CoarseningMode.values()) {
      Coarsening c = coarsen(mode, g);
      assertTrue(Quotients.isAcyclic(c.quotient()), mode.toString());
      assertNotEquals(c.clusterOf(s), -1);
      int sc = c.clusterOf(s);
      assertTrue(sc == c.clusterOf(m) || sc == c.clusterOf(b), mode + ": Convert follows a consumer group");
      assertTrue(c.members(c.clusterOf(w)).length > 1, mode + ": Const follows a consumer group");
    }
  }

  @Test
  void followerWithoutConsumerStaysAlone() {
    TestGraphs.Builder b = TestGraphs.builder();
    int p = b.node("Parameter", 4);
    int unused = b.node("Const", 4);
    int res = b.node("Result");
    b.edge(p, res);
    Coarsening c = coarsen(CoarseningMode.MIRHOSEINI, b.build());
    assertEquals(2, c.clusterCount());
    assertArrayEquals(new int[] {unused}, c.members(c.clusterOf(unused)));
  }

  @Test
  void clustersAreNumberedTopologically() {
    OpGraph g = TestGraphs.randomDag(300, 7);
    for (CoarseningMode mode : CoarseningMode.values()) {
      IntGraph q = coarsen(mode, g).quotient();
      for (int e = 0; e < q.edgeCount(); e++) {
        assertTrue(q.src(e) < q.dst(e), mode + ": edge " + q.src(e) + "->" + q.dst(e));
      }
    }
  }

  @Test
  void liftCopiesEachClusterDeviceToItsMembers() {
    Diamond d = new Diamond();
    Coarsening c = coarsen(CoarseningMode.MIRHOSEINI, d.g);
    DeviceSet devices = DeviceSet.of("CPU", "GPU");
    Placement pl = c.lift(devices, new int[] {1, 0});
    for (int v = 0; v < d.g.nodeCount(); v++) {
      assertEquals(c.clusterOf(v) == 0 ? "GPU" : "CPU", pl.deviceName(v));
    }
    assertThrows(InvalidPlacementException.class, () -> c.lift(devices, new int[] {0}));
    assertThrows(InvalidPlacementException.class, () -> c.lift(devices, new int[] {0, 2}));
  }

  @Test
  void membersAgreeWithAllMembersAndSizes() {
    Coarsening c = coarsen(CoarseningMode.HSDAG, TestGraphs.randomDag(200, 3));
    int[][] all = c.allMembers();
    int[] sizes = c.clusterSizes();
    int total = 0;
    for (int k = 0; k < c.clusterCount(); k++) {
      assertArrayEquals(c.members(k), all[k]);
      assertEquals(sizes[k], all[k].length);
      total += sizes[k];
    }
    assertEquals(c.nodeCount(), total);
  }

  @Test
  void recordRejectsInconsistentParts() {
    IntGraph q = new IntGraph(2, new int[] {0}, new int[] {1});
    assertThrows(IllegalArgumentException.class, () -> new Coarsening(CoarseningMode.NONE, new int[] {0, 0}, 2, q));
    assertThrows(IllegalArgumentException.class, () -> new Coarsening(CoarseningMode.NONE, new int[] {0, 2}, 2, q));
    IntGraph loop = new IntGraph(2, new int[] {1}, new int[] {1});
    assertThrows(IllegalArgumentException.class, () -> new Coarsening(CoarseningMode.NONE, new int[] {0, 1}, 2, loop));
  }
}
