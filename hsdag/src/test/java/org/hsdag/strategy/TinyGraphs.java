package org.hsdag.strategy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStrategy;
import org.hsdag.testkit.FakeBackend;

/**
 * Small graphs with a planted optimum for baseline tests: a chain Parameter → ops → Result, with a
 * weight Constant feeding some ops. Each compute op costs 1 on its planted device and 3 elsewhere;
 * Parameter, Constants and Result cost 0; each cut edge costs 0.5, so the planted placement
 * (with Parameter, Constants and Result on their neighbour's device) is the unique optimum.
 */
final class TinyGraphs {
  private TinyGraphs() {}

  /** A test instance: graph, backend, planted optimal placement (device index per node). */
  record Instance(OpGraph graph, DeviceSet devices, FakeBackend backend, Placement optimum, double optimumLatency) {
    SearchContext context(int budget, long seed) {
      return SearchContext.builder(graph, devices, backend.supports(graph, devices)).budget(budget).seed(seed)
          .backendName(backend.name()).build();
    }

    /** {@code strategy} searched by the engine for {@code budget} measurements with {@code seed}. */
    SearchOutcome run(SearchStrategy strategy, int budget, long seed) {
      SearchEngine engine = SearchEngine.builder(backend, graph, devices).protocol(MeasurementProtocol.PAPER).seed(seed)
          .build();
      try {
        return engine.run(strategy, SearchLimits.of(budget), seed, SearchListener.NONE);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private static Port port(int id) {
    return new Port(id, ElementType.F32, new long[] {1, 8}, null, null);
  }

  private static OpNode node(int index, String type, int inputs) {
    List<Port> in = new java.util.ArrayList<>();
    for (int i = 0; i < inputs; i++) {
      in.add(port(i));
    }
    List<Port> out = type.equals("Result") ? List.of() : List.of(port(inputs));
    return new OpNode(index, Integer.toString(index), type.toLowerCase(Locale.ROOT) + "_" + index, type, "opset1",
        Map.of(), in, out, null, null);
  }

  /**
   * A chain with {@code planted.length} compute ops; ops whose index is in {@code weighted} also
   * read a Constant. {@code cpuOnly} ops are supported only on device 0.
   */
  static Instance chain(DeviceSet devices, int[] planted, int[] weighted, int[] cpuOnly) {
    OpGraph.Builder b = OpGraph.builder().setName("tiny");
    int n = 0;
    b.addNode(node(n++, "Parameter", 0));
    int[] opNode = new int[planted.length];
    int prev = 0;
    java.util.List<int[]> constEdges = new java.util.ArrayList<>();
    for (int i = 0; i < planted.length; i++) {
      boolean w = contains(weighted, i);
      if (w) {
        b.addNode(node(n, "Const", 0));
        constEdges.add(new int[] {n, n + 1});
        n++;
      }
      b.addNode(node(n, i % 2 == 0 ? "MatMul" : "Relu", w ? 2 : 1));
      b.addEdge(new Edge(prev, 0, n, 0));
      opNode[i] = n;
      prev = n;
      n++;
    }
    b.addNode(node(n, "Result", 1));
    b.addEdge(new Edge(prev, 0, n, 0));
    for (int[] e : constEdges) {
      b.addEdge(new Edge(e[0], 0, e[1], 1));
    }
    n++;
    OpGraph g = b.build();
    int dc = devices.size();
    double[][] cost = new double[n][dc];
    long[] mask = new long[n];
    java.util.Arrays.fill(mask, (1L << dc) - 1);
    int[] opt = new int[n];
    for (int i = 0; i < planted.length; i++) {
      int v = opNode[i];
      for (int d = 0; d < dc; d++) {
        cost[v][d] = d == planted[i] ? 1 : 3;
      }
      opt[v] = planted[i];
      if (contains(cpuOnly, i)) {
        mask[v] = 1L;
      }
    }
    // Parameter follows the first op, constants their consumer, Result the last op.
    opt[0] = planted[0];
    for (int[] e : constEdges) {
      opt[e[0]] = opt[e[1]];
    }
    opt[n - 1] = planted[planted.length - 1];
    FakeBackend backend = FakeBackend.perNode(devices, cost, mask, 0.5);
    Placement optimum = new Placement(devices, opt);
    return new Instance(g, devices, backend, optimum, backend.latency(g, optimum));
  }

  /** Three devices, six ops, two weighted, one CPU-only op (planted on CPU). */
  static Instance medium() {
    return chain(DeviceSet.of("CPU", "GPU.0", "GPU.1"), new int[] {2, 2, 0, 0, 2, 1}, new int[] {0, 3}, new int[] {2});
  }

  /** Two devices, three ops: 2^5 placements of the grouped space. */
  static Instance easy() {
    return chain(DeviceSet.of("CPU", "GPU.1"), new int[] {1, 0, 1}, new int[] {0}, new int[] {});
  }

  private static boolean contains(int[] a, int x) {
    for (int y : a) {
      if (y == x) {
        return true;
      }
    }
    return false;
  }
}
