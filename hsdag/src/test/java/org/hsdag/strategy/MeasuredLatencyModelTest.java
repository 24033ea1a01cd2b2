package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.coarsen.IntGraph;
import org.junit.jupiter.api.Test;

class MeasuredLatencyModelTest {
  private static final int NODES = 16;
  // A chain with two skip connections, numbered in topological order.
  private static final IntGraph GRAPH = graph();

  private static IntGraph graph() {
    List<int[]> edges = new ArrayList<>();
    for (int v = 0; v + 1 < NODES; v++) {
      edges.add(new int[] {v, v + 1});
    }
    edges.add(new int[] {2, 7});
    edges.add(new int[] {9, 14});
    int[] src = edges.stream().mapToInt(e -> e[0]).toArray();
    int[] dst = edges.stream().mapToInt(e -> e[1]).toArray();
    return new IntGraph(NODES, src, dst);
  }

  private static int[] order() {
    int[] order = new int[NODES];
    for (int v = 0; v < NODES; v++) {
      order[v] = v;
    }
    return order;
  }

  /** An additive truth: kernel time per node and device, a copy per cut edge, a start per device change. */
  private static final class Truth {
    private final double[][] kernel;
    private final double copy;
    private final double start;

    Truth(double[][] kernel, double copy, double start) {
      this.kernel = kernel;
      this.copy = copy;
      this.start = start;
    }

    double millis(int[] deviceOf) {
      double t = 0;
      for (int v = 0; v < NODES; v++) {
        t += kernel[v][deviceOf[v]];
      }
      for (int e = 0; e < GRAPH.edgeCount(); e++) {
        if (deviceOf[GRAPH.src(e)] != deviceOf[GRAPH.dst(e)]) {
          t += copy;
        }
      }
      for (int v = 1; v < NODES; v++) {
        if (deviceOf[v] != deviceOf[v - 1]) {
          t += start;
        }
      }
      return t;
    }
  }

  private static Truth truth(SplittableRandom rng) {
    double[][] kernel = new double[NODES][2];
    for (int v = 0; v < NODES; v++) {
      kernel[v][0] = 0.5 + rng.nextDouble();
      kernel[v][1] = 0.5 + rng.nextDouble();
    }
    return new Truth(kernel, 0.15, 0.25);
  }

  /** A placement of a few same-device runs, as a search around good placements measures. */
  private static int[] fewRuns(SplittableRandom rng) {
    int[] deviceOf = new int[NODES];
    int device = rng.nextInt(2);
    for (int v = 0; v < NODES; v++) {
      if (rng.nextInt(5) == 0) {
        device = 1 - device;
      }
      deviceOf[v] = device;
    }
    return deviceOf;
  }

  @Test
  void ranksPlacementsBetterThanTheirOwnNoisyMeasurements() {
    SplittableRandom rng = new SplittableRandom(5);
    Truth truth = truth(rng);
    MeasuredLatencyModel model = new MeasuredLatencyModel(GRAPH, order(), 2);
    List<int[]> placements = new ArrayList<>();
    List<Double> measured = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      int[] p = fewRuns(rng);
      // 2 % run-to-run spread and 2 % outliers of 1.3-2.5x.
      double ms = truth.millis(p) * Math.exp(0.02 * rng.nextGaussian())
          * (rng.nextInt(50) == 0 ? 1.3 + 1.2 * rng.nextDouble() : 1);
      model.observe(p, ms);
      if (model.observations() > placements.size()) {
        placements.add(p);
        measured.add(ms);
      }
    }
    double measurementError = 0;
    double modelError = 0;
    int fastestMeasured = 0;
    for (int i = 0; i < placements.size(); i++) {
      double t = truth.millis(placements.get(i));
      measurementError += Math.pow(measured.get(i) / t - 1, 2);
      modelError += Math.pow(model.predict(placements.get(i)) / t - 1, 2);
      if (measured.get(i) < measured.get(fastestMeasured)) {
        fastestMeasured = i;
      }
    }
    assertTrue(modelError < measurementError / 4,
        "model error " + modelError + " vs measurements' " + measurementError);
    double trulyBest = placements.stream().mapToDouble(truth::millis).min().orElseThrow();
    double favourite = truth.millis(model.rankedObserved(1).get(0));
    double luckiest = truth.millis(placements.get(fastestMeasured));
    assertTrue(favourite <= luckiest, "favourite " + favourite + " ms, fastest measured " + luckiest + " ms");
    assertTrue(favourite < trulyBest * 1.01,
        "favourite " + favourite + " ms, truly best measured " + trulyBest + " ms");
  }

  @Test
  void aRepeatIsNoNewEvidenceAndRankingKeepsToObservedPlacements() {
    MeasuredLatencyModel model = new MeasuredLatencyModel(GRAPH, order(), 2);
    int[] a = new int[NODES];
    int[] b = new int[NODES];
    b[NODES - 1] = 1;
    model.observe(a, 10);
    model.observe(a, 10);
    model.observe(b, 12);
    model.observe(b, Double.POSITIVE_INFINITY);
    model.observe(b, 0);
    assertEquals(2, model.observations());
    List<int[]> ranked = model.rankedObserved(5);
    assertEquals(2, ranked.size());
    assertArrayEquals(a, ranked.get(0));
    assertArrayEquals(b, ranked.get(1));
    assertTrue(model.predict(a) < model.predict(b));
  }
}
