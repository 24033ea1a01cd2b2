package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.ir.OpGraph;

/**
 * The additive cost tables of one graph's HETERO execution, and the one evaluator that runs a
 * placement on them ({@link #evaluate}, run by {@link PlacementLatency}). Immutable; the simulator
 * measures with it and the planner uses it as its exact proxy.
 *
 * <p>The tables cover the <em>ops</em>: the graph's kernels (compute nodes), in topological order,
 * op {@code i} being graph node {@link #node(int)}. Per op and device: the stand-alone kernel time,
 * the time when fused into the producer op {@link #fuseInto(int)} (only when both share a
 * sub-model), and whether the device runs it. Per boundary tensor (a producer output feeding an
 * op or a Result): its producer op (-1 for a model input, which starts in host memory), its bytes,
 * its consumer ops and the number of Results it feeds. Per device: link latency, inverse link
 * bandwidth, sub-model start cost and the factor on its kernels when it runs the model alone
 * ({@link HeteroDevice}); per request: a fixed overhead.
 *
 * <p>The evaluator applies HETERO's rules: sub-models split as OpenVINO's HETERO plugin splits them
 * ({@link HeteroSplit}, over every node of the model), run one after another; fusion only inside a sub-model; a boundary tensor leaves its
 * producer's device once and enters each other consumer sub-model once.
 *
 * <p>Built from a graph by {@link #forGraph} (times from any {@link KernelTimes}: a sim profile or
 * measured per-op times), or op by op with a {@link HeteroCostModelBuilder}.
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
  private final double requestOverhead;
  /** The evaluator, over these tables. */
  private final PlacementLatency latency;

  /** Takes ownership of the arrays (callers pass fresh ones). */
  HeteroCostModel(List<HeteroDevice> devices, int nodeCount, int[] node, int[] predStart, int[] pred,
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
    if (split.opCount() != nc) {
      throw new IllegalArgumentException("the split covers " + split.opCount() + " ops, the model " + nc);
    }
    this.split = split;
    CostTableChecks.checkOps(nc, predStart, pred, fuseInto);
    CostTableChecks.checkTensors(nc, tensorProducer, tensorBytes, tensorConsumer);
    CostTableChecks.checkTimes(nc, this.devices, time, fusedTime);
    latency = new PlacementLatency(this.devices, node, time, fusedTime, fuseInto, supported, tensorProducer,
        tensorBytes, tensorConsumerStart, tensorConsumer, tensorResults, requestOverhead, split);
  }

  /**
   * The model of {@code graph}: kernels are the nodes whose {@code costs} entry is a compute class
   * (see {@link CostModel#costs}: folded constants, Parameters and Results are not kernels), tensor
   * bytes from their IR shapes under {@code shapes}, times from {@code times}, one entry of
   * {@code devices} per model device.
   */
  public static HeteroCostModel forGraph(OpGraph g, OpCost[] costs, ShapeAssumption shapes,
      List<HeteroDevice> devices, double requestOverheadUs, KernelTimes times) {
    return GraphCostTables.build(g, costs, shapes, devices, requestOverheadUs, times);
  }

  /** The model of {@code graph} on a sim profile's devices, in profile order. */
  public static HeteroCostModel forProfile(OpGraph g, DeviceProfile profile, CostModel costModel) {
    return forProfile(g, costModel.costs(g), profile, costModel.shapes());
  }

  static HeteroCostModel forProfile(OpGraph g, OpCost[] costs, DeviceProfile profile, ShapeAssumption shapes) {
    return forGraph(g, costs, shapes, HeteroDevice.of(profile), profile.requestOverheadUs(),
        KernelTimes.ofProfile(g, profile, shapes));
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
    return copy(sub, t, f, s, requestOverhead, split);
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
              dev.subModelOverheadUs() * subModelScale[k], dev.aloneScale(), dev.throughputGain()));
    }
    return copy(scaled, t, f, supported.clone(), requestOverhead, split);
  }

  /**
   * The same kernels with other device costs (same names and order) and request overhead ({@link HeteroFit}); a
   * cost without a gain from requests in flight keeps this model's (a fit of latencies does not measure it).
   */
  public HeteroCostModel withDeviceCosts(List<HeteroDevice> costs, double requestOverheadUs) {
    if (!costs.stream().map(HeteroDevice::name).toList().equals(deviceNames())) {
      throw new IllegalArgumentException("expected the costs of devices " + deviceNames());
    }
    List<HeteroDevice> kept = new ArrayList<>();
    for (int k = 0; k < costs.size(); k++) {
      HeteroDevice c = costs.get(k);
      kept.add(c.throughputGain().isEmpty() ? c.withThroughputGain(devices.get(k).throughputGain()) : c);
    }
    return copy(kept, time.clone(), fusedTime.clone(), supported.clone(), requestOverheadUs, split);
  }

  /**
   * This model's ops and tensors (fresh copies of their tables) with the given devices, per-device
   * tables ({@code [device * opCount() + i]}, owned by the copy), request overhead and split.
   */
  private HeteroCostModel copy(List<HeteroDevice> onDevices, double[] kernelTimes, double[] fusedTimes,
      boolean[] support, double requestOverheadUs, HeteroSplit subModelSplit) {
    return new HeteroCostModel(onDevices, nodeCount, node.clone(), predStart.clone(), pred.clone(), kernelTimes,
        fusedTimes, fuseInto.clone(), support, tensorProducer.clone(), tensorBytes.clone(), tensorConsumerStart.clone(),
        tensorConsumer.clone(), tensorResults.clone(), requestOverheadUs, subModelSplit);
  }

  /** The {@link CostTerms} of a placement given as a model device per op (support is not checked). */
  public CostTerms terms(int[] dc) {
    return latency.terms(dc);
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
    return latency.copyMicros(device, bytes);
  }

  public double subModelOverhead(int device) {
    return latency.subModelOverhead(device);
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
    Evaluation failure = latency.unsupported(deviceOfOp);
    return failure != null ? failure : latency.evaluate(deviceOfOp, new int[nc], new int[devices.size()], null);
  }

  /**
   * The simulator's hot path: {@link #evaluate} of a placement given per graph node
   * ({@code deviceMap[deviceOfNode[node]]} is the model device), mapping and checking support in one pass.
   */
  Evaluation evaluateNodes(int[] deviceOfNode, int[] deviceMap) {
    return latency.ofNodes(deviceOfNode, deviceMap);
  }

  /** A reusable evaluator (work arrays kept between calls; not thread-safe), for search loops. */
  public Evaluator evaluator() {
    return new Evaluator();
  }

  /** Split lookups answered from the memo so far and those computed (shared by the models derived from this one). */
  long[] splitMemoHitsAndMisses() {
    return split.memoHitsAndMisses();
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
   * The outcome of one noise-free evaluation.
   *
   * @param ok whether every op's device can run it
   * @param micros latency in microseconds (NaN when failed)
   * @param subModels number of HETERO sub-models (0 when failed)
   * @param failedOp the first op its device cannot run, or -1
   * @param failedDevice that op's model device, or -1
   */
  public record Evaluation(boolean ok, double micros, int subModels, int failedOp, int failedDevice) {
    /** {@code failedDevice} of a placement HETERO refuses (see {@link HeteroCostModel#refusedBoundary}). */
    public static final int REFUSED = -2;

    static Evaluation failure(int op, int device) {
      return new Evaluation(false, Double.NaN, 0, op, device);
    }

    static Evaluation refused() {
      return new Evaluation(false, Double.NaN, 0, -1, REFUSED);
    }

    /** True when HETERO refuses the split. */
    public boolean isRefused() {
      return failedDevice == REFUSED;
    }
  }

  /**
   * This model with {@code oracle} (the runtime's shape inference) judging which splits HETERO
   * refuses, instead of hsdag's rules; costs unchanged. The evaluator, the planners and {@link
   * #refusedBoundary} then all ask it.
   */
  public HeteroCostModel withBoundaryOracle(BoundaryOracle oracle) {
    return copy(devices, time.clone(), fusedTime.clone(), supported.clone(), requestOverhead, split.withOracle(oracle));
  }

  /** Who judges refusals: the runtime's shape inference, or {@link BoundaryOracle#RULES}. */
  public String refusalSource() {
    return split.refusalSource();
  }

  /** The sub-models the boundary oracle counts for a placement, or -1 without one (compare {@link #subModels}). */
  public int oracleSubModels(int[] deviceOfOp) {
    return split.oracleSubModels(deviceOfOp);
  }

  /** Why HETERO refuses a placement (a device per op) of {@code graph}, this model's graph, or empty. */
  public java.util.Optional<String> refusalReason(org.hsdag.ir.OpGraph graph, int[] deviceOfOp) {
    if (deviceOfOp.length != nc) {
      throw new IllegalArgumentException("placement has " + deviceOfOp.length + " ops but the model has " + nc);
    }
    HeteroSplit.Refused r = split.refusal(deviceOfOp);
    return r == null ? java.util.Optional.empty()
        : java.util.Optional.of(HeteroRefusal.reason(graph, r.producer(), r.consumer(), r.source(), r.shape()));
  }

  /** Graph nodes {producer, consumer} of the boundary HETERO refuses under a device per op, or null (docs/hetero-rules.md). */
  public int[] refusedBoundary(int[] deviceOfOp) {
    if (deviceOfOp.length != nc) {
      throw new IllegalArgumentException("placement has " + deviceOfOp.length + " ops but the model has " + nc);
    }
    return split.refusedBoundary(deviceOfOp);
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
      Evaluation failure = latency.unsupported(deviceOfOp);
      if (failure != null) {
        return failure;
      }
      Arrays.fill(subs, 0);
      Arrays.fill(stamp, 0);
      return latency.evaluate(deviceOfOp, parent, subs, stamp);
    }

    /** Latency in µs, or +infinity when a device cannot run its op. */
    public double micros(int[] deviceOfOp) {
      Evaluation e = evaluate(deviceOfOp);
      return e.ok() ? e.micros() : Double.POSITIVE_INFINITY;
    }
  }

  /**
   * Collects a model op by op: ops in topological order (predecessors first), their times per
   * device, fusion, and boundary tensors. For tests and for sources that are not an {@link OpGraph}.
   */
  public static HeteroCostModelBuilder builder(List<HeteroDevice> devices, double requestOverheadUs) {
    return new HeteroCostModelBuilder(devices, requestOverheadUs);
  }
}
