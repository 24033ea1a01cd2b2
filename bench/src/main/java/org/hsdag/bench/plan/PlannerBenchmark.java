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
import java.util.concurrent.Callable;
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
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
 * ./hsdag.sh bench planner-speed [--devices CPU,GPU.1] [--runs 5] [--graph synthetic|inception|both]
 *     [--cap-fraction F] [nodes ...]
 * </pre>
 */
@Command(name = "planner-speed", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Print the planner's wall time on large graphs (simulator, noise-free).")
public final class PlannerBenchmark implements Callable<Integer> {
  /** Graph families. */
  enum Family { synthetic, inception, both }

  @Mixin
  SimTargetOptions target;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
      description = "Timed runs per size, after one warm-up (default: ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--graph", paramLabel = "FAMILY", defaultValue = "both",
      description = "Graph family: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  Family family;

  @Option(names = "--cap-fraction", paramLabel = "F", defaultValue = "0",
      description = "Cap the last device's memory at this fraction of what the model needs there; 0: no cap (default: ${DEFAULT-VALUE})")
  double capFraction;

  @Parameters(arity = "0..*", paramLabel = "NODES", description = "Graph sizes in nodes (default: 1000 10000 100000)")
  List<Integer> sizes = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    List<Integer> sizes = this.sizes.isEmpty() ? List.of(1_000, 10_000, 100_000) : this.sizes;
    for (DeviceSet devices : target.deviceSetsOr(List.of(DeviceSet.of("CPU", "GPU.1")))) {
      benchmark(devices, sizes);
    }
    return 0;
  }

  private void benchmark(DeviceSet devices, List<Integer> sizes) throws IOException {
    SimBackend sim = new SimBackend(target.profile(), SimOptions.exact());
    System.out.printf(Locale.ROOT,
        "planner speed, sim backend, profile %s, devices %s, %d processors, median of %d runs%s%n",
        sim.profile(), devices, Runtime.getRuntime().availableProcessors(), runs, capFraction > 0
            ? String.format(Locale.ROOT, ", memory cap on %s at %.0f%% of what the model needs there",
                devices.name(devices.size() - 1),
                100 * capFraction)
            : "");
    System.out.printf(Locale.ROOT, "%-10s %9s %7s %9s %9s %9s %9s %9s %7s %11s %11s%n", "graph", "nodes", "ops",
        "proxy ms",
        "plan ms", "total ms", "cpu ms", "first ms", "evals", "best ms", "single ms");
    List<String> families = family == Family.both ? List.of("synthetic", "inception") : List.of(family.name());
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
    System.out.printf(Locale.ROOT, "%-10s %9d %7d %9.1f %9.1f %9.1f %9.1f %9.1f %7d %11.3f %11.3f%n", family,
        g.nodeCount(),
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
