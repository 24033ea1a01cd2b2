package org.hsdag.cost;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;

/**
 * {@link HeteroCostModel#forGraph}'s tables, built from a graph step by step: the ops (kernels) in
 * topological order, their predecessor ops, fusion, kernel times per device, the boundary tensors.
 */
final class GraphCostTables {
  private final OpGraph g;
  private final OpCost[] costs;
  /** The op of each graph node, -1 for a node that is not a kernel. */
  private final int[] computeIndex;
  private final int nc;
  /** The graph node of each op. */
  private final int[] computeNode;

  private GraphCostTables(OpGraph g, OpCost[] costs) {
    this.g = g;
    this.costs = costs;
    int n = g.nodeCount();
    int[] topo = g.topologicalOrder();
    computeIndex = new int[n];
    Arrays.fill(computeIndex, -1);
    int count = 0;
    for (int v : topo) {
      if (costs[v].opClass().isCompute()) {
        computeIndex[v] = count++;
      }
    }
    nc = count;
    computeNode = new int[nc];
    for (int v = 0; v < n; v++) {
      if (computeIndex[v] >= 0) {
        computeNode[computeIndex[v]] = v;
      }
    }
  }

  /** See {@link HeteroCostModel#forGraph}. */
  static HeteroCostModel build(OpGraph g, OpCost[] costs, ShapeAssumption shapes, List<HeteroDevice> devices,
      double requestOverheadUs, KernelTimes times) {
    Objects.requireNonNull(times, "times");
    int n = g.nodeCount();
    if (costs.length != n) {
      throw new IllegalArgumentException("costs has " + costs.length + " entries for " + n + " nodes");
    }
    GraphCostTables ops = new GraphCostTables(g, costs);
    int nc = ops.nc;
    int[] predStart = ops.predecessorStarts();
    int[] pred = ops.predecessors(predStart);
    int devs = devices.size();
    double[] time = new double[devs * nc];
    double[] fusedTime = new double[devs * nc];
    boolean[] supported = new boolean[devs * nc];
    ops.kernelTimes(times, devs, time, fusedTime, supported);
    int[] fuseInto = ops.fusion(predStart, pred);
    ops.quantizedInputs(fuseInto, time, fusedTime);
    int[] tensorOfEdge = ops.tensorOfEdge();
    int tensors = Arrays.stream(tensorOfEdge).max().orElse(-1) + 1;
    int[] tensorProducer = new int[tensors];
    double[] tensorBytes = new double[tensors];
    int[] tensorResults = new int[tensors];
    int[] tensorConsumerStart = new int[tensors + 1];
    ops.tensorEnds(shapes, tensorOfEdge, tensorProducer, tensorBytes, tensorResults, tensorConsumerStart);
    int[] tensorConsumer = ops.tensorConsumers(tensorOfEdge, tensorConsumerStart);
    return new HeteroCostModel(devices, n, ops.computeNode, predStart, pred, time, fusedTime, fuseInto, supported,
        tensorProducer, tensorBytes, tensorConsumerStart, tensorConsumer, tensorResults, requestOverheadUs,
        HeteroSplit.ofGraph(g, ops.computeIndex, nc));
  }

  /** Where each op's predecessor ops start in {@link #predecessors}; one entry per input edge from an op. */
  private int[] predecessorStarts() {
    int[] predStart = new int[nc + 1];
    for (int i = 0; i < nc; i++) {
      int v = computeNode[i];
      int k = 0;
      for (int j = 0; j < g.inDegree(v); j++) {
        if (computeIndex[g.predecessor(v, j)] >= 0) {
          k++;
        }
      }
      predStart[i + 1] = predStart[i] + k;
    }
    return predStart;
  }

  private int[] predecessors(int[] predStart) {
    int[] pred = new int[predStart[nc]];
    for (int i = 0, w = 0; i < nc; i++) {
      int v = computeNode[i];
      for (int j = 0; j < g.inDegree(v); j++) {
        int ci = computeIndex[g.predecessor(v, j)];
        if (ci >= 0) {
          pred[w++] = ci;
        }
      }
    }
    return pred;
  }

  /**
   * An element-wise op fuses into the kernel producing its data when that producer is a
   * convolution, a MatMul or an already fusable element-wise op whose only consumer it is (what
   * the CPU and GPU plugins do with bias, activation and residual adds).
   */
  private int[] fusion(int[] predStart, int[] pred) {
    int[] fuseInto = new int[nc];
    Arrays.fill(fuseInto, -1);
    for (int i = 0; i < nc; i++) {
      int v = computeNode[i];
      OpClass cls = costs[v].opClass();
      if (cls != OpClass.ELEMENTWISE && cls != OpClass.ACTIVATION && cls != OpClass.QUANTIZATION) {
        continue;
      }
      int best = -1;
      for (int j = predStart[i]; j < predStart[i + 1]; j++) {
        int p = pred[j];
        int pv = computeNode[p];
        OpClass pc = costs[pv].opClass();
        boolean root = pc == OpClass.CONVOLUTION || pc == OpClass.POINTWISE_CONVOLUTION
            || pc == OpClass.GROUP_CONVOLUTION || pc == OpClass.MATMUL;
        if ((root || fuseInto[p] >= 0) && g.outDegree(pv) == 1 && p > best) {
          best = p;
        }
      }
      fuseInto[i] = best;
    }
    return fuseInto;
  }

  /**
   * A kernel an int8 model quantizes ({@link QuantizedInputs}) "fuses into" its FakeQuantize: its fused time is the
   * int8 one, its own time the one with the FakeQuantize elsewhere. Linked only where the profile measured both.
   */
  private void quantizedInputs(int[] fuseInto, double[] time, double[] fusedTime) {
    int[] quantizer = QuantizedInputs.quantizerOf(g, costs);
    for (int i = 0; i < nc; i++) {
      int q = quantizer[computeNode[i]];
      if (q >= 0 && fuseInto[i] < 0 && computeIndex[q] >= 0 && differs(i, time, fusedTime)) {
        fuseInto[i] = computeIndex[q];
      }
    }
  }

  private boolean differs(int op, double[] time, double[] fusedTime) {
    for (int k = op; k < time.length; k += nc) {
      if (fusedTime[k] != time[k]) {
        return true;
      }
    }
    return false;
  }

  /** Fills the [device * nc + op] tables of kernel times, fused times and support. */
  private void kernelTimes(KernelTimes times, int devs, double[] time, double[] fusedTime, boolean[] supported) {
    for (int d = 0; d < devs; d++) {
      for (int i = 0; i < nc; i++) {
        int v = computeNode[i];
        int k = d * nc + i;
        supported[k] = times.supported(v, costs[v], d);
        time[k] = times.micros(v, costs[v], d);
        fusedTime[k] = times.fusedMicros(v, costs[v], d);
      }
    }
  }

  /**
   * Boundary tensors: one per producer output port feeding a compute node or a Result; the tensor
   * of each edge, -1 for an edge that carries none, numbered from 0 without gaps.
   */
  private int[] tensorOfEdge() {
    int m = g.edgeCount();
    int[] tensorOfEdge = new int[m];
    Arrays.fill(tensorOfEdge, -1);
    int tensors = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      boolean producer = computeIndex[v] >= 0 || costs[v].opClass() == OpClass.PARAMETER;
      if (!producer) {
        continue;
      }
      int outs = g.node(v).outputs().size();
      int[] tensorOfPort = new int[outs];
      Arrays.fill(tensorOfPort, -1);
      for (int j = 0; j < g.outDegree(v); j++) {
        int e = g.outEdge(v, j);
        Edge edge = g.edge(e);
        int t = edge.target();
        if (computeIndex[t] < 0 && costs[t].opClass() != OpClass.RESULT) {
          continue;
        }
        if (tensorOfPort[edge.sourceOutput()] < 0) {
          tensorOfPort[edge.sourceOutput()] = tensors++;
        }
        tensorOfEdge[e] = tensorOfPort[edge.sourceOutput()];
      }
    }
    return tensorOfEdge;
  }

  /**
   * Fills each tensor's producer op (-1 for a model input), bytes and Results, and its consumer
   * count in {@code tensorConsumerStart} turned into start offsets.
   */
  private void tensorEnds(ShapeAssumption shapes, int[] tensorOfEdge, int[] tensorProducer, double[] tensorBytes,
      int[] tensorResults, int[] tensorConsumerStart) {
    int m = tensorOfEdge.length;
    int tensors = tensorProducer.length;
    TensorShapes sized = TensorShapes.of(g, shapes);
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t < 0) {
        continue;
      }
      Edge edge = g.edge(e);
      tensorProducer[t] = computeIndex[edge.source()];
      tensorBytes[t] = sized.edgeElements(e) * bitsOf(g.edgeTensor(e)) / 8.0;
      if (computeIndex[edge.target()] >= 0) {
        tensorConsumerStart[t + 1]++;
      } else {
        tensorResults[t]++;
      }
    }
    for (int t = 0; t < tensors; t++) {
      tensorConsumerStart[t + 1] += tensorConsumerStart[t];
    }
  }

  private int[] tensorConsumers(int[] tensorOfEdge, int[] tensorConsumerStart) {
    int m = tensorOfEdge.length;
    int tensors = tensorConsumerStart.length - 1;
    int[] tensorConsumer = new int[tensorConsumerStart[tensors]];
    int[] fill = Arrays.copyOf(tensorConsumerStart, tensors);
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t >= 0 && computeIndex[g.edge(e).target()] >= 0) {
        tensorConsumer[fill[t]++] = computeIndex[g.edge(e).target()];
      }
    }
    return tensorConsumer;
  }

  private static int bitsOf(org.hsdag.ir.Port p) {
    return p.elementType() == null || p.elementType().bitWidth() == 0 ? 32 : p.elementType().bitWidth();
  }
}
