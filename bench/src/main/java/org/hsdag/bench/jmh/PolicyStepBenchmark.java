package org.hsdag.bench.jmh;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.policy.HsdagPolicy;
import org.hsdag.train.ReinforceTrainer;

/**
 * Cost of one HSDAG policy step — forward and sampling (propose), then forward, backward and Adam
 * (an update after every step) — on a random DAG of {@code nodes} nodes (about 1.05 edges per
 * node, parents within the previous 20 nodes), 32 features, the default network (2 GCN layers of
 * 64, edge scorer, parsing with the default cluster bound, MLP placer over 3 devices). Prints the
 * median and quartiles of the step time after a warm-up, and every 10% of the steps the resident
 * set size (VmRSS) beside the Java heap's committed size and the Java direct buffers awaiting
 * collection, so flat memory over long runs can be checked and a creep attributed.
 *
 * <pre>
 * ./hsdag.sh run-class org.hsdag.bench.jmh.PolicyStepBenchmark &lt;nodes&gt; &lt;steps&gt; [threads]
 * </pre>
 *
 * A plain main rather than JMH: one step allocates native tensors and the interesting numbers are
 * the per-step distribution and the RSS trend, which JMH does not report.
 */
public final class PolicyStepBenchmark {
  private PolicyStepBenchmark() {}

  static IntGraph randomDag(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int[] src = new int[2 * n];
    int[] dst = new int[2 * n];
    int m = 0;
    for (int v = 1; v < n; v++) {
      src[m] = Math.max(0, v - 1 - r.nextInt(Math.min(v, 20)));
      dst[m++] = v;
      if (r.nextDouble() < 0.05 && v > 1) {
        src[m] = r.nextInt(v);
        dst[m++] = v;
      }
    }
    return new IntGraph(n, Arrays.copyOf(src, m), Arrays.copyOf(dst, m));
  }

  static long rssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  public static void main(String[] args) {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int steps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    int features = 32;
    int devices = 3;
    Engine.getInstance();
    if (threads > 0) {
      JniUtils.setNumThreads(threads);
    }
    IntGraph g = randomDag(nodes, 1);
    SplittableRandom r = new SplittableRandom(2);
    float[] x = new float[nodes * features];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) r.nextDouble();
    }
    long[] masks = new long[nodes];
    Arrays.fill(masks, (1L << devices) - 1);
    HsdagConfig config = HsdagConfig.builder().stepsPerUpdate(1).build();
    MeasurementProtocol one = new MeasurementProtocol(0, 1, org.hsdag.backend.Statistic.MEDIAN, 1, 0);
    int warmup = Math.min(20, steps / 10);
    double[] ms = new double[steps];
    long rssStart = -1;
    MemoryMXBean heap = ManagementFactory.getMemoryMXBean();
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
    try (NDManager m = NDManager.newBaseManager();
        HsdagPolicy policy = new HsdagPolicy(m, config, g, x, features, masks, devices, 3);
        ReinforceTrainer trainer = new ReinforceTrainer(m, policy, config, 3)) {
      System.out.printf("policy step benchmark: %d nodes, %d edges, %d parameters, torch threads %d%n", nodes,
          g.edgeCount(), policy.parameters().size(), JniUtils.getNumThreads());
      for (int s = 0; s < warmup + steps; s++) {
        long t0 = System.nanoTime();
        HsdagPolicy.Decision d = trainer.propose();
        int onFirst = 0;
        for (int dev : d.devicePerCluster()) {
          onFirst += dev == 0 ? 1 : 0;
        }
        // A synthetic latency: balance across devices is rewarded.
        double latency = 10 + Math.abs(onFirst - d.clusterCount() / 3.0) / d.clusterCount();
        trainer.observe(Measurement.of(new double[] {latency}, one, 1, "synthetic", "synthetic"));
        if (s >= warmup) {
          ms[s - warmup] = (System.nanoTime() - t0) / 1e6;
        }
        if (s == warmup) {
          rssStart = rssKib();
        }
        if (s >= warmup && (s - warmup) % Math.max(1, steps / 10) == 0) {
          System.out.printf("  step %d: RSS %d MiB (Java heap committed %d MiB, direct buffers %d KiB)%n", s - warmup,
              rssKib() / 1024, heap.getHeapMemoryUsage().getCommitted() >> 20, direct.getMemoryUsed() >> 10);
        }
      }
    }
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    System.out.printf("nodes %d: median %.1f ms per step (p25 %.1f, p75 %.1f, max %.1f) over %d steps; "
        + "RSS %d MiB after warm-up, %d MiB at the end%n", nodes, sorted[steps / 2], sorted[steps / 4],
        sorted[3 * steps / 4], sorted[steps - 1], steps, rssStart / 1024, rssKib() / 1024);
  }
}
