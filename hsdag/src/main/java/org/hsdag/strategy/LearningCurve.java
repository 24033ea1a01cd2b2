package org.hsdag.strategy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.backend.Backends;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchContext;

/**
 * Learning-curve experiment: HSDAG for {@code budget} measurements on one IR against a backend,
 * next to every single-device placement and the best of {@code budget} uniformly random
 * placements (each op uniform over the devices it supports). Prints the mean sampled latency per
 * episode of 20 measurements and the best found; every number is labelled with backend/profile.
 *
 * <pre>
 * java -cp ... org.hsdag.strategy.LearningCurve &lt;model.xml&gt; [backend=sim] [profile=paper] [budget=500]
 *     [seed=1] [paper-faithful=false]
 * </pre>
 */
public final class LearningCurve {
  private LearningCurve() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    String backendName = args.length > 1 ? args[1] : "sim";
    String profile = args.length > 2 ? args[2] : "paper";
    int budget = args.length > 3 ? Integer.parseInt(args[3]) : 500;
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    boolean paper = args.length > 5 && Boolean.parseBoolean(args[5]);
    OpGraph g = new IrReader().read(model);
    MeasurementProtocol protocol = MeasurementProtocol.PAPER;
    try (LatencyBackend backend = Backends.open(backendName, profile)) {
      String label = backend.name() + "/" + backend.profile();
      List<String> names = new ArrayList<>();
      for (DeviceInfo d : backend.devices()) {
        names.add(d.name());
      }
      DeviceSet devices = new DeviceSet(names);
      SupportMatrix support = backend.supports(g, devices);
      System.out.printf("%s: %d ops, devices %s [%s]%n", model.getFileName(), g.nodeCount(), devices, label);
      for (String d : names) {
        Measurement m = backend.measure(g, Placement.allOn(devices, g.nodeCount(), d), protocol);
        System.out.printf("single device %s: %s [%s]%n", d, m.ok() ? String.format("%.3f ms", m.latencyMillis()) : "failed: " + m.reason(), label);
      }
      SplittableRandom r = new SplittableRandom(seed);
      double bestRandom = Double.NaN;
      for (int i = 0; i < budget; i++) {
        int[] a = new int[g.nodeCount()];
        for (int v = 0; v < a.length; v++) {
          long mask = support.mask(v) == 0 ? (1L << devices.size()) - 1 : support.mask(v);
          int pick = r.nextInt(Long.bitCount(mask));
          long bits = mask;
          for (int j = 0; j < pick; j++) {
            bits &= bits - 1;
          }
          a[v] = Long.numberOfTrailingZeros(bits);
        }
        Measurement m = backend.measure(g, new Placement(devices, a), protocol);
        if (m.ok() && !(m.latencyMillis() >= bestRandom)) {
          bestRandom = m.latencyMillis();
        }
      }
      System.out.printf("best of %d uniform random placements: %.3f ms [%s]%n", budget, bestRandom, label);
      HsdagConfig config = paper ? HsdagConfig.builder().paperFaithful().build() : HsdagConfig.defaults();
      try (HsdagStrategy s = new HsdagStrategy(config)) {
        s.init(SearchContext.builder(g, devices, support).budget(budget).seed(seed).protocol(protocol).backendName(backend.name()).build());
        double best = Double.NaN;
        double episodeSum = 0;
        int episodeCount = 0;
        long t0 = System.nanoTime();
        StringBuilder curve = new StringBuilder();
        for (int i = 0; i < budget; i++) {
          Placement p = s.propose();
          Measurement m = backend.measure(g, p, protocol);
          s.observe(p, m);
          if (m.ok()) {
            episodeSum += m.latencyMillis();
            episodeCount++;
            if (!(m.latencyMillis() >= best)) {
              best = m.latencyMillis();
            }
          }
          if ((i + 1) % 20 == 0) {
            curve.append(String.format(" %.3f", episodeSum / Math.max(1, episodeCount)));
            episodeSum = 0;
            episodeCount = 0;
          }
        }
        System.out.printf("%s mean sampled latency per episode of 20 (ms):%s [%s]%n", s.name(), curve, label);
        System.out.printf("%s best of %d: %.3f ms, %d failures, %d updates, %.1f s policy+sim wall time [%s]%n", s.name(),
            budget, best, s.trainer().failures(), s.trainer().updates(), (System.nanoTime() - t0) / 1e9, label);
      }
    }
  }
}
