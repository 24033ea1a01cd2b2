package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchOutcome;
import org.junit.jupiter.api.Test;

/** Placeto and the RNN placer on tiny graphs (DJL, a few seconds). */
class LearnedBaselinesTest {
  private static final Grouping G = Grouping.CONSTANTS_WITH_CONSUMER;

  /** Six ops that all run much faster on device 1. */
  private static TinyGraphs.Instance allOnGpu() {
    return TinyGraphs.chain(DeviceSet.of("CPU", "GPU.1"), new int[] {1, 1, 1, 1, 1, 1}, new int[] {0, 3}, new int[] {});
  }

  @Test
  void placetoRespectsSupportAndIsDeterministicPerSeed() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    List<Placement> a;
    List<Placement> b;
    try (PlacetoStrategy s1 = new PlacetoStrategy(G, PlacetoStrategy.Config.DEFAULT);
        PlacetoStrategy s2 = new PlacetoStrategy(G, PlacetoStrategy.Config.DEFAULT)) {
      a = BaselinesTest.proposals(s1, inst, 120, 4);
      b = BaselinesTest.proposals(s2, inst, 120, 4);
      assertTrue(s1.episodes() >= 3, "episodes " + s1.episodes());
    }
    assertEquals(120, a.size());
    assertEquals(a, b);
    BaselinesTest.assertRespectsSupport(a, inst.context(1, 1).support());
  }

  @Test
  void placetoLearnsToPreferTheFasterDevice() {
    TinyGraphs.Instance inst = allOnGpu();
    try (PlacetoStrategy s = new PlacetoStrategy(G, PlacetoStrategy.Config.DEFAULT)) {
      s.init(inst.context(1, 11));
      int[] allCpu = new int[s.space().unitCount()];
      double before = s.meanProbability(allCpu, 1);
      SearchOutcome t = inst.run(s, 120, 11);
      double after = s.meanProbability(allCpu, 1);
      assertTrue(after > before + 0.1, "p(GPU) " + before + " -> " + after);
      assertEquals(inst.optimumLatency(), t.best().latencyMillis(), 1e-9);
    }
  }

  @Test
  void rnnSamplerAndTeacherForcedLogProbabilitiesAgree() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    try (RnnPlacerStrategy s = new RnnPlacerStrategy(G, RnnPlacerStrategy.Config.DEFAULT)) {
      s.init(inst.context(100, 3));
      s.sampleForTest();
      double[][] lp = s.lastBatchLogProbs();
      for (int i = 0; i < lp[0].length; i++) {
        assertEquals(lp[1][i], lp[0][i], 1e-3, "sample " + i);
        assertTrue(lp[0][i] < 0);
      }
    }
  }

  @Test
  void rnnRespectsSupportAndIsDeterministicPerSeed() {
    TinyGraphs.Instance inst = TinyGraphs.medium();
    List<Placement> a;
    List<Placement> b;
    try (RnnPlacerStrategy s1 = new RnnPlacerStrategy(G, RnnPlacerStrategy.Config.DEFAULT);
        RnnPlacerStrategy s2 = new RnnPlacerStrategy(G, RnnPlacerStrategy.Config.DEFAULT)) {
      a = BaselinesTest.proposals(s1, inst, 100, 4);
      b = BaselinesTest.proposals(s2, inst, 100, 4);
      assertTrue(s1.updates() >= 5, "updates " + s1.updates());
    }
    assertEquals(100, a.size());
    assertEquals(a, b);
    BaselinesTest.assertRespectsSupport(a, inst.context(1, 1).support());
  }

  /** Pins the sign of the update: the notebook's sign error would make the slow device likelier. */
  @Test
  void rnnLearnsToPreferTheFasterDevice() {
    TinyGraphs.Instance inst = allOnGpu();
    try (RnnPlacerStrategy s = new RnnPlacerStrategy(G, RnnPlacerStrategy.Config.DEFAULT)) {
      s.init(inst.context(1, 5));
      double before = s.meanLogProbOfAll(1);
      SearchOutcome t = inst.run(s, 60, 5);
      double after = s.meanLogProbOfAll(1);
      assertTrue(Math.exp(after) > Math.exp(before) + 0.1,
          "p(GPU) per unit " + Math.exp(before) + " -> " + Math.exp(after));
      assertEquals(inst.optimumLatency(), t.best().latencyMillis(), 1e-9);
    }
  }
}
