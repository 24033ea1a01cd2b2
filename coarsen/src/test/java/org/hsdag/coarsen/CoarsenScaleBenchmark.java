package org.hsdag.coarsen;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.hsdag.features.FeatureConfig;
import org.hsdag.features.FeatureExtractor;
import org.hsdag.features.FeatureMatrix;
import org.hsdag.features.FractalDimension;
import org.hsdag.ir.OpGraph;

/**
 * Wall-clock of co-location plus feature extraction on 100,000-node graphs (target: under 5 s on one
 * core). Not a test: run by hand, e.g. with {@code -XX:ActiveProcessorCount=1}. Arguments: node count
 * (default 100000) and repetitions (default 5); prints, per mode and graph family, the median and best
 * wall time and the median CPU time of the measuring thread (which is what one core costs when the
 * machine is shared and wall time includes waiting), plus the fractal-dimension share.
 */
public final class CoarsenScaleBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CoarsenScaleBenchmark() {}

  private static long median(long[] xs) {
    long[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static long min(long[] xs) {
    return Arrays.stream(xs).min().orElse(0);
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    System.out.printf("CoarsenScaleBenchmark: %d nodes, %d repetitions, %d processor(s) visible, Java %s%n",
        n, reps, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    OpGraph[] graphs = {TestGraphs.residualNetwork(n), TestGraphs.randomDag(n, 42)};
    String[] names = {"residual (ResNet-like, shared shape Const hub)", "random DAG (20% long-range inputs)"};
    FeatureExtractor fx = new FeatureExtractor(FeatureConfig.DEFAULT);
    for (int i = 0; i < graphs.length; i++) {
      OpGraph g = graphs[i];
      System.out.printf("%s: %d nodes, %d edges%n", names[i], g.nodeCount(), g.edgeCount());
      for (CoarseningMode mode : CoarseningMode.values()) {
        long[] nanos = new long[reps];
        long[] cpu = new long[reps];
        long[] fractalCpu = new long[reps];
        int clusters = 0;
        int columns = 0;
        for (int r = 0; r < reps; r++) {
          long t0 = System.nanoTime();
          long c0 = THREADS.getCurrentThreadCpuTime();
          Coarsening c = new ColocationCoarsener(mode).coarsen(g);
          FeatureMatrix m = fx.extract(g, c);
          nanos[r] = System.nanoTime() - t0;
          cpu[r] = THREADS.getCurrentThreadCpuTime() - c0;
          clusters = c.clusterCount();
          columns = m.columnCount();
          long f0 = THREADS.getCurrentThreadCpuTime();
          FractalDimension.withDefaults().compute(IntGraph.of(g));
          fractalCpu[r] = THREADS.getCurrentThreadCpuTime() - f0;
        }
        System.out.printf("  %-10s -> %6d clusters x %d features: wall median %.3f s (best %.3f, first %.3f);"
            + " CPU median %.3f s, of which fractal dimension ~%.3f s%n",
            mode, clusters, columns, median(nanos) / 1e9, min(nanos) / 1e9, nanos[0] / 1e9, median(cpu) / 1e9,
            median(fractalCpu) / 1e9);
      }
    }
  }
}
