package org.hsdag.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.strategy.HsdagStrategy;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reproducibility, checkpoint/restore and failure handling of online REINFORCE. */
class ReinforceTrainerTest {
  static final Map<String, double[]> COST = PlantedOptimumTest.COST;
  static final OpGraph GRAPH = SyntheticGraphs.segmented(2, 6, "Convolution", "MatMul");
  static final HsdagConfig CONFIG = HsdagConfig.builder().coarsening(CoarseningMode.NONE).stepsPerUpdate(4).hidden(16)
      .placerHidden(16).torchThreads(1).build();

  static List<float[]> parameters(HsdagStrategy s) {
    List<float[]> out = new ArrayList<>();
    for (NDArray p : s.trainer().policy().parameters().all().values()) {
      out.add(p.toFloatArray());
    }
    return out;
  }

  static void assertSameParameters(List<float[]> a, List<float[]> b) {
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(a.get(i), b.get(i), "parameter tensor " + i + " differs (bitwise)");
    }
  }

  @Test
  void sameSeedGivesSameTrajectoryAndDifferentSeedDiffers() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    try (HsdagStrategy a = Runs.started(CONFIG, GRAPH, backend, 5);
        HsdagStrategy b = Runs.started(CONFIG, GRAPH, backend, 5);
        HsdagStrategy c = Runs.started(CONFIG, GRAPH, backend, 6)) {
      Runs.Trace ta = Runs.run(a, GRAPH, backend, 13);
      Runs.Trace tb = Runs.run(b, GRAPH, backend, 13);
      Runs.Trace tc = Runs.run(c, GRAPH, backend, 13);
      assertEquals(ta.placements(), tb.placements());
      assertEquals(ta.latencies(), tb.latencies());
      assertSameParameters(parameters(a), parameters(b));
      assertEquals(3, a.trainer().updates());
      assertNotEquals(ta.placements(), tc.placements(), "another seed should sample differently");
    }
  }

  @Test
  void restoredRunContinuesBitIdentically(@TempDir Path dir) throws Exception {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    // Stop mid-buffer (after 6 of 4+4 steps) and right after a proposal, the awkward cases.
    try (HsdagStrategy whole = Runs.started(CONFIG, GRAPH, backend, 9)) {
      Runs.Trace reference = Runs.run(whole, GRAPH, backend, 14);
      List<Placement> resumed = new ArrayList<>();
      try (HsdagStrategy first = Runs.started(CONFIG, GRAPH, backend, 9)) {
        resumed.addAll(Runs.run(first, GRAPH, backend, 6).placements());
        first.saveState(dir.resolve("mid-buffer"));
        resumed.add(first.propose());
        first.saveState(dir.resolve("pending"));
      }
      try (HsdagStrategy second = Runs.started(CONFIG, GRAPH, backend, 9)) {
        second.restoreState(dir.resolve("pending"));
        Placement pending = resumed.get(resumed.size() - 1);
        second.observe(pending, backend.measure(GRAPH, pending, Runs.ONE_RUN));
        resumed.addAll(Runs.run(second, GRAPH, backend, 7).placements());
        assertEquals(reference.placements(), resumed);
        assertSameParameters(parameters(whole), parameters(second));
        assertEquals(whole.trainer().updates(), second.trainer().updates());
        assertEquals(whole.trainer().lastLoss(), second.trainer().lastLoss());
      }
      try (HsdagStrategy third = Runs.started(CONFIG, GRAPH, backend, 9)) {
        third.restoreState(dir.resolve("mid-buffer"));
        List<Placement> rest = Runs.run(third, GRAPH, backend, 8).placements();
        assertEquals(reference.placements().subList(6, 14), rest);
        assertSameParameters(parameters(whole), parameters(third));
      }
    }
  }

  @Test
  void failedMeasurementsArePenalisedNotThrown() {
    // Every placement that uses the GPU for op 0 fails.
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, p -> p.deviceOf(0) == 1, null);
    try (HsdagStrategy s = Runs.started(CONFIG, GRAPH, backend, 3)) {
      Runs.Trace t = Runs.run(s, GRAPH, backend, 16);
      long failed = t.latencies().stream().filter(d -> d.isNaN()).count();
      assertTrue(failed > 0, "the scenario should produce failures");
      assertEquals(failed, s.trainer().failures());
      assertEquals(4, s.trainer().updates());
      assertTrue(Double.isFinite(s.trainer().lastLoss()));
    }
  }

  @Test
  void failurePenaltyRanksBelowEverySuccess() {
    RewardModel improved = new RewardModel(false);
    Measurement fail = Measurement.failed("boom", "fake", "fake");
    assertEquals(0.0, improved.reward(fail), "no success seen yet");
    double slow = improved.reward(Measurement.of(new double[] {20}, Runs.ONE_RUN, 1, "fake", "fake"));
    improved.reward(Measurement.of(new double[] {10}, Runs.ONE_RUN, 1, "fake", "fake"));
    assertEquals(slow / 2, improved.reward(fail), 1e-12, "twice the slowest latency seen");
    assertEquals(1e-10, new RewardModel(true).reward(fail), 0.0, "paper: 1e10 s");
    assertEquals(50.0, new RewardModel(true).reward(Measurement.of(new double[] {20}, Runs.ONE_RUN, 1, "f", "f")),
        1e-9);
  }

  @Test
  void paperFaithfulSwitchTurnsImprovementsOffAndStillTrains() {
    HsdagConfig paper = CONFIG.toBuilder().paperFaithful().stepsPerUpdate(4).build();
    assertTrue(paper.paperFaithful());
    assertFalse(paper.baseline() || paper.entropyBonus() || paper.gradientClip());
    assertEquals(0.0, paper.imitationWeight(), "the paper's REINFORCE has no self-imitation");
    assertEquals(1.0, paper.refinementDecay());
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    try (HsdagStrategy s = Runs.started(paper, GRAPH, backend, 4)) {
      List<float[]> before = parameters(s);
      Runs.run(s, GRAPH, backend, 8);
      assertEquals(2, s.trainer().updates());
      assertEquals("hsdag-paper", s.name());
      boolean moved = false;
      List<float[]> after = parameters(s);
      for (int i = 0; i < before.size(); i++) {
        moved |= !java.util.Arrays.equals(before.get(i), after.get(i));
      }
      assertTrue(moved, "an update must change the parameters");
    }
  }

  @Test
  void selfImitationKeepsTheBestMeasuredDecisionAndShapesTheUpdate() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    HsdagConfig plain = CONFIG.toBuilder().imitationWeight(0).build();
    try (HsdagStrategy imitating = Runs.started(CONFIG, GRAPH, backend, 7);
        HsdagStrategy reinforce = Runs.started(plain, GRAPH, backend, 7)) {
      assertTrue(CONFIG.imitationWeight() > 0, "the improved variant imitates its best decision");
      Runs.Trace trace = Runs.run(imitating, GRAPH, backend, 4);
      Runs.Trace same = Runs.run(reinforce, GRAPH, backend, 4);
      assertEquals(trace.placements(), same.placements(), "the first episode is sampled alike");
      assertEquals(1000.0 / trace.best(), imitating.trainer().bestReward(), 1e-9,
          "the best reward is 1 / best latency (s)");
      assertEquals(Double.NEGATIVE_INFINITY, reinforce.trainer().bestReward(), "weight 0 keeps nothing");
      boolean differs = false;
      List<float[]> a = parameters(imitating);
      List<float[]> b = parameters(reinforce);
      for (int i = 0; i < a.size(); i++) {
        differs |= !java.util.Arrays.equals(a.get(i), b.get(i));
      }
      assertTrue(differs, "the imitation term changes the first update");
    }
  }

  /**
   * An update once re-ran the forward pass of every buffered step but the last, so an
   * episode of x steps cost 2x − 1 forward passes; each step's differentiable score is now kept from
   * its sampling (the parameters do not change within an episode), and an episode costs x, plus
   * one for the self-imitation term.
   */
  @Test
  void anUpdateReusesTheForwardPassOfEveryStepOfItsEpisode() {
    FakeBackend backend = FakeBackend.byOpType(COST, 0.05, null, null);
    HsdagConfig plain = CONFIG.toBuilder().imitationWeight(0).build();
    try (HsdagStrategy s = Runs.started(plain, GRAPH, backend, 7)) {
      Runs.run(s, GRAPH, backend, 8);
      assertEquals(2, s.trainer().updates());
      assertEquals(8, s.trainer().policy().forwardPasses(), "one forward pass per step, none again in the update");
    }
  }
}
