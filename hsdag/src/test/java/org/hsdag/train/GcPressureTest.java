package org.hsdag.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.gnn.GcPressure;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.policy.HsdagPolicy;
import org.junit.jupiter.api.Test;

/**
 * The step recorded while proposing is back-propagated only at the next observation, possibly
 * after garbage collections: everything its autograd graph kept must still hold the same values,
 * so a run under memory pressure follows exactly the trajectory of a run without.
 */
class GcPressureTest {
  static final int NODES = 60;
  static final int FEATURES = 8;
  static final HsdagConfig CONFIG = HsdagConfig.builder().coarsening(CoarseningMode.NONE).stepsPerUpdate(3)
      .hidden(16).placerHidden(16).torchThreads(1).build();
  static final MeasurementProtocol ONE = new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0);

  record Trajectory(List<String> decisions, List<float[]> parameters) {}

  static Trajectory run(boolean pressure) throws InterruptedException {
    SplittableRandom r = new SplittableRandom(4);
    int[] src = new int[NODES - 1];
    int[] dst = new int[NODES - 1];
    for (int v = 1; v < NODES; v++) {
      src[v - 1] = r.nextInt(v);
      dst[v - 1] = v;
    }
    float[] x = new float[NODES * FEATURES];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) r.nextDouble();
    }
    long[] masks = new long[NODES];
    Arrays.fill(masks, 0b11);
    List<String> decisions = new ArrayList<>();
    List<float[]> parameters = new ArrayList<>();
    try (NDManager m = NDManager.newBaseManager();
        HsdagPolicy policy = new HsdagPolicy(m, CONFIG, new IntGraph(NODES, src, dst), x, FEATURES, masks, 2, 7);
        ReinforceTrainer trainer = new ReinforceTrainer(m, policy, CONFIG, 7)) {
      for (int step = 0; step < 9; step++) {
        HsdagPolicy.Decision d = trainer.propose();
        decisions.add(Arrays.toString(d.clusterOf()) + Arrays.toString(d.devicePerCluster()));
        double onFirst = Arrays.stream(d.devicePerCluster()).filter(dev -> dev == 0).count();
        List<ByteBuffer> junk = pressure ? GcPressure.apply() : List.of();
        try {
          trainer
              .observe(Measurement.of(new double[] {1 + onFirst / d.clusterCount()}, ONE, 1, "synthetic", "synthetic"));
        } finally {
          Reference.reachabilityFence(junk);
        }
      }
      assertEquals(3, trainer.updates());
      for (NDArray p : policy.parameters().all().values()) {
        parameters.add(p.toFloatArray());
      }
    }
    return new Trajectory(decisions, parameters);
  }

  @Test
  void recordedStepsSurviveGarbageCollection() throws Exception {
    Trajectory calm = run(false);
    Trajectory pressed = run(true);
    assertEquals(calm.decisions(), pressed.decisions());
    for (int i = 0; i < calm.parameters().size(); i++) {
      assertArrayEquals(calm.parameters().get(i), pressed.parameters().get(i), "parameter tensor " + i + " (bitwise)");
    }
  }
}
