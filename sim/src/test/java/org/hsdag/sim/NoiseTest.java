package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class NoiseTest {
  private static final OpGraph GRAPH = TinyGraphs.randomDag(60, 64, 1);

  private static SimBackend backend(long seed) {
    return new SimBackend(TestProfiles.handy(false), SimOptions.DEFAULT.withSeed(seed));
  }

  private static Placement allCpu() {
    return Placement.allOn(DeviceSet.of("CPU", "GPU.1"), GRAPH.nodeCount(), "CPU");
  }

  @Test
  void sameSeedSameSamplesOtherSeedOtherSamples() {
    MeasurementProtocol p = MeasurementProtocol.PAPER;
    double[] a1 = backend(42).measure(GRAPH, allCpu(), p).samplesMillis();
    double[] a2 = backend(42).measure(GRAPH, allCpu(), p).samplesMillis();
    double[] b = backend(43).measure(GRAPH, allCpu(), p).samplesMillis();
    assertArrayEquals(a1, a2);
    assertFalse(Arrays.equals(a1, b));
    // Successive measurements of one backend differ (fresh noise) but replay identically.
    SimBackend s1 = backend(7);
    SimBackend s2 = backend(7);
    double[] first = s1.measure(GRAPH, allCpu(), p).samplesMillis();
    double[] second = s1.measure(GRAPH, allCpu(), p).samplesMillis();
    assertFalse(Arrays.equals(first, second));
    assertArrayEquals(first, s2.measure(GRAPH, allCpu(), p).samplesMillis());
    assertArrayEquals(second, s2.measure(GRAPH, allCpu(), p).samplesMillis());
  }

  @Test
  void keyedNoiseDependsOnTheSeedAndTheKeyNotOnWhatWasMeasuredBefore() {
    MeasurementProtocol p = MeasurementProtocol.PAPER;
    Placement gpu = Placement.allOn(DeviceSet.of("CPU", "GPU.1"), GRAPH.nodeCount(), "GPU.1");
    SimBackend fresh = backend(7);
    SimBackend busy = backend(7);
    busy.measure(GRAPH, gpu, p);
    busy.measure(GRAPH, gpu, p, 99);
    busy.measure(GRAPH, allCpu(), p, 6);
    double[] a = fresh.measure(GRAPH, allCpu(), p, 5).samplesMillis();
    assertArrayEquals(a, busy.measure(GRAPH, allCpu(), p, 5).samplesMillis());
    assertArrayEquals(a, fresh.measure(GRAPH, allCpu(), p, 5).samplesMillis(), "the same key twice: the same samples");
    assertFalse(Arrays.equals(a, fresh.measure(GRAPH, allCpu(), p, 6).samplesMillis()), "another key");
    assertFalse(Arrays.equals(a, backend(8).measure(GRAPH, allCpu(), p, 5).samplesMillis()), "another seed");
    assertTrue(fresh.capability(org.hsdag.backend.KeyedMeasurement.class).isPresent());
  }

  @Test
  void noiseIsMultiplicativeAroundTheSimulatedLatencyWithRareOutliers() {
    NoiseModel noise = new NoiseModel(0.02, 0.05, 1.5, 2.0, 0);
    double[] out = new double[20000];
    noise.sample(10.0, 0, out, new SplittableRandom(3));
    int outliers = 0;
    double logSum = 0;
    int normal = 0;
    for (double x : out) {
      assertTrue(x > 0);
      if (x > 10.0 * 1.4) {
        outliers++;
      } else {
        logSum += Math.log(x / 10.0);
        normal++;
      }
    }
    assertEquals(0.05, outliers / (double) out.length, 0.01);
    assertEquals(0.0, logSum / normal, 0.002);
  }

  @Test
  void firstRunsAreSlowerSoMeanOfLastKIsBelowTheFirstSamples() {
    NoiseModel warm = new NoiseModel(0, 0, 1, 1, 0.5);
    double[] out = new double[6];
    warm.sample(10.0, 0, out, new SplittableRandom(1));
    assertArrayEquals(new double[] {15.0, 12.5, 11.25, 10.625, 10.3125, 10.15625}, out, 1e-12);
    double[] afterWarmup = new double[2];
    warm.sample(10.0, 2, afterWarmup, new SplittableRandom(1));
    assertArrayEquals(new double[] {11.25, 10.625}, afterWarmup, 1e-12);
  }

  @Test
  void protocolStatisticIsAppliedToTheSamples() {
    MeasurementProtocol median = new MeasurementProtocol(2, 9, Statistic.MEDIAN, 0, 0);
    Measurement m = backend(5).measure(GRAPH, allCpu(), median);
    double[] s = m.samplesMillis().clone();
    Arrays.sort(s);
    assertEquals(9, s.length);
    assertEquals(s[4], m.latencyMillis(), 0);
    assertTrue(m.ciLowMillis() <= m.ciHighMillis());
  }
}
