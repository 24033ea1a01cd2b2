package org.hsdag.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.train.Runs;
import org.hsdag.train.SyntheticGraphs;
import org.junit.jupiter.api.Test;
import org.hsdag.strategy.HsdagStrategy;

/** Device masks, the cluster-count bound, state refinement and legal single-device placements. */
class HsdagPolicyTest {
  static final Map<String, double[]> COST = Map.of("Convolution", new double[] {1, 2}, "MatMul", new double[] {2, 1});
  static final OpGraph GRAPH = SyntheticGraphs.segmented(2, 8, "Convolution", "MatMul");
  static final HsdagConfig SMALL = HsdagConfig.builder().coarsening(CoarseningMode.NONE).stepsPerUpdate(4).hidden(16)
      .placerHidden(16).torchThreads(1).build();

  static void assertAllowed(SupportMatrix support, Placement p) {
    for (int v = 0; v < p.size(); v++) {
      assertTrue(support.allowed(v, p.deviceOf(v)), "op " + v + " placed on a device it cannot run");
    }
  }

  @Test
  void neverProposesAnUnsupportedDeviceWhenAnotherExists() {
    long[] mask = new long[GRAPH.nodeCount()];
    for (int v = 0; v < mask.length; v++) {
      mask[v] = GRAPH.node(v).type().equals("MatMul") ? 0b01 : 0b11; // MatMul: CPU only
    }
    mask[0] = 0b10; // neighbours 0 (GPU only) and 1 (CPU only) share no device
    mask[1] = 0b01;
    SupportMatrix support = new SupportMatrix(Runs.DEVICES, mask);
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, support);
    try (HsdagStrategy s = Runs.started(SMALL, GRAPH, backend, 2)) {
      for (Placement p : Runs.run(s, GRAPH, backend, 12).placements()) {
        assertAllowed(support, p);
      }
    }
  }

  @Test
  void clusterMasksIntersectThenFallBackToUnion() {
    Coarsening c = new Coarsening(CoarseningMode.NONE, new int[] {0, 0, 1, 1}, 2,
        new IntGraph(2, new int[] {0}, new int[] {1}));
    SupportMatrix support = new SupportMatrix(Runs.DEVICES, new long[] {0b11, 0b01, 0b10, 0b01});
    assertArrayEquals(new long[] {0b01, 0b11}, HsdagStrategy.coarseMasks(c, support, 2));
    Placement repaired = HsdagStrategy.repair(new Placement(Runs.DEVICES, new int[] {1, 1, 0, 1}), support);
    assertArrayEquals(new int[] {1, 0, 1, 0}, repaired.deviceOf());
  }

  @Test
  void clusterCountIsBoundedBelow() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    HsdagConfig two = SMALL.toBuilder().minClusterFraction(0).build();
    HsdagConfig half = SMALL.toBuilder().minClusterFraction(0.5).build();
    assertEquals(2, two.clusterLowerBound(GRAPH.nodeCount()));
    assertEquals(8, half.clusterLowerBound(GRAPH.nodeCount()));
    assertEquals(1, two.clusterLowerBound(1));
    assertThrows(IllegalArgumentException.class, () -> SMALL.toBuilder().minClusters(1).build());
    for (HsdagConfig config : new HsdagConfig[] {two, half}) {
      try (HsdagStrategy s = Runs.started(config, GRAPH, backend, 3)) {
        for (int i = 0; i < 8; i++) {
          Placement p = s.propose();
          assertTrue(s.lastClusterCount() >= config.clusterLowerBound(GRAPH.nodeCount()),
              s.lastClusterCount() + " clusters");
          s.observe(p, backend.measure(GRAPH, p, Runs.ONE_RUN));
        }
      }
    }
  }

  @Test
  void refinementStateAccumulatesWithinAnEpisodeAndResetsAfterAnUpdate() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    try (HsdagStrategy s = Runs.started(SMALL, GRAPH, backend, 4)) {
      HsdagPolicy policy = s.trainer().policy();
      assertEquals(0f, policy.state().abs().sum().getFloat());
      Runs.run(s, GRAPH, backend, 2);
      assertTrue(policy.state().abs().sum().getFloat() > 0, "Z_v += Z_cluster(v) after each step");
      Runs.run(s, GRAPH, backend, 2);
      assertEquals(1, s.trainer().updates());
      assertEquals(0f, policy.state().abs().sum().getFloat(), "a new episode starts from zero");
    }
  }

  @Test
  void singleDevicePlacementsAreLegal() {
    long[] mask = new long[GRAPH.nodeCount()];
    java.util.Arrays.fill(mask, 0b01);
    SupportMatrix cpuOnly = new SupportMatrix(Runs.DEVICES, mask);
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, cpuOnly);
    try (HsdagStrategy s = Runs.started(SMALL, GRAPH, backend, 5)) {
      for (Placement p : Runs.run(s, GRAPH, backend, 5).placements()) {
        assertTrue(p.isSingleDevice());
        assertEquals(0, p.deviceOf(0));
      }
    }
  }

  @Test
  void tinyAndEdgelessGraphsWork() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    for (OpGraph g : new OpGraph[] {
        SyntheticGraphs.build(java.util.List.of("MatMul"), java.util.List.of()),
        SyntheticGraphs.build(java.util.List.of("MatMul", "Convolution", "MatMul"), java.util.List.of())}) {
      try (HsdagStrategy s = Runs.started(HsdagConfig.builder().torchThreads(1).build(), g, backend, 1)) {
        for (Placement p : Runs.run(s, g, backend, 6).placements()) {
          assertEquals(g.nodeCount(), p.size());
        }
        assertEquals(1, s.trainer().updates());
      }
    }
  }
}
