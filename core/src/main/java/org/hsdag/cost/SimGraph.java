package org.hsdag.cost;

import java.util.Arrays;
import java.util.SortedMap;
import org.hsdag.ir.OpGraph;

/**
 * Everything about one graph on one profile that does not depend on the placement: the
 * {@link HeteroCostModel} of the graph on the profile's devices (built once, so that
 * {@link #evaluate} is a few linear passes) and the per-node costs.
 *
 * <p>HETERO rules applied here: Const layers and everything computed only from constants (the
 * FP16 decompression {@code Convert} chain included) are folded into their consumers and run on
 * the consumer's device at no cost, whatever device a placement names for them; Parameters and
 * Results follow their neighbours (they cost only the host copy of the model's inputs and outputs
 * on a device with a link) ({@link org.hsdag.placement.HeteroRules}). Only the remaining "compute"
 * nodes (the model's ops) have kernel costs; the sub-model split ({@link HeteroSplit}) sees every
 * node, as OpenVINO's does.
 */
public final class SimGraph {
  private final int[] computeIndex;
  private final OpCost[] costs;
  private final DeviceProfile profile;
  private final HeteroCostModel model;
  private final OpGraph graph;

  private SimGraph(OpGraph g, DeviceProfile profile, CostModel costModel) {
    this.graph = g;
    this.profile = profile;
    costs = costModel.costs(g);
    model = HeteroCostModel.forProfile(g, costs, profile, costModel.shapes());
    computeIndex = new int[g.nodeCount()];
    Arrays.fill(computeIndex, -1);
    for (int i = 0; i < model.opCount(); i++) {
      computeIndex[model.node(i)] = i;
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

  /** The additive cost tables and HETERO evaluator this simulation runs on (devices in profile order). */
  public HeteroCostModel costModel() {
    return model;
  }

  /** Number of nodes that run as kernels (not folded, not Parameter/Result). */
  public int computeNodeCount() {
    return model.opCount();
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
    return CostModel.unknownOpTypes(graph);
  }

  /** Whether node {@code v} is a kernel (false for constants, folded ops, Parameters, Results). */
  public boolean isCompute(int v) {
    return computeIndex[v] >= 0;
  }

  /** The cost model's op index of node {@code v}, or -1 when it is not a kernel. */
  public int opOf(int v) {
    return computeIndex[v];
  }

  /** Whether profile device {@code device} can run node {@code v} (always true for non-kernels). */
  public boolean canRun(int v, int device) {
    int i = computeIndex[v];
    return i < 0 || model.supported(i, device);
  }

  /** Stand-alone kernel time of node {@code v} on profile device {@code device}, µs (0 for non-kernels). */
  public double kernelMicros(int v, int device) {
    int i = computeIndex[v];
    return i < 0 ? 0 : model.micros(i, device);
  }

  /**
   * Simulates one HETERO inference of the placement {@code deviceOf} (per node, an index into
   * {@code deviceMap}, which maps it to a profile device index), without noise.
   */
  public Evaluation evaluate(int[] deviceOf, int[] deviceMap) {
    HeteroCostModel.Evaluation ev = model.evaluateNodes(deviceOf, deviceMap);
    if (ev.isRefused()) {
      return new Evaluation(false, Double.NaN, 0, -1, HeteroCostModel.Evaluation.REFUSED);
    }
    return ev.ok() ? new Evaluation(true, ev.micros(), ev.subModels(), -1, -1)
        : Evaluation.failure(model.node(ev.failedOp()), ev.failedDevice());
  }

  /**
   * Why HETERO refuses a placement (per node, {@code deviceMap} as in {@link #evaluate}): the
   * refused boundary in one line, or empty when the runtime takes the split (devices' op support
   * not checked).
   */
  public java.util.Optional<String> refusal(int[] deviceOf, int[] deviceMap) {
    return model.refusalReason(graph, opDevices(deviceOf, deviceMap));
  }

  /**
   * The HETERO sub-model of every node under a placement: for a kernel, the node index of its
   * sub-model's first kernel; -1 for nodes that are not kernels (constants, folded ops, Parameters,
   * Results follow their neighbours). Same splitting as {@link #evaluate}; device support is not checked.
   */
  public int[] subModelOf(int[] deviceOf, int[] deviceMap) {
    int nc = model.opCount();
    int[] parent = new int[nc];
    model.subModels(opDevices(deviceOf, deviceMap), parent);
    int[] out = new int[computeIndex.length];
    Arrays.fill(out, -1);
    for (int i = 0; i < nc; i++) {
      out[model.node(i)] = model.node(parent[i]);
    }
    return out;
  }

  /** The profile device of every op (the cost model's op order) under a per-node placement. */
  public int[] opDevices(int[] deviceOf, int[] deviceMap) {
    int nc = model.opCount();
    int[] dc = new int[nc];
    for (int i = 0; i < nc; i++) {
      dc[i] = deviceMap[deviceOf[model.node(i)]];
    }
    return dc;
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
    /** True when every device can run its ops but HETERO refuses the split ({@link SimGraph#refusal}). */
    public boolean isRefused() {
      return failedDevice == HeteroCostModel.Evaluation.REFUSED;
    }

    static Evaluation failure(int node, int device) {
      return new Evaluation(false, Double.NaN, 0, node, device);
    }
  }
}
