package org.hsdag.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/**
 * Hand-built IR graphs for tests. Every node has one output port; an op's input ports take the
 * shapes of their producers' outputs.
 *
 * <pre>
 * TinyGraphs.Builder b = TinyGraphs.builder("tiny");
 * int x = b.parameter("x", 1, 1000);
 * int r = b.op("relu", "ReLU", new long[] {1, 1000}, x);
 * b.result("out", r);
 * OpGraph g = b.build();
 * </pre>
 */
public final class TinyGraphs {
  private TinyGraphs() {}

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Collects nodes; all tensors are f32 unless given otherwise. */
  public static final class Builder {
    private final String name;
    private final List<OpNode> nodes = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private int irVersion = 11;

    private Builder(String name) {
      this.name = name;
    }

    /** A Parameter with an f32 output of {@code dims}. */
    public int parameter(String nodeName, long... dims) {
      Map<String, String> data = new LinkedHashMap<>();
      data.put("element_type", "f32");
      data.put("shape", join(dims));
      return add(nodeName, "Parameter", data, ElementType.F32, dims);
    }

    /** A Const with an output of {@code dims} and element type {@code type}. */
    public int constant(String nodeName, ElementType type, long... dims) {
      Map<String, String> data = new LinkedHashMap<>();
      data.put("element_type", type.irName());
      data.put("shape", join(dims));
      data.put("offset", "0");
      data.put("size", Long.toString(type.byteSize(count(dims))));
      return add(nodeName, "Const", data, type, dims);
    }

    /** An f32 op of {@code type} with output {@code outDims} fed by {@code inputs} (port 0 each). */
    public int op(String nodeName, String type, long[] outDims, int... inputs) {
      return op(nodeName, type, Map.of(), ElementType.F32, outDims, inputs);
    }

    /** An op with attributes, output element type and output shape. */
    public int op(String nodeName, String type, Map<String, String> attributes, ElementType outType, long[] outDims,
        int... inputs) {
      List<Port> ins = new ArrayList<>();
      for (int k = 0; k < inputs.length; k++) {
        Port src = nodes.get(inputs[k]).outputs().get(0);
        ins.add(new Port(k, src.elementType(), src.dims(), null, null));
      }
      int index = nodes.size();
      nodes.add(new OpNode(index, Integer.toString(index), nodeName, type, "opset1", attributes, ins,
          List.of(new Port(inputs.length, outType, outDims, null, null)), null, null));
      for (int k = 0; k < inputs.length; k++) {
        edges.add(new Edge(inputs[k], 0, index, k));
      }
      return index;
    }

    /** A decompression Convert (f16 constant to f32) as the FP16-compressed IRs have. */
    public int decompress(String nodeName, int f16Constant) {
      Port src = nodes.get(f16Constant).outputs().get(0);
      int index = nodes.size();
      nodes.add(new OpNode(index, Integer.toString(index), nodeName, "Convert", "opset1",
          Map.of("destination_type", "f32"), List.of(new Port(0, src.elementType(), src.dims(), null, null)),
          List.of(new Port(1, ElementType.F32, src.dims(), null, null)),
          "<rt_info><attribute name=\"decompression\" version=\"0\" /></rt_info>", null));
      edges.add(new Edge(f16Constant, 0, index, 0));
      return index;
    }

    /** A Result consuming {@code input}. */
    public int result(String nodeName, int input) {
      Port src = nodes.get(input).outputs().get(0);
      int index = nodes.size();
      nodes.add(new OpNode(index, Integer.toString(index), nodeName, "Result", "opset1", Map.of(),
          List.of(new Port(0, src.elementType(), src.dims(), null, null)), List.of(), null, null));
      edges.add(new Edge(input, 0, index, 0));
      return index;
    }

    /** The IR version the graph says it was read from (default 11). */
    public Builder irVersion(int version) {
      this.irVersion = version;
      return this;
    }

    public OpGraph build() {
      OpGraph.Builder b = OpGraph.builder().setName(name).setIrVersion(irVersion);
      nodes.forEach(b::addNode);
      edges.forEach(b::addEdge);
      return b.build();
    }

    private int add(String nodeName, String type, Map<String, String> data, ElementType t, long[] dims) {
      int index = nodes.size();
      nodes.add(new OpNode(index, Integer.toString(index), nodeName, type, "opset1", data, List.of(),
          List.of(new Port(0, t, dims, null, null)), null, null));
      return index;
    }
  }

  /**
   * A random layered DAG of about {@code size} nodes: MatMul and Add/ReLU ops on [1, width]
   * tensors, each op reading one or two earlier ops (skip connections included), with weights as
   * constants. Deterministic for a seed.
   */
  public static OpGraph randomDag(int size, int width, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Builder b = builder("random-" + size);
    List<Integer> ops = new ArrayList<>();
    ops.add(b.parameter("input", 1, width));
    long[] shape = {1, width};
    int k = 0;
    while (b.nodes.size() < size - 1) {
      int last = ops.get(ops.size() - 1);
      int r = rnd.nextInt(3);
      int id;
      if (r == 0) {
        int w = b.constant("w" + k, ElementType.F32, width, width);
        id = b.op("matmul" + k, "MatMul", shape, last, w);
      } else if (r == 1 && ops.size() > 2) {
        int other = ops.get(Math.max(0, ops.size() - 2 - rnd.nextInt(Math.min(8, ops.size() - 1))));
        id = b.op("add" + k, "Add", shape, last, other);
      } else {
        id = b.op("relu" + k, "ReLU", shape, last);
      }
      ops.add(id);
      k++;
    }
    b.result("output", ops.get(ops.size() - 1));
    return b.build();
  }

  private static String join(long[] dims) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < dims.length; i++) {
      s.append(i == 0 ? "" : ",").append(dims[i]);
    }
    return s.toString();
  }

  private static long count(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }
}
