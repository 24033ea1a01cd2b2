package org.hsdag.bench.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the simulator's inner loop: one {@code measure} of a placement (noise on, the
 * paper's 10-run protocol, no measurement cache; the per-graph tables are built once in setup, as
 * a tuning run does). Placements cycle through 64 random ones mixing per-node and blocky
 * assignments over CPU, GPU.0 and GPU.1 of the {@code paper} profile.
 *
 * <pre>
 * java -cp ... org.openjdk.jmh.Main SimulatorBenchmark -f 1 -wi 2 -i 3
 * </pre>
 *
 * ResNet-50 and BERT-base use {@code resnet-50.xml} and {@code roberta-base-cola.xml} from the
 * shared IR samples ({@code -Dhsdag.shared.dir=...}, default {@code ../shared}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 3, time = 1)
@Fork(1)
public class SimulatorBenchmark {
  private static final int PLACEMENTS = 64;

  @Param({"synthetic-1000", "resnet-50", "bert-base", "synthetic-100000"})
  public String graph;

  private SimBackend sim;
  private OpGraph g;
  private Placement[] placements;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    g = switch (graph) {
      case "resnet-50" -> sample("resnet-50.xml");
      case "bert-base" -> sample("roberta-base-cola.xml");
      default -> {
        if (!graph.startsWith("synthetic-")) {
          throw new IllegalArgumentException("unknown graph " + graph);
        }
        yield synthetic(Integer.parseInt(graph.substring("synthetic-".length())), 7);
      }
    };
    sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT.withSeed(1));
    DeviceSet ds = sim.deviceSet();
    SplittableRandom rnd = new SplittableRandom(11);
    placements = new Placement[PLACEMENTS];
    for (int k = 0; k < PLACEMENTS; k++) {
      int[] dev = new int[g.nodeCount()];
      int block = k % 2 == 0 ? 1 : 1 + rnd.nextInt(50);
      int current = 0;
      for (int v = 0; v < dev.length; v++) {
        if (v % block == 0) {
          current = rnd.nextInt(ds.size());
        }
        dev[v] = current;
      }
      placements[k] = new Placement(ds, dev);
    }
    sim.simGraph(g);
  }

  /** One noisy measurement (10 samples, mean of the last 5) of the next placement. */
  @Benchmark
  public org.hsdag.backend.Measurement measure() {
    Placement p = placements[next++ & (PLACEMENTS - 1)];
    return sim.measure(g, p, MeasurementProtocol.PAPER);
  }

  /** The noise-free simulation alone (HETERO split, kernel and transfer sums) of the next placement. */
  @Benchmark
  public double evaluate() {
    Placement p = placements[next++ & (PLACEMENTS - 1)];
    return sim.evaluate(g, p).micros();
  }

  private static OpGraph sample(String file) {
    Path dir = Path.of(System.getProperty("hsdag.shared.dir", "../shared"), "ir-samples");
    Path f = dir.resolve(file);
    if (!Files.isRegularFile(f)) {
      throw new IllegalStateException(
          "sample " + f.toAbsolutePath() + " not found; pass -Dhsdag.shared.dir=<shared folder>");
    }
    return new IrReader().read(f);
  }

  /**
   * A CNN-like DAG of about {@code nodes} nodes: stages of Convolution (with a weight Const),
   * bias Add and ReLU, with a residual Add every few stages, on [1, 64, 28, 28] tensors.
   */
  static OpGraph synthetic(int nodes, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    OpGraph.Builder b = OpGraph.builder().setName("synthetic-" + nodes);
    long[] act = {1, 64, 28, 28};
    List<OpNode> list = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    list.add(node(0, "input", "Parameter", Map.of("element_type", "f32", "shape", "1,64,28,28"), List.of(), act));
    int last = 0;
    int blockStart = 0;
    int stage = 0;
    while (list.size() + 6 < nodes) {
      int w = list.size();
      long k = rnd.nextInt(3) == 0 ? 1 : 3;
      list.add(node(w, "w" + stage, "Const", Map.of("element_type", "f32", "shape", "64,64," + k + "," + k,
          "offset", "0", "size", Long.toString(64 * 64 * k * k * 4)), List.of(), new long[] {64, 64, k, k}));
      int conv = list.size();
      list.add(node(conv, "conv" + stage, "Convolution", Map.of("strides", "1,1", "dilations", "1,1"),
          List.of(act, new long[] {64, 64, k, k}), act));
      edges.add(new Edge(last, 0, conv, 0));
      edges.add(new Edge(w, 0, conv, 1));
      int bias = list.size();
      list.add(node(bias, "bias" + stage, "Const", Map.of("element_type", "f32", "shape", "1,64,1,1", "offset", "0",
          "size", "256"), List.of(), new long[] {1, 64, 1, 1}));
      int add = list.size();
      list.add(node(add, "add" + stage, "Add", Map.of(), List.of(act, new long[] {1, 64, 1, 1}), act));
      edges.add(new Edge(conv, 0, add, 0));
      edges.add(new Edge(bias, 0, add, 1));
      int out = add;
      if (stage % 3 == 2) {
        int res = list.size();
        list.add(node(res, "residual" + stage, "Add", Map.of(), List.of(act, act), act));
        edges.add(new Edge(add, 0, res, 0));
        edges.add(new Edge(blockStart, 0, res, 1));
        out = res;
      }
      int relu = list.size();
      list.add(node(relu, "relu" + stage, "ReLU", Map.of(), List.of(act), act));
      edges.add(new Edge(out, 0, relu, 0));
      if (stage % 3 == 2) {
        blockStart = relu;
      }
      last = relu;
      stage++;
    }
    int result = list.size();
    list.add(new OpNode(result, Integer.toString(result), "output", "Result", "opset1", Map.of(),
        List.of(new Port(0, ElementType.F32, act, null, null)), List.of(), null, null));
    edges.add(new Edge(last, 0, result, 0));
    list.forEach(b::addNode);
    edges.forEach(b::addEdge);
    return b.build();
  }

  private static OpNode node(int index, String name, String type, Map<String, String> data, List<long[]> inputs,
      long[] out) {
    List<Port> ins = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      ins.add(new Port(i, ElementType.F32, inputs.get(i), null, null));
    }
    return new OpNode(index, Integer.toString(index), name, type, "opset1", data, ins,
        List.of(new Port(inputs.size(), ElementType.F32, out, null, null)), null, null);
  }
}
