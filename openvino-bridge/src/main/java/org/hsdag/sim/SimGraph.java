package org.hsdag.sim;

import java.util.Arrays;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * Everything about one graph on one profile that does not depend on the placement, precomputed
 * once into primitive arrays so that {@link #evaluate} is a few linear passes.
 *
 * <p>HETERO rules applied here: Const layers and everything computed only from constants (the
 * FP16 decompression {@code Convert} chain included) are folded into their consumers and run on
 * the consumer's device at no cost, whatever device a placement names for them; Parameters and
 * Results follow their neighbours (they cost only the host copy of the model's inputs and outputs
 * on a device with a link). Only the remaining "compute" nodes are split into sub-models.
 */
public final class SimGraph {
  /** Nodes that run as kernels, in topological order (compute index → node index). */
  final int[] computeNode;
  /** Node index → compute index, or -1. */
  final int[] computeIndex;
  final int nc;
  final int devices;
  /** Compute predecessors of each compute node (compute indices), CSR. */
  final int[] predStart;
  final int[] pred;
  final int maxInDegree;
  /** Kernel time in µs, [device * nc + i]. */
  final double[] time;
  /** Time when fused into {@link #fuseInto}'s kernel, [device * nc + i]. */
  final double[] fusedTime;
  /** Compute index of the kernel this element-wise op can fuse into, or -1. */
  final int[] fuseInto;
  final boolean[] supported;
  /** Boundary tensors: producer compute index (-1 for a model input), bytes, consumers (CSR), results fed. */
  final int[] tensorProducer;
  final double[] tensorBytes;
  final int[] tensorConsumerStart;
  final int[] tensorConsumer;
  final int[] tensorResults;
  final double[] linkLatency;
  final double[] linkInvBandwidth;
  final double[] subModelOverhead;
  final double requestOverhead;
  final OpCost[] costs;
  final DeviceProfile profile;
  private final OpGraph graph;

  private SimGraph(OpGraph g, DeviceProfile profile, CostModel costModel) {
    this.graph = g;
    this.profile = profile;
    int n = g.nodeCount();
    devices = profile.devices().size();
    costs = new OpCost[n];
    boolean[] folded = new boolean[n];
    int[] topo = g.topologicalOrder();
    for (int v : topo) {
      OpNode node = g.node(v);
      OpCost c = costModel.cost(node);
      // Constant folding: an op whose inputs all come from constants is computed at compile time.
      boolean constant = c.opClass() == OpClass.CONSTANT;
      if (!constant && g.inDegree(v) > 0 && c.opClass().isCompute()) {
        constant = true;
        for (int j = 0; j < g.inDegree(v) && constant; j++) {
          constant = folded[g.predecessor(v, j)];
        }
      }
      folded[v] = constant;
      costs[v] = constant && c.opClass() != OpClass.CONSTANT ? new OpCost(OpClass.CONSTANT, 0, 0, false) : c;
    }
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
    predStart = new int[nc + 1];
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
    pred = new int[predStart[nc]];
    for (int i = 0, w = 0; i < nc; i++) {
      int v = computeNode[i];
      for (int j = 0; j < g.inDegree(v); j++) {
        int ci = computeIndex[g.predecessor(v, j)];
        if (ci >= 0) {
          pred[w++] = ci;
        }
      }
    }
    int maxDeg = 0;
    for (int i = 0; i < nc; i++) {
      maxDeg = Math.max(maxDeg, predStart[i + 1] - predStart[i]);
    }
    maxInDegree = maxDeg;
    fuseInto = new int[nc];
    computeFusion(g);
    time = new double[devices * nc];
    fusedTime = new double[devices * nc];
    supported = new boolean[devices * nc];
    linkLatency = new double[devices];
    linkInvBandwidth = new double[devices];
    subModelOverhead = new double[devices];
    for (int d = 0; d < devices; d++) {
      DeviceModel dev = profile.devices().get(d);
      linkLatency[d] = dev.linkLatencyUs();
      linkInvBandwidth[d] = dev.linkBandwidthGBs() == 0 ? 0 : 1.0 / (dev.linkBandwidthGBs() * 1e3);
      subModelOverhead[d] = dev.subModelOverheadUs();
      double[] flopsPerUs = new double[OpClass.values().length];
      for (OpClass cls : OpClass.values()) {
        flopsPerUs[cls.ordinal()] = dev.peakGflops() * 1e3 * dev.efficiencyOf(cls);
      }
      double bytesPerUs = dev.memoryBandwidthGBs() * 1e3;
      for (int i = 0; i < nc; i++) {
        OpNode node = g.node(computeNode[i]);
        OpCost c = costs[computeNode[i]];
        int k = d * nc + i;
        supported[k] = dev.canRun(node.type(), c.dynamic());
        double outputs = 0;
        for (org.hsdag.ir.Port port : node.outputs()) {
          outputs += costModel.shapes().elements(port.dims());
        }
        double compute = c.flops() / (flopsPerUs[c.opClass().ordinal()] * dev.occupancy(c.opClass(), outputs));
        time[k] = c.opClass() == OpClass.VIEW ? 0 : Math.max(compute, c.bytes() / bytesPerUs) + dev.launchOverheadUs();
        fusedTime[k] = dev.fusion() ? compute : time[k];
      }
    }
    requestOverhead = profile.requestOverheadUs();
    // Boundary tensors: one per producer output port feeding a compute node or a Result.
    int m = g.edgeCount();
    int[] tensorOfEdge = new int[m];
    Arrays.fill(tensorOfEdge, -1);
    int tensors = 0;
    int[] firstTensorOfNode = new int[n + 1];
    for (int v = 0; v < n; v++) {
      firstTensorOfNode[v] = tensors;
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
    tensorProducer = new int[tensors];
    tensorBytes = new double[tensors];
    tensorResults = new int[tensors];
    tensorConsumerStart = new int[tensors + 1];
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t < 0) {
        continue;
      }
      Edge edge = g.edge(e);
      tensorProducer[t] = computeIndex[edge.source()];
      tensorBytes[t] = costModel.shapes().elements(g.edgeTensor(e).dims()) * bitsOf(g.edgeTensor(e)) / 8.0;
      if (computeIndex[edge.target()] >= 0) {
        tensorConsumerStart[t + 1]++;
      } else {
        tensorResults[t]++;
      }
    }
    for (int t = 0; t < tensors; t++) {
      tensorConsumerStart[t + 1] += tensorConsumerStart[t];
    }
    tensorConsumer = new int[tensorConsumerStart[tensors]];
    int[] fill = Arrays.copyOf(tensorConsumerStart, tensors);
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t >= 0 && computeIndex[g.edge(e).target()] >= 0) {
        tensorConsumer[fill[t]++] = computeIndex[g.edge(e).target()];
      }
    }
  }

  private static int bitsOf(org.hsdag.ir.Port p) {
    return p.elementType() == null || p.elementType().bitWidth() == 0 ? 32 : p.elementType().bitWidth();
  }

  /**
   * An element-wise op fuses into the kernel producing its data when that producer is a
   * convolution, a MatMul or an already fusable element-wise op whose only consumer it is (what
   * the CPU and GPU plugins do with bias, activation and residual adds).
   */
  private void computeFusion(OpGraph g) {
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
  }

  /** Builds the tables of {@code graph} on {@code profile}. */
  public static SimGraph build(OpGraph graph, DeviceProfile profile, CostModel costModel) {
    return new SimGraph(graph, profile, costModel);
  }

  public OpGraph graph() {
    return graph;
  }

  public DeviceProfile profile() {
    return profile;
  }

  /** Number of nodes that run as kernels (not folded, not Parameter/Result). */
  public int computeNodeCount() {
    return nc;
  }

  /** The cost of node {@code v} (folded constants report {@link OpClass#CONSTANT}). */
  public OpCost cost(int v) {
    return costs[v];
  }

  /**
   * The op types of this graph that the cost model has no formula for and that run as kernels
   * (costed as a copy, see {@link CostModel}), with how many nodes each; empty when every kernel
   * has a formula. Unknown ops folded into constants cost nothing and are not listed.
   */
  public SortedMap<String, Integer> unknownOpTypes() {
    SortedMap<String, Integer> unknown = new TreeMap<>();
    for (int v : computeNode) {
      if (costs[v].opClass() == OpClass.OTHER) {
        unknown.merge(graph.node(v).type(), 1, Integer::sum);
      }
    }
    return Collections.unmodifiableSortedMap(unknown);
  }

  /** Whether node {@code v} is a kernel (false for constants, folded ops, Parameters, Results). */
  public boolean isCompute(int v) {
    return computeIndex[v] >= 0;
  }

  /** Whether profile device {@code device} can run node {@code v} (always true for non-kernels). */
  public boolean canRun(int v, int device) {
    int i = computeIndex[v];
    return i < 0 || supported[device * nc + i];
  }

  /** Stand-alone kernel time of node {@code v} on profile device {@code device}, µs (0 for non-kernels). */
  public double kernelMicros(int v, int device) {
    int i = computeIndex[v];
    return i < 0 ? 0 : time[device * nc + i];
  }

  /**
   * Simulates one HETERO inference of the placement {@code deviceOf} (per node, an index into
   * {@code deviceMap}, which maps it to a profile device index), without noise.
   */
  public Evaluation evaluate(int[] deviceOf, int[] deviceMap) {
    int[] dc = new int[nc];
    for (int i = 0; i < nc; i++) {
      dc[i] = deviceMap[deviceOf[computeNode[i]]];
      if (!supported[dc[i] * nc + i]) {
        return Evaluation.failure(computeNode[i], dc[i]);
      }
    }
    int[] parent = new int[nc];
    int[] level = new int[nc];
    boolean[] hasOut = new boolean[nc];
    int subModels = cluster(dc, parent, level, hasOut);
    double total = requestOverhead;
    for (int i = 0; i < nc; i++) {
      int r = parent[i];
      if (r == i) {
        total += subModelOverhead[dc[i]];
      }
      int f = fuseInto[i];
      total += f >= 0 && parent[f] == r ? fusedTime[dc[i] * nc + i] : time[dc[i] * nc + i];
    }
    total += transfers(dc, parent, new int[nc]);
    return new Evaluation(true, total, subModels, -1, -1);
  }

  /**
   * The HETERO sub-model of every node under a placement: for a kernel, the node index of its
   * sub-model's first kernel; -1 for nodes that are not kernels (constants, folded ops, Parameters,
   * Results follow their neighbours). Same splitting as {@link #evaluate}; device support is not checked.
   */
  public int[] subModelOf(int[] deviceOf, int[] deviceMap) {
    int[] dc = new int[nc];
    for (int i = 0; i < nc; i++) {
      dc[i] = deviceMap[deviceOf[computeNode[i]]];
    }
    int[] parent = new int[nc];
    cluster(dc, parent, new int[nc], new boolean[nc]);
    int[] out = new int[computeIndex.length];
    Arrays.fill(out, -1);
    for (int i = 0; i < nc; i++) {
      out[computeNode[i]] = computeNode[parent[i]];
    }
    return out;
  }

  /**
   * Splits compute nodes into connected same-device sub-models whose dependency graph is acyclic.
   * Nodes are visited in topological order; each sub-model keeps a level such that every edge
   * between sub-models goes to a strictly higher level. A node joins a same-device predecessor's
   * sub-model when that cannot close a cycle: always if the sub-model has no outgoing edge yet,
   * otherwise only if all its other inputs come from lower levels; else it starts a new sub-model
   * (HETERO's extra cut). On return {@code parent[i]} is the root of node i's sub-model.
   *
   * <p>The level test is sufficient, not necessary: in rare multi-input shapes (an input from an
   * unrelated higher-level sub-model) it cuts where HETERO's exact cycle check would not, adding
   * one sub-model. It never produces a cycle (see SubModelSplitTest).
   */
  private int cluster(int[] dc, int[] parent, int[] level, boolean[] hasOut) {
    int subModels = 0;
    int[] roots = new int[maxInDegree];
    for (int i = 0; i < nc; i++) {
      int d = dc[i];
      int s = predStart[i];
      int deg = predStart[i + 1] - s;
      if (deg <= 1) {
        // Fast path (most nodes): a single input joins its sub-model when on the same device.
        int c = deg == 0 ? -1 : find(parent, pred[s]);
        if (c >= 0 && dc[c] == d) {
          parent[i] = c;
        } else {
          parent[i] = i;
          level[i] = c < 0 ? 0 : level[c] + 1;
          if (c >= 0) {
            hasOut[c] = true;
          }
          subModels++;
        }
        continue;
      }
      for (int k = 0; k < deg; k++) {
        roots[k] = find(parent, pred[s + k]);
      }
      // Same-device predecessor sub-models without outgoing edges can all merge with this node.
      int free = -1;
      boolean merged = false;
      for (int k = 0; k < deg; k++) {
        int c = roots[k];
        if (dc[c] == d && !hasOut[c] && parent[c] == c) {
          if (free < 0) {
            free = c;
          } else if (c != free) {
            parent[c] = free;
            level[free] = Math.max(level[free], level[c]);
            subModels--;
            merged = true;
          }
        }
      }
      if (merged) {
        for (int k = 0; k < deg; k++) {
          roots[k] = find(parent, roots[k]);
        }
      }
      int target = free;
      if (target < 0) {
        // Otherwise join the highest same-device sub-model if every other input comes from below it.
        int best = -1;
        for (int k = 0; k < deg; k++) {
          int c = roots[k];
          if (dc[c] == d && (best < 0 || level[c] > level[best])) {
            best = c;
          }
        }
        if (best >= 0) {
          int external = -1;
          for (int k = 0; k < deg; k++) {
            if (roots[k] != best) {
              external = Math.max(external, level[roots[k]]);
            }
          }
          if (external < level[best]) {
            target = best;
          }
        }
      }
      int external = -1;
      for (int k = 0; k < deg; k++) {
        int c = roots[k];
        if (c != target) {
          external = Math.max(external, level[c]);
          hasOut[c] = true;
        }
      }
      if (target >= 0) {
        parent[i] = target;
        if (!hasOut[target] && external + 1 > level[target]) {
          level[target] = external + 1;
        }
      } else {
        parent[i] = i;
        level[i] = external + 1;
        subModels++;
      }
    }
    for (int i = 0; i < nc; i++) {
      parent[i] = find(parent, i);
    }
    return subModels;
  }

  private static int find(int[] parent, int x) {
    // Path halving: every visited node skips to its grandparent.
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  /**
   * Boundary copies through host memory: the producer's device copies a tensor out once if any
   * consumer sits in another sub-model (or it is a model output); each other consumer sub-model
   * copies it in once. Model inputs start in host memory.
   */
  private double transfers(int[] dc, int[] root, int[] stamp) {
    // stamp[c] == t + 1 once tensor t has been copied into sub-model c (a fresh array is all zero).
    double total = 0;
    int tensors = tensorProducer.length;
    for (int t = 0; t < tensors; t++) {
      int p = tensorProducer[t];
      int pc = p >= 0 ? root[p] : -1;
      double bytes = tensorBytes[t];
      boolean crossed = false;
      for (int j = tensorConsumerStart[t]; j < tensorConsumerStart[t + 1]; j++) {
        int c = tensorConsumer[j];
        int cc = root[c];
        if (cc != pc && stamp[cc] != t + 1) {
          stamp[cc] = t + 1;
          int d = dc[c];
          total += linkLatency[d] + bytes * linkInvBandwidth[d];
          crossed = true;
        }
      }
      if (p >= 0 && (crossed || tensorResults[t] > 0)) {
        int d = dc[p];
        total += linkLatency[d] + bytes * linkInvBandwidth[d];
      }
    }
    return total;
  }

  /**
   * The outcome of one noise-free simulation.
   *
   * @param ok whether every kernel's device can run it
   * @param micros simulated latency in microseconds (NaN when failed)
   * @param subModels number of HETERO sub-models (0 when failed)
   * @param failedNode node index of the first op its device cannot run, or -1
   * @param failedDevice profile device index of that op, or -1
   */
  public record Evaluation(boolean ok, double micros, int subModels, int failedNode, int failedDevice) {
    static Evaluation failure(int node, int device) {
      return new Evaluation(false, Double.NaN, 0, node, device);
    }
  }
}
