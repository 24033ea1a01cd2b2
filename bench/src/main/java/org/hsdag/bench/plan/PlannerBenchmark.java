package org.hsdag.bench.plan;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hsdag.bench.scale.SyntheticIr;
import org.hsdag.ir.Edge;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpNode;
import org.hsdag.models.ModelCatalog;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.sim.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;

/**
 * Wall time of the planner on large graphs on the sim {@code paper} profile, noise-free: building
 * the proxy (the graph's cost tables) and planning (cuts, local search, candidates). One warm-up
 * run per size (its wall time is "first ms": a cold JVM), then the medians of the timed runs:
 * wall time per part, total, and the planning thread's CPU time (less sensitive to other load on
 * a shared machine). Targets: 200 ms at 1,000 nodes, 10 s at 100,000. {@code --cap-fraction F} caps the
 * last device at F times what the whole graph needs there (weights and activation peak), so the memory-capped planner runs (target 200 ms at 1,000 nodes).
 * Two graph families: {@code synthetic} ({@link SyntheticIr}: residual blocks of 1x1 convolution,
 * ReLU and Add, where GPU.1 alone is optimal) and {@code inception} (disjoint copies of the bundled
 * Inception-V3, about the size asked, where CPU/GPU splits pay and the local search has work).
 *
 * <pre>
 * ./hsdag.sh run-class org.hsdag.bench.plan.PlannerBenchmark [--devices CPU,GPU.1] [--runs 5]
 *     [--graph synthetic|inception|both] [--cap-fraction F] [nodes ...]
 * </pre>
 */
public final class PlannerBenchmark {
  private PlannerBenchmark() {}

  public static void main(String[] args) throws IOException {
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    int runs = 5;
    String family = "both";
    double capFraction = 0;
    List<Integer> sizes = new ArrayList<>();
    for (int k = 0; k < args.length; k++) {
      switch (args[k]) {
        case "--devices" -> devices = DeviceSet.parse(args[++k]);
        case "--runs" -> runs = Integer.parseInt(args[++k]);
        case "--graph" -> family = args[++k];
        case "--cap-fraction" -> capFraction = Double.parseDouble(args[++k]);
        default -> sizes.add(Integer.parseInt(args[k]));
      }
    }
    if (sizes.isEmpty()) {
      sizes = List.of(1_000, 10_000, 100_000);
    }
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    System.out.printf(Locale.ROOT, "planner speed, sim backend, profile paper, devices %s, %d processors, median of %d runs%s%n",
        devices, Runtime.getRuntime().availableProcessors(), runs, capFraction > 0
            ? String.format(Locale.ROOT, ", memory cap on %s at %.0f%% of what the model needs there", devices.name(devices.size() - 1),
                100 * capFraction) : "");
    System.out.printf(Locale.ROOT, "%-10s %9s %7s %9s %9s %9s %9s %9s %7s %11s %11s%n", "graph", "nodes", "ops", "proxy ms",
        "plan ms", "total ms", "cpu ms", "first ms", "evals", "best ms", "single ms");
    List<String> families = family.equals("both") ? List.of("synthetic", "inception") : List.of(family);
    for (String f : families) {
      for (int size : sizes) {
        run(f, f.equals("inception") ? inceptions(size) : synthetic(size), sim, devices, runs, capFraction);
      }
    }
  }

  private static void run(String family, OpGraph g, SimBackend sim, DeviceSet devices, int runs, double capFraction) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] proxyMs = new double[runs];
    double[] planMs = new double[runs];
    double[] totalMs = new double[runs];
    double[] cpuMs = new double[runs];
    double coldMs = 0;
    Plan plan = null;
    int ops = 0;
    for (int r = -1; r < runs; r++) {
      // A fresh backend per run: the cost tables are built, not taken from the cache.
      SimBackend fresh = new SimBackend(sim.deviceProfile(), sim.options());
      long c0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      PlacementProxy proxy = PlacementProxy.ofSim(fresh, g, devices);
      if (capFraction > 0) {
        proxy = proxy.withMemory(capped(g, devices, capFraction));
      }
      long t1 = System.nanoTime();
      plan = new Planner().plan(proxy);
      long t2 = System.nanoTime();
      long c1 = threads.getCurrentThreadCpuTime();
      ops = proxy.model().opCount();
      if (r < 0) {
        coldMs = (t2 - t0) / 1e6;
      } else {
        proxyMs[r] = (t1 - t0) / 1e6;
        planMs[r] = (t2 - t1) / 1e6;
        totalMs[r] = (t2 - t0) / 1e6;
        cpuMs[r] = (c1 - c0) / 1e6;
      }
    }
    System.out.printf(Locale.ROOT, "%-10s %9d %7d %9.1f %9.1f %9.1f %9.1f %9.1f %7d %11.3f %11.3f%n", family, g.nodeCount(),
        ops, median(proxyMs), median(planMs), median(totalMs), median(cpuMs), coldMs, plan.evaluations(),
        plan.best().proxyMillis(), plan.bestSingleDevice().proxyMillis());
  }

  /** The last device of {@code devices} capped at {@code fraction} of what the whole graph needs there. */
  private static MemoryCheck capped(OpGraph g, DeviceSet devices, double fraction) {
    String dev = devices.name(devices.size() - 1);
    MemoryCheck unlimited = MemoryCheck.of(g, devices, MemoryLimits.NONE, java.util.Map.of());
    long need = unlimited.use(org.hsdag.placement.Placement.allOn(devices, g.nodeCount(), dev)).get(devices.size() - 1)
        .totalBytes();
    return MemoryCheck.of(g, devices, new MemoryLimits(java.util.Map.of(dev, Math.max(1, (long) (fraction * need)))),
        java.util.Map.of());
  }

  /** Disjoint copies of the bundled Inception-V3 (names prefixed per copy), about {@code nodes} nodes. */
  static OpGraph inceptions(int nodes) {
    OpGraph one = ModelCatalog.get("inception_v3").build().graph();
    int copies = Math.max(1, Math.round((float) nodes / one.nodeCount()));
    OpGraph.Builder b = OpGraph.builder().setName("inception_v3 x" + copies);
    for (int c = 0; c < copies; c++) {
      int offset = c * one.nodeCount();
      for (int v = 0; v < one.nodeCount(); v++) {
        OpNode n = one.node(v);
        b.addNode(new OpNode(offset + v, Integer.toString(offset + v), "c" + c + "/" + n.name(), n.type(), n.version(),
            n.attributes(), n.inputs(), n.outputs(), n.rtInfoXml(), n.extraXml()));
      }
      for (int e = 0; e < one.edgeCount(); e++) {
        Edge edge = one.edge(e);
        b.addEdge(new Edge(offset + edge.source(), edge.sourceOutput(), offset + edge.target(), edge.targetInput()));
      }
    }
    return b.build();
  }

  static OpGraph synthetic(int nodes) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Writer w = new OutputStreamWriter(bytes, StandardCharsets.UTF_8)) {
      SyntheticIr.write(w, nodes);
    }
    return new IrReader().read(new ByteArrayInputStream(bytes.toByteArray()), "synthetic-" + nodes);
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
