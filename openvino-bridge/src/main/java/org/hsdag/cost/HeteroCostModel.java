package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;

/**
 * The additive cost tables of one graph's HETERO execution, and the one evaluator that runs a
 * placement on them ({@link #evaluate}). Immutable; the simulator measures with it and the planner
 * uses it as its exact proxy.
 *
 * <p>The tables cover the <em>ops</em>: the graph's kernels (compute nodes), in topological order,
 * op {@code i} being graph node {@link #node(int)}. Per op and device: the stand-alone kernel time,
 * the time when fused into the producer op {@link #fuseInto(int)} (only when both share a
 * sub-model), and whether the device runs it. Per boundary tensor (a producer output feeding an
 * op or a Result): its producer op (-1 for a model input, which starts in host memory), its bytes,
 * its consumer ops and the number of Results it feeds. Per device: link latency, inverse link
 * bandwidth and sub-model start cost ({@link HeteroDevice}); per request: a fixed overhead.
 *
 * <p>The evaluator applies HETERO's rules: sub-models split as OpenVINO's HETERO plugin splits them
 * ({@link HeteroSplit}, over every node of the model), run one after another; fusion only inside a sub-model; a boundary tensor leaves its
 * producer's device once and enters each other consumer sub-model once.
 *
 * <p>Built from a graph by {@link #forGraph} (times from any {@link KernelTimes}: a sim profile or
 * measured per-op times), or op by op with a {@link Builder}.
 */
public final class HeteroCostModel {
  private final List<HeteroDevice> devices;
  private final int nc;
  private final int nodeCount;
  private final int[] node;
  private final int[] predStart;
  private final int[] pred;
  /** Where sub-models start and end: over every node OpenVINO sees, not only these ops. */
  private final HeteroSplit split;
  /** Kernel time in µs, [device * nc + i]. */
  private final double[] time;
  /** Time when fused into {@link #fuseInto}'s kernel, [device * nc + i]. */
  private final double[] fusedTime;
  private final int[] fuseInto;
  private final boolean[] supported;
  private final int[] tensorProducer;
  private final double[] tensorBytes;
  private final int[] tensorConsumerStart;
  private final int[] tensorConsumer;
  private final int[] tensorResults;
  private final double[] linkLatency;
  private final double[] linkInvBandwidth;
  private final double[] subModelOverhead;
  private final double requestOverhead;

  /** Takes ownership of the arrays (callers pass fresh ones). */
  private HeteroCostModel(List<HeteroDevice> devices, int nodeCount, int[] node, int[] predStart, int[] pred,
      double[] time, double[] fusedTime, int[] fuseInto, boolean[] supported, int[] tensorProducer,
      double[] tensorBytes, int[] tensorConsumerStart, int[] tensorConsumer, int[] tensorResults,
      double requestOverhead, HeteroSplit split) {
    this.devices = List.copyOf(devices);
    if (this.devices.isEmpty() || this.devices.size() > 63) {
      throw new IllegalArgumentException("a cost model needs 1 to 63 devices (got " + devices.size() + ")");
    }
    if (!(requestOverhead >= 0) || Double.isInfinite(requestOverhead)) {
      throw new IllegalArgumentException("request overhead must be >= 0 (got " + requestOverhead + ")");
    }
    this.nc = node.length;
    this.nodeCount = nodeCount;
    this.node = node;
    this.predStart = predStart;
    this.pred = pred;
    this.time = time;
    this.fusedTime = fusedTime;
    this.fuseInto = fuseInto;
    this.supported = supported;
    this.tensorProducer = tensorProducer;
    this.tensorBytes = tensorBytes;
    this.tensorConsumerStart = tensorConsumerStart;
    this.tensorConsumer = tensorConsumer;
    this.tensorResults = tensorResults;
    this.requestOverhead = requestOverhead;
    int d = this.devices.size();
    linkLatency = new double[d];
    linkInvBandwidth = new double[d];
    subModelOverhead = new double[d];
    for (int k = 0; k < d; k++) {
      HeteroDevice dev = this.devices.get(k);
      linkLatency[k] = dev.linkLatencyUs();
      linkInvBandwidth[k] = dev.linkMicrosPerByte();
      subModelOverhead[k] = dev.subModelOverheadUs();
    }
    if (split.opCount() != nc) {
      throw new IllegalArgumentException("the split covers " + split.opCount() + " ops, the model " + nc);
    }
    this.split = split;
    for (int i = 0; i < nc; i++) {
      for (int j = predStart[i]; j < predStart[i + 1]; j++) {
        if (pred[j] < 0 || pred[j] >= i) {
          throw new IllegalArgumentException(
              "op " + i + " has predecessor " + pred[j] + ": ops must be in topological order");
        }
      }
      if (fuseInto[i] >= i) {
        throw new IllegalArgumentException("op " + i + " fuses into later op " + fuseInto[i]);
      }
    }
    for (int t = 0; t < tensorProducer.length; t++) {
      if (tensorProducer[t] < -1 || tensorProducer[t] >= nc || !(tensorBytes[t] >= 0)) {
        throw new IllegalArgumentException("tensor " + t + ": bad producer or bytes");
      }
    }
    for (int c : tensorConsumer) {
      if (c < 0 || c >= nc) {
        throw new IllegalArgumentException("tensor consumer " + c + " is not an op");
      }
    }
    for (int k = 0; k < time.length; k++) {
      if (!(time[k] >= 0) || !(fusedTime[k] >= 0) || Double.isInfinite(time[k]) || Double.isInfinite(fusedTime[k])) {
        throw new IllegalArgumentException(
            "op " + (k % Math.max(nc, 1)) + " on " + this.devices.get(k / Math.max(nc, 1)).name()
                + ": kernel times must be finite and >= 0");
      }
    }
  }

  /**
   * The model of {@code graph}: kernels are the nodes whose {@code costs} entry is a compute class
   * (see {@link CostModel#costs}: folded constants, Parameters and Results are not kernels), tensor
   * bytes from their IR shapes under {@code shapes}, times from {@code times}, one entry of
   * {@code devices} per model device.
   */
  public static HeteroCostModel forGraph(OpGraph g, OpCost[] costs, ShapeAssumption shapes,
      List<HeteroDevice> devices, double requestOverheadUs, KernelTimes times) {
    Objects.requireNonNull(times, "times");
    int n = g.nodeCount();
    if (costs.length != n) {
      throw new IllegalArgumentException("costs has " + costs.length + " entries for " + n + " nodes");
    }
    int[] topo = g.topologicalOrder();
    int[] computeIndex = new int[n];
    Arrays.fill(computeIndex, -1);
    int count = 0;
    for (int v : topo) {
      if (costs[v].opClass().isCompute()) {
        computeIndex[v] = count++;
      }
    }
    int nc = count;
    int[] computeNode = new int[nc];
    for (int v = 0; v < n; v++) {
      if (computeIndex[v] >= 0) {
        computeNode[computeIndex[v]] = v;
      }
    }
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
    int[] fuseInto = fusion(g, costs, computeNode, predStart, pred);
    int devs = devices.size();
    double[] time = new double[devs * nc];
    double[] fusedTime = new double[devs * nc];
    boolean[] supported = new boolean[devs * nc];
    for (int d = 0; d < devs; d++) {
      for (int i = 0; i < nc; i++) {
        int v = computeNode[i];
        int k = d * nc + i;
        supported[k] = times.supported(v, costs[v], d);
        time[k] = times.micros(v, costs[v], d);
        fusedTime[k] = times.fusedMicros(v, costs[v], d);
      }
    }
    // Boundary tensors: one per producer output port feeding a compute node or a Result.
    int m = g.edgeCount();
    int[] tensorOfEdge = new int[m];
    Arrays.fill(tensorOfEdge, -1);
    int tensors = 0;
    for (int v = 0; v < n; v++) {
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
    int[] tensorProducer = new int[tensors];
    double[] tensorBytes = new double[tensors];
    int[] tensorResults = new int[tensors];
    int[] tensorConsumerStart = new int[tensors + 1];
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t < 0) {
        continue;
      }
      Edge edge = g.edge(e);
      tensorProducer[t] = computeIndex[edge.source()];
      tensorBytes[t] = shapes.elements(g.edgeTensor(e).dims()) * bitsOf(g.edgeTensor(e)) / 8.0;
      if (computeIndex[edge.target()] >= 0) {
        tensorConsumerStart[t + 1]++;
      } else {
        tensorResults[t]++;
      }
    }
    for (int t = 0; t < tensors; t++) {
      tensorConsumerStart[t + 1] += tensorConsumerStart[t];
    }
    int[] tensorConsumer = new int[tensorConsumerStart[tensors]];
    int[] fill = Arrays.copyOf(tensorConsumerStart, tensors);
    for (int e = 0; e < m; e++) {
      int t = tensorOfEdge[e];
      if (t >= 0 && computeIndex[g.edge(e).target()] >= 0) {
        tensorConsumer[fill[t]++] = computeIndex[g.edge(e).target()];
      }
    }
    return new HeteroCostModel(devices, n, computeNode, predStart, pred, time, fusedTime, fuseInto, supported,
        tensorProducer, tensorBytes, tensorConsumerStart, tensorConsumer, tensorResults, requestOverheadUs,
        HeteroSplit.ofGraph(g, computeIndex, nc));
  }

  /** The model of {@code graph} on a sim profile's devices, in profile order. */
  public static HeteroCostModel forProfile(OpGraph g, DeviceProfile profile, CostModel costModel) {
    return forProfile(g, costModel.costs(g), profile, costModel.shapes());
  }

  static HeteroCostModel forProfile(OpGraph g, OpCost[] costs, DeviceProfile profile, ShapeAssumption shapes) {
    return forGraph(g, costs, shapes, HeteroDevice.of(profile), profile.requestOverheadUs(),
        KernelTimes.ofProfile(g, profile, shapes));
  }

  private static int bitsOf(org.hsdag.ir.Port p) {
    return p.elementType() == null || p.elementType().bitWidth() == 0 ? 32 : p.elementType().bitWidth();
  }

  /**
   * An element-wise op fuses into the kernel producing its data when that producer is a
   * convolution, a MatMul or an already fusable element-wise op whose only consumer it is (what
   * the CPU and GPU plugins do with bias, activation and residual adds).
   */
  private static int[] fusion(OpGraph g, OpCost[] costs, int[] computeNode, int[] predStart, int[] pred) {
    int nc = computeNode.length;
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

  /** The same model on a subset of its devices, in the order named (e.g. the devices a search uses). */
  public HeteroCostModel withDevices(List<String> names) {
    int[] map = new int[names.size()];
    List<HeteroDevice> sub = new ArrayList<>();
    for (int k = 0; k < map.length; k++) {
      map[k] = indexOf(names.get(k));
      if (map[k] < 0) {
        throw new IllegalArgumentException("device " + names.get(k) + " is not in the cost model (devices: "
            + deviceNames() + ")");
      }
      sub.add(devices.get(map[k]));
    }
    double[] t = new double[map.length * nc];
    double[] f = new double[map.length * nc];
    boolean[] s = new boolean[map.length * nc];
    for (int k = 0; k < map.length; k++) {
      System.arraycopy(time, map[k] * nc, t, k * nc, nc);
      System.arraycopy(fusedTime, map[k] * nc, f, k * nc, nc);
      System.arraycopy(supported, map[k] * nc, s, k * nc, nc);
    }
    return new HeteroCostModel(sub, nodeCount, node.clone(), predStart.clone(), pred.clone(), t, f, fuseInto.clone(),
        s, tensorProducer.clone(), tensorBytes.clone(), tensorConsumerStart.clone(), tensorConsumer.clone(),
        tensorResults.clone(), requestOverhead, split);
  }

  /**
   * The same model with kernel times scaled per op and device ({@code kernelScale[d * opCount() + i]},
   * fused times alike) and each device's boundary-copy and sub-model start costs scaled: a cost
   * model corrected by measurements.
   */
  public HeteroCostModel rescaled(double[] kernelScale, double[] linkScale, double[] subModelScale) {
    int d = devices.size();
    if (kernelScale.length != d * nc || linkScale.length != d || subModelScale.length != d) {
      throw new IllegalArgumentException("scales must cover " + d + " devices and " + nc + " ops");
    }
    double[] t = new double[d * nc];
    double[] f = new double[d * nc];
    for (int k = 0; k < t.length; k++) {
      t[k] = time[k] * kernelScale[k];
      f[k] = fusedTime[k] * kernelScale[k];
    }
    List<HeteroDevice> scaled = new ArrayList<>();
    for (int k = 0; k < d; k++) {
      HeteroDevice dev = devices.get(k);
      scaled
          .add(new HeteroDevice(dev.name(), dev.linkLatencyUs() * linkScale[k], dev.linkMicrosPerByte() * linkScale[k],
              dev.subModelOverheadUs() * subModelScale[k]));
    }
    return new HeteroCostModel(scaled, nodeCount, node.clone(), predStart.clone(), pred.clone(), t, f, fuseInto.clone(),
        supported.clone(), tensorProducer.clone(), tensorBytes.clone(), tensorConsumerStart.clone(),
        tensorConsumer.clone(),
        tensorResults.clone(), requestOverhead, split);
  }

  /**
   * Where a feasible placement's latency goes, the terms {@link #evaluate} adds up.
   *
   * @param opMicros each op's kernel time as charged (fused into its producer's kernel or not)
   * @param copyMicros boundary-copy time charged to each device
   * @param subModels sub-models on each device
   * @param requestMicros the per-request overhead
   */
  public record Terms(double[] opMicros, double[] copyMicros, int[] subModels, double requestMicros) {}

  /** The {@link Terms} of a placement given as a model device per op (support is not checked). */
  public Terms terms(int[] dc) {
    int[] parent = new int[nc];
    int[] subs = new int[devices.size()];
    split.split(dc, parent, subs);
    double[] op = new double[nc];
    for (int i = 0; i < nc; i++) {
      int r = parent[i];
      int f = fuseInto[i];
      op[i] = f >= 0 && parent[f] == r ? fusedTime[dc[i] * nc + i] : time[dc[i] * nc + i];
    }
    double[] copies = new double[devices.size()];
    transfers(dc, parent, new int[nc], copies);
    return new Terms(op, copies, subs, requestOverhead);
  }

  // ---- the tables ----

  /** Number of ops (kernels). */
  public int opCount() {
    return nc;
  }

  /** Number of nodes of the graph the ops come from (ops index a subset). */
  public int nodeCount() {
    return nodeCount;
  }

  /** Graph node of op {@code op}. */
  public int node(int op) {
    return node[op];
  }

  public int deviceCount() {
    return devices.size();
  }

  public List<HeteroDevice> devices() {
    return devices;
  }

  public HeteroDevice device(int d) {
    return devices.get(d);
  }

  public List<String> deviceNames() {
    return devices.stream().map(HeteroDevice::name).toList();
  }

  /** Index of the device called {@code name}, or -1. */
  public int indexOf(String name) {
    for (int d = 0; d < devices.size(); d++) {
      if (devices.get(d).name().equals(name)) {
        return d;
      }
    }
    return -1;
  }

  public int predecessorCount(int op) {
    return predStart[op + 1] - predStart[op];
  }

  /** The {@code k}-th predecessor op of {@code op} (one entry per input edge from an op). */
  public int predecessor(int op, int k) {
    return pred[predStart[op] + k];
  }

  /** Stand-alone kernel time of {@code op} on {@code device}, µs. */
  public double micros(int op, int device) {
    return time[device * nc + op];
  }

  /** Kernel time of {@code op} when fused into {@link #fuseInto}'s kernel on {@code device}, µs. */
  public double fusedMicros(int op, int device) {
    return fusedTime[device * nc + op];
  }

  /** The producer op whose kernel {@code op} fuses into when both share a sub-model, or -1. */
  public int fuseInto(int op) {
    return fuseInto[op];
  }

  public boolean supported(int op, int device) {
    return supported[device * nc + op];
  }

  public int tensorCount() {
    return tensorProducer.length;
  }

  /** Producer op of tensor {@code t}, or -1 for a model input (in host memory). */
  public int tensorProducer(int t) {
    return tensorProducer[t];
  }

  public double tensorBytes(int t) {
    return tensorBytes[t];
  }

  public int tensorConsumerCount(int t) {
    return tensorConsumerStart[t + 1] - tensorConsumerStart[t];
  }

  /** The {@code k}-th consumer op of tensor {@code t} (one entry per consuming edge). */
  public int tensorConsumer(int t, int k) {
    return tensorConsumer[tensorConsumerStart[t] + k];
  }

  /** Number of model outputs (Results) tensor {@code t} feeds; such a tensor always leaves its device. */
  public int tensorResults(int t) {
    return tensorResults[t];
  }

  /** One boundary copy of {@code bytes} to or from {@code device}, µs. */
  public double copyMicros(int device, double bytes) {
    return linkLatency[device] + bytes * linkInvBandwidth[device];
  }

  public double subModelOverhead(int device) {
    return subModelOverhead[device];
  }

  public double requestOverhead() {
    return requestOverhead;
  }

  // ---- the evaluator ----

  /**
   * Runs one HETERO inference of a placement given as a model device per op, without noise.
   * Fails (not ok) on the first op its device cannot run.
   */
  public Evaluation evaluate(int[] deviceOfOp) {
    Evaluation failure = unsupported(deviceOfOp);
    return failure != null ? failure : evaluate(deviceOfOp, new int[nc], new int[devices.size()], null);
  }

  /** The failure of the first op its device cannot run, or null. */
  private Evaluation unsupported(int[] dc) {
    if (dc.length != nc) {
      throw new IllegalArgumentException("placement has " + dc.length + " ops but the model has " + nc);
    }
    for (int i = 0; i < nc; i++) {
      if (!supported[dc[i] * nc + i]) {
        return Evaluation.failure(i, dc[i]);
      }
    }
    return null;
  }

  /**
   * The simulator's hot path: {@link #evaluate} of a placement given per graph node
   * ({@code deviceMap[deviceOfNode[node]]} is the model device), mapping and checking support in one pass.
   */
  Evaluation evaluateNodes(int[] deviceOfNode, int[] deviceMap) {
    int[] dc = new int[nc];
    for (int i = 0; i < nc; i++) {
      dc[i] = deviceMap[deviceOfNode[node[i]]];
      if (!supported[dc[i] * nc + i]) {
        return Evaluation.failure(i, dc[i]);
      }
    }
    return evaluate(dc, new int[nc], new int[devices.size()], null);
  }

  /** A reusable evaluator (work arrays kept between calls; not thread-safe), for search loops. */
  public Evaluator evaluator() {
    return new Evaluator();
  }

  /**
   * The evaluator: split, kernels with fusion, overheads, copies ({@code subs}: zeroed per-device
   * counts; {@code stamp}: zeroed work array, or null for a fresh one).
   */
  private Evaluation evaluate(int[] dc, int[] parent, int[] subs, int[] stamp) {
    int subModels = split.split(dc, parent, subs);
    double total = requestOverhead;
    // Every sub-model pays its start, those without a kernel (a Result cut from its producer) included.
    for (int d = 0; d < subs.length; d++) {
      total += subs[d] * subModelOverhead[d];
    }
    for (int i = 0; i < nc; i++) {
      int r = parent[i];
      int f = fuseInto[i];
      total += f >= 0 && parent[f] == r ? fusedTime[dc[i] * nc + i] : time[dc[i] * nc + i];
    }
    // A fresh stamp array is allocated only now: allocating it before the split measurably slows the simulator.
    total += transfers(dc, parent, stamp != null ? stamp : new int[nc], null);
    return new Evaluation(true, total, subModels, -1, -1);
  }

  /**
   * The HETERO sub-model of every op under a placement: {@code root[i]} is the first op of op i's
   * sub-model. Same splitting as {@link #evaluate} ({@link HeteroSplit}); device support is not checked.
   *
   * @return the number of sub-models (those without a kernel included)
   */
  public int subModels(int[] deviceOfOp, int[] root) {
    if (deviceOfOp.length != nc) {
      throw new IllegalArgumentException("placement has " + deviceOfOp.length + " ops but the model has " + nc);
    }
    return split.split(deviceOfOp, root, null);
  }

  /**
   * Boundary copies through host memory: the producer's device copies a tensor out once if any
   * consumer sits in another sub-model (or it is a model output); each other consumer sub-model
   * copies it in once. Model inputs start in host memory. {@code byDevice}, when not null, gets
   * each device's share.
   */
  private double transfers(int[] dc, int[] root, int[] stamp, double[] byDevice) {
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
          double cost = linkLatency[d] + bytes * linkInvBandwidth[d];
          total += cost;
          if (byDevice != null) {
            byDevice[d] += cost;
          }
          crossed = true;
        }
      }
      if (p >= 0 && (crossed || tensorResults[t] > 0)) {
        int d = dc[p];
        double cost = linkLatency[d] + bytes * linkInvBandwidth[d];
        total += cost;
        if (byDevice != null) {
          byDevice[d] += cost;
        }
      }
    }
    return total;
  }

  /**
   * The outcome of one noise-free evaluation.
   *
   * @param ok whether every op's device can run it
   * @param micros latency in microseconds (NaN when failed)
   * @param subModels number of HETERO sub-models (0 when failed)
   * @param failedOp the first op its device cannot run, or -1
   * @param failedDevice that op's model device, or -1
   */
  public record Evaluation(boolean ok, double micros, int subModels, int failedOp, int failedDevice) {
    static Evaluation failure(int op, int device) {
      return new Evaluation(false, Double.NaN, 0, op, device);
    }
  }

  /** {@link #evaluate} with work arrays reused between calls. Not thread-safe. */
  public final class Evaluator {
    private final int[] parent = new int[nc];
    private final int[] subs = new int[devices.size()];
    private final int[] stamp = new int[nc];

    private Evaluator() {}

    public HeteroCostModel model() {
      return HeteroCostModel.this;
    }

    /** Same as {@link HeteroCostModel#evaluate(int[])}. */
    public Evaluation evaluate(int[] deviceOfOp) {
      Evaluation failure = unsupported(deviceOfOp);
      if (failure != null) {
        return failure;
      }
      Arrays.fill(subs, 0);
      Arrays.fill(stamp, 0);
      return HeteroCostModel.this.evaluate(deviceOfOp, parent, subs, stamp);
    }

    /** Latency in µs, or +infinity when a device cannot run its op. */
    public double micros(int[] deviceOfOp) {
      Evaluation e = evaluate(deviceOfOp);
      return e.ok() ? e.micros() : Double.POSITIVE_INFINITY;
    }

    /** The sub-model roots of the last successful {@link #evaluate} (read-only view; valid until the next call). */
    public int rootOf(int op) {
      return parent[op];
    }
  }

  /**
   * Collects a model op by op: ops in topological order (predecessors first), their times per
   * device, fusion, and boundary tensors. For tests and for sources that are not an {@link OpGraph}.
   */
  public static Builder builder(List<HeteroDevice> devices, double requestOverheadUs) {
    return new Builder(devices, requestOverheadUs);
  }

  /** See {@link HeteroCostModel#builder}. */
  public static final class Builder {
    private final List<HeteroDevice> devices;
    private final double requestOverhead;
    private final List<int[]> preds = new ArrayList<>();
    private final List<Integer> nodes = new ArrayList<>();
    private final List<double[]> times = new ArrayList<>();
    private final List<double[]> fused = new ArrayList<>();
    private final List<boolean[]> support = new ArrayList<>();
    private final List<Integer> fuse = new ArrayList<>();
    private final List<int[]> tensorConsumers = new ArrayList<>();
    private final List<double[]> tensorInfo = new ArrayList<>();

    private Builder(List<HeteroDevice> devices, double requestOverhead) {
      this.devices = List.copyOf(devices);
      this.requestOverhead = requestOverhead;
    }

    /**
     * Adds an op (graph node {@code node}) with stand-alone times per device ({@code micros[d]}),
     * supported on every device, not fusing. Returns its op index.
     */
    public int op(int node, double[] micros, int... predecessors) {
      int i = nodes.size();
      for (int p : predecessors) {
        if (p < 0 || p >= i) {
          throw new IllegalArgumentException("op " + i + ": predecessor " + p + " must be an earlier op");
        }
      }
      if (micros.length != devices.size()) {
        throw new IllegalArgumentException(
            "op " + i + ": " + micros.length + " times for " + devices.size() + " devices");
      }
      nodes.add(node);
      preds.add(predecessors.clone());
      times.add(micros.clone());
      fused.add(micros.clone());
      boolean[] s = new boolean[devices.size()];
      Arrays.fill(s, true);
      support.add(s);
      fuse.add(-1);
      return i;
    }

    /** Op {@code op} fuses into {@code producer} (one of its predecessors) with these fused times. */
    public Builder fuse(int op, int producer, double[] fusedMicros) {
      if (producer < 0 || producer >= op) {
        throw new IllegalArgumentException("op " + op + " can only fuse into an earlier op");
      }
      fuse.set(op, producer);
      fused.set(op, fusedMicros.clone());
      return this;
    }

    /** Device {@code device} cannot run op {@code op}. */
    public Builder unsupported(int op, int device) {
      support.get(op)[device] = false;
      return this;
    }

    /** A boundary tensor of {@code bytes} from {@code producer} (-1: a model input) to ops and Results. */
    public Builder tensor(int producer, double bytes, int results, int... consumers) {
      tensorConsumers.add(consumers.clone());
      tensorInfo.add(new double[] {producer, bytes, results});
      return this;
    }

    public HeteroCostModel build() {
      int nc = nodes.size();
      int devs = devices.size();
      int[] node = new int[nc];
      int[] predStart = new int[nc + 1];
      for (int i = 0; i < nc; i++) {
        node[i] = nodes.get(i);
        predStart[i + 1] = predStart[i] + preds.get(i).length;
      }
      int[] pred = new int[predStart[nc]];
      double[] t = new double[devs * nc];
      double[] f = new double[devs * nc];
      boolean[] s = new boolean[devs * nc];
      int[] fuseInto = new int[nc];
      for (int i = 0; i < nc; i++) {
        System.arraycopy(preds.get(i), 0, pred, predStart[i], preds.get(i).length);
        fuseInto[i] = fuse.get(i);
        for (int d = 0; d < devs; d++) {
          t[d * nc + i] = times.get(i)[d];
          f[d * nc + i] = fused.get(i)[d];
          s[d * nc + i] = support.get(i)[d];
        }
      }
      int tensors = tensorInfo.size();
      int[] producer = new int[tensors];
      double[] bytes = new double[tensors];
      int[] results = new int[tensors];
      int[] start = new int[tensors + 1];
      for (int k = 0; k < tensors; k++) {
        producer[k] = (int) tensorInfo.get(k)[0];
        bytes[k] = tensorInfo.get(k)[1];
        results[k] = (int) tensorInfo.get(k)[2];
        start[k + 1] = start[k] + tensorConsumers.get(k).length;
      }
      int[] consumers = new int[start[tensors]];
      for (int k = 0; k < tensors; k++) {
        System.arraycopy(tensorConsumers.get(k), 0, consumers, start[k], tensorConsumers.get(k).length);
      }
      int maxNode = -1;
      for (int v : node) {
        maxNode = Math.max(maxNode, v);
      }
      return new HeteroCostModel(devices, maxNode + 1, node, predStart, pred, t, f, fuseInto, s, producer, bytes, start,
          consumers, results, requestOverhead, HeteroSplit.ofOps(predStart, pred, producer, start, consumers, results));
    }
  }
}
