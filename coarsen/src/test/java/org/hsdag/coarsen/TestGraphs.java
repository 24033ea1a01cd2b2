package org.hsdag.coarsen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/** Small hand-made and random {@link OpGraph}s for tests and the scale benchmark. */
public final class TestGraphs {
  private TestGraphs() {}

  /** Collects typed nodes and edges, then builds an OpGraph with one input port per incoming edge. */
  public static final class Builder {
    private final List<String> types = new ArrayList<>();
    private final List<long[]> shapes = new ArrayList<>();
    private final List<int[]> edges = new ArrayList<>();

    /** Adds a node with one output of the given shape (none for Result); returns its index. */
    public int node(String type, long... outputDims) {
      types.add(type);
      shapes.add(outputDims);
      return types.size() - 1;
    }

    public Builder edge(int from, int to) {
      edges.add(new int[] {from, to});
      return this;
    }

    public int nodeCount() {
      return types.size();
    }

    public OpGraph build() {
      int n = types.size();
      int[] inputs = new int[n];
      for (int[] e : edges) {
        inputs[e[1]]++;
      }
      OpGraph.Builder b = OpGraph.builder().setName("test");
      for (int i = 0; i < n; i++) {
        List<Port> in = new ArrayList<>();
        for (int p = 0; p < inputs[i]; p++) {
          in.add(new Port(p, ElementType.F32, new long[] {1}, null, null));
        }
        List<Port> out = new ArrayList<>();
        if (!"Result".equals(types.get(i))) {
          out.add(new Port(inputs[i], ElementType.F32, shapes.get(i), null, null));
        }
        b.addNode(new OpNode(i, Integer.toString(i), "n" + i, types.get(i), "opset1", Map.of(), in, out, null, null));
      }
      int[] fill = new int[n];
      for (int[] e : edges) {
        b.addEdge(new Edge(e[0], 0, e[1], fill[e[1]]++));
      }
      return b.build();
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private static final String[] OPS = {"Convolution", "Add", "ReLU", "MatMul", "Concat", "Multiply", "Reshape"};

  /**
   * A random DAG of about {@code n} nodes: sources are Const/Parameter, other nodes take 1–3 inputs from
   * earlier nodes (biased to recent ones, with occasional long skips and shared constants).
   */
  public static OpGraph randomDag(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Builder b = builder();
    b.node("Parameter", 1, 3, 8, 8);
    for (int i = 1; i < n; i++) {
      double r = rnd.nextDouble();
      if (r < 0.25) {
        b.node("Const", 8);
        continue;
      }
      if (r < 0.30) {
        b.node("Convert", 8); // constant-valued when its producer is a Const
        b.edge(rnd.nextInt(i), i);
        continue;
      }
      int type = rnd.nextInt(OPS.length);
      b.node(OPS[type], 1, 8, rnd.nextInt(1, 64), -1);
      int inputs = 1 + rnd.nextInt(3);
      for (int k = 0; k < inputs; k++) {
        int from = rnd.nextDouble() < 0.8 ? Math.max(0, i - 1 - rnd.nextInt(Math.min(i, 6))) : rnd.nextInt(i);
        b.edge(from, i);
      }
    }
    b.node("Result");
    b.edge(n - 1, n);
    return b.build();
  }

  /**
   * A ResNet-like graph of at least {@code n} nodes: bottleneck blocks of FP16-decompressed convolutions
   * (Const → Convert → Convolution), bias Add, ReLU and residual Add, plus a shared shape constant.
   */
  public static OpGraph residualNetwork(int n) {
    Builder b = builder();
    int x = b.node("Parameter", 1, 64, 56, 56);
    int shape = b.node("Const", 4);
    while (b.nodeCount() < n) {
      int in = x;
      for (int layer = 0; layer < 3; layer++) {
        int w = b.node("Const", 64, 64, 3, 3);
        int cw = b.node("Convert", 64, 64, 3, 3);
        b.edge(w, cw);
        int conv = b.node("Convolution", 1, 64, 56, 56);
        b.edge(x, conv).edge(cw, conv);
        int bias = b.node("Const", 1, 64, 1, 1);
        int add = b.node("Add", 1, 64, 56, 56);
        b.edge(conv, add).edge(bias, add);
        x = b.node("ReLU", 1, 64, 56, 56);
        b.edge(add, x);
      }
      int res = b.node("Add", 1, 64, 56, 56);
      b.edge(x, res).edge(in, res);
      int reshape = b.node("Reshape", 1, 64, 56, 56);
      b.edge(res, reshape).edge(shape, reshape);
      x = b.node("ReLU", 1, 64, 56, 56);
      b.edge(reshape, x);
    }
    int out = b.node("Result");
    b.edge(x, out);
    return b.build();
  }
}
