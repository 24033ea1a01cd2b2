package org.hsdag.plan;

import org.hsdag.memory.MemoryCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.hsdag.backend.CostModelSource;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.HeteroCostModel;

/**
 * A graph's {@link HeteroCostModel} on the devices of a search, seen through placements: the
 * planner's exact proxy. Converts between a {@link Placement} of the graph and a device per op
 * (constants, Parameters and Results follow their neighbours as {@link HeteroAffinity} resolves
 * them), evaluates placements, and offers the co-location groups the local search moves as one.
 * Immutable; evaluations allocate their own work arrays, so it is thread-safe.
 */
public final class PlacementProxy implements LatencyModel {
  private final OpGraph graph;
  private final DeviceSet devices;
  private final HeteroCostModel model;
  private final HeteroAffinity affinity;
  private final MemoryCheck memory;
  /** Requests in flight when the proxy's figure is the time per inference (throughput objective); 0: latency. */
  private final int throughputRequests;
  /** Shared by every {@link CostCorrection} of this proxy: what they would each compute alike. */
  final CorrectionMemo correctionMemo = new CorrectionMemo();

  private PlacementProxy(OpGraph graph, DeviceSet devices, HeteroCostModel model) {
    this(graph, devices, model, null, 0);
  }

  private PlacementProxy(OpGraph graph, DeviceSet devices, HeteroCostModel model, MemoryCheck memory,
      int throughputRequests) {
    this.graph = graph;
    this.devices = devices;
    this.model = model;
    this.memory = memory;
    this.throughputRequests = throughputRequests;
    if (model.nodeCount() != graph.nodeCount()) {
      throw new IllegalArgumentException("the cost model has " + model.nodeCount() + " nodes, the graph "
          + graph.nodeCount());
    }
    affinity = new HeteroAffinity(graph);
  }

  /**
   * The proxy of {@code graph} given its cost model on any superset of {@code devices}; the model is
   * restricted to {@code devices}, in their order (model device k = device set index k).
   *
   * @throws IllegalArgumentException when a device is not in the model
   */
  public static PlacementProxy of(OpGraph graph, HeteroCostModel model, DeviceSet devices) {
    Objects.requireNonNull(graph, "graph");
    return new PlacementProxy(graph, devices, model.withDevices(devices.names()));
  }

  /** A backend's own cost model as the proxy; the simulator's equals its (noise-free) target. */
  public static PlacementProxy ofSim(CostModelSource sim, OpGraph graph, DeviceSet devices) {
    return of(graph, sim.costModel(graph), devices);
  }

  public OpGraph graph() {
    return graph;
  }

  /** This proxy with device capacities the planner must respect (null: none). */
  public PlacementProxy withMemory(MemoryCheck check) {
    if (check != null && !check.devices().equals(devices)) {
      throw new IllegalArgumentException("memory check on " + check.devices() + ", proxy on " + devices);
    }
    return new PlacementProxy(graph, devices, model, check, throughputRequests);
  }

  /** The capacities the planner respects, when there are any. */
  @Override
  public java.util.Optional<MemoryCheck> memory() {
    return java.util.Optional.ofNullable(memory).filter(MemoryCheck::limitsAny);
  }

  public DeviceSet devices() {
    return devices;
  }

  /** The cost model on the search's devices (model device k is {@code devices().name(k)}). */
  public HeteroCostModel model() {
    return model;
  }

  /** The device of every op under a placement of the graph. */
  public int[] opDevices(Placement placement) {
    if (placement.size() != graph.nodeCount()) {
      throw new IllegalArgumentException(
          "placement has " + placement.size() + " nodes, the graph " + graph.nodeCount());
    }
    int[] dc = new int[model.opCount()];
    for (int i = 0; i < dc.length; i++) {
      dc[i] = devices.indexOf(placement.devices().name(placement.deviceOf(model.node(i))));
      if (dc[i] < 0) {
        throw new IllegalArgumentException("placement uses device " + placement.deviceName(model.node(i))
            + ", not one of " + devices);
      }
    }
    return dc;
  }

  /**
   * The placement of the graph with op i on device {@code opDevices[i]}; every other node follows
   * its neighbours ({@link HeteroAffinity}), a node without any on the first op's device.
   */
  public Placement placement(int[] opDevices) {
    if (opDevices.length != model.opCount()) {
      throw new IllegalArgumentException("expected a device for each of " + model.opCount() + " ops");
    }
    int[] device = new int[graph.nodeCount()];
    Arrays.fill(device, opDevices.length == 0 ? 0 : opDevices[0]);
    for (int i = 0; i < opDevices.length; i++) {
      device[model.node(i)] = opDevices[i];
    }
    return affinity.resolvedPlacement(new Placement(devices, device));
  }

  /**
   * The same proxy whose figure is the time per inference with {@code requests} in flight
   * ({@link ThroughputProxy}): what the planner and the search minimise under the throughput objective.
   */
  public PlacementProxy forThroughput(int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("requests in flight must be at least 1 (got " + requests + ")");
    }
    return new PlacementProxy(graph, devices, model, memory, requests);
  }

  /** Requests in flight of a throughput proxy, 0 for a latency proxy. */
  public int throughputRequests() {
    return throughputRequests;
  }

  /** This proxy's objective on another cost model of the same graph and devices (e.g. a corrected one). */
  public PlacementProxy withModel(HeteroCostModel other) {
    return new PlacementProxy(graph, devices, other, memory, throughputRequests);
  }

  /** Exact proxy evaluation of a placement (under the throughput objective, micros is the time per inference). */
  public HeteroCostModel.Evaluation evaluate(Placement placement) {
    return evaluate(opDevices(placement));
  }

  /** {@link #evaluate(Placement)} of a device per op. */
  public HeteroCostModel.Evaluation evaluate(int[] opDevices) {
    HeteroCostModel.Evaluation e = model.evaluate(opDevices);
    return throughputRequests == 0 || !e.ok() ? e : ThroughputProxy.evaluation(model, opDevices, throughputRequests, e);
  }

  /** A fixed cost model: measurements change nothing (see {@link CostCorrection} for one that learns from them). */
  @Override
  public void observe(Placement placement, double measuredMillis) {}

  @Override
  public double predictMillis(Placement placement) {
    return latencyMicros(placement) / 1000.0;
  }

  /** A fresh {@link CostCorrection} of this cost model. */
  @Override
  public java.util.Optional<LatencyModel> correction() {
    return java.util.Optional.of(new CostCorrection(this));
  }

  /** The split the cost model's HETERO rules refuse in {@code placement} (on this proxy's devices), as a reason. */
  @Override
  public java.util.Optional<String> predictedRefusal(Placement placement) {
    if (!devices.equals(placement.devices())) {
      return java.util.Optional.empty();
    }
    return model.refusalReason(graph, opDevices(placement));
  }

  /** Proxy latency of a placement in µs; +∞ when a device cannot run one of its ops. */
  public double latencyMicros(Placement placement) {
    HeteroCostModel.Evaluation e = evaluate(placement);
    return e.ok() ? e.micros() : Double.POSITIVE_INFINITY;
  }

  /**
   * Co-location groups of ops with at least two ops: the {@code hsdag} rule (an op joins its single
   * producer) and the {@code mirhoseini} rule (an op joins its single consumer) of {@link
   * ColocationCoarsener}, restricted to ops.
   */
  public int[][] colocationGroups() {
    List<int[]> out = new ArrayList<>();
    for (CoarseningMode mode : List.of(CoarseningMode.HSDAG, CoarseningMode.MIRHOSEINI)) {
      Coarsening c = new ColocationCoarsener(mode).coarsen(graph);
      int[] size = new int[c.clusterCount()];
      for (int i = 0; i < model.opCount(); i++) {
        size[c.clusterOf(model.node(i))]++;
      }
      int[][] groups = new int[c.clusterCount()][];
      int[] fill = new int[c.clusterCount()];
      for (int i = 0; i < model.opCount(); i++) {
        int k = c.clusterOf(model.node(i));
        if (groups[k] == null) {
          groups[k] = new int[size[k]];
        }
        groups[k][fill[k]++] = i;
      }
      for (int[] g : groups) {
        if (g != null && g.length >= 2) {
          out.add(g);
        }
      }
    }
    return out.toArray(new int[0][]);
  }
}
