package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.hsdag.backend.Measurement;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroFit;
import org.hsdag.cost.HeteroSplitDesign;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;

/**
 * Measures a model as HETERO runs it, for a cost model that predicts real splits.
 *
 * <p><b>Kernels.</b> A device does not run alike alone and inside a split: on a CPU twin registered
 * as a second device, the twin's thread count holds when it runs the whole model but not inside a
 * HETERO request that also has a {@code CPU} sub-model (shared notes/openvino.md item 9, runs on
 * OpenVINO 2026.4.1). So each device is profiled inside a HETERO compile: the whole model on that
 * device but its last op on another device ({@link HeteroSplitDesign#withTail}), per-layer records
 * of the device's sub-model ({@code "subgraph<i>: "} prefixes split off, the other device's records
 * dropped), fused kernels credited to their first original layer ({@link OpCostTable}).
 *
 * <p><b>Starts and copies.</b> Then the placements of {@link HeteroSplitDesign} (each device alone,
 * the profiling placements, contiguous splits with 1, 2 and 4 boundaries in both directions) are
 * measured, and {@link HeteroFit} fits per-device kernel scale, sub-model start and boundary-copy
 * costs to them.
 */
public final class HeteroProfiling {
  private HeteroProfiling() {}

  /**
   * Per-node kernel time on each device, µs ({@code [device][node]}), profiled inside HETERO.
   *
   * @param skeleton the graph's cost model on {@code devices} (for its ops and support; its times are not read)
   * @throws OpenVinoException when a device cannot compile or run its profiling placement
   */
  public static double[][] kernels(OpenVinoRuntime.Model m, OpGraph graph, HeteroCostModel skeleton,
      List<String> devices, long seed, Path cacheDir, int runs) {
    Set<String> opNames = new HashSet<>(m.opNames());
    double[][] micros = new double[devices.size()][graph.nodeCount()];
    for (int d = 0; d < devices.size(); d++) {
      OpCostTable table;
      if (devices.size() == 1) {
        m.clearAffinities();
        table = profiled(m, devices.get(d), devices.get(d), seed, cacheDir, runs, opNames, null);
      } else {
        int[] dc = HeteroSplitDesign.withTail(skeleton, d);
        Placement p = placement(graph, skeleton, dc, DeviceSet.of(devices.toArray(String[]::new)));
        applyAffinities(m, graph, p);
        Set<String> foreign = new HashSet<>();
        for (int v = 0; v < graph.nodeCount(); v++) {
          if (p.deviceOf(v) != d) {
            foreign.add(graph.node(v).name());
          }
        }
        // The profiled device first: HETERO's priorities do not matter with every affinity set, the name says what ran.
        List<String> order = new ArrayList<>(devices);
        order.remove(d);
        order.add(0, devices.get(d));
        table = profiled(m, devices.get(d), "HETERO:" + String.join(",", order), seed, cacheDir, runs, opNames,
            foreign);
        m.clearAffinities();
      }
      for (int v = 0; v < graph.nodeCount(); v++) {
        micros[d][v] = 1000.0 * table.millisByOp().getOrDefault(graph.node(v).name(), 0.0);
      }
    }
    return micros;
  }

  /** The profile of one compile on {@code target}; records of nodes in {@code foreign} (another device's) dropped. */
  private static OpCostTable profiled(OpenVinoRuntime.Model m, String device, String target, long seed, Path cacheDir,
      int runs, Set<String> opNames, Set<String> foreign) {
    try (OpenVinoRuntime.Compiled c = m.compile(target, cacheDir, true)) {
      c.fillInputs(seed);
      c.inferTimed(1, runs);
      List<ProfilingRecord> records = new ArrayList<>();
      for (ProfilingRecord r : c.profile()) {
        if (foreign == null || !foreign.contains(r.nodeName())) {
          records.add(r);
        }
      }
      List<ExecutedNode> executed;
      try {
        executed = c.executedNodes();
      } catch (OpenVinoException | UnsupportedOperationException e) {
        executed = List.of(); // each record then names its own kernel
      }
      return OpCostTable.of(device, records, executed, opNames);
    }
  }

  /**
   * Measures {@link HeteroSplitDesign#placements} of {@code model} (failed ones are left out) and fits
   * HETERO's costs to them.
   *
   * @param measure measures one placement (the backend's own measurement path)
   * @throws IllegalStateException when no designed placement could be measured
   */
  public static HeteroFit.Result fitCosts(OpGraph graph, HeteroCostModel model, DeviceSet devices,
      Function<Placement, Measurement> measure) {
    List<HeteroFit.Observation> obs = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (HeteroSplitDesign.Designed p : HeteroSplitDesign.placements(model)) {
      Measurement meas = measure.apply(placement(graph, model, p.deviceOfOp(), devices));
      if (meas.ok()) {
        obs.add(new HeteroFit.Observation(p.label(), p.deviceOfOp(), meas.latencyMillis() * 1000.0));
      } else {
        failed.add(p.label() + ": " + meas.reason());
      }
    }
    if (obs.isEmpty()) {
      throw new IllegalStateException("no designed placement ran (" + String.join("; ", failed) + ")");
    }
    return HeteroFit.fit(model, obs);
  }

  /** The node placement of a placement of {@code model}'s ops (other nodes follow HETERO's rules). */
  public static Placement placement(OpGraph graph, HeteroCostModel model, int[] deviceOfOp, DeviceSet devices) {
    int[] device = new int[graph.nodeCount()];
    Arrays.fill(device, deviceOfOp.length == 0 ? 0 : deviceOfOp[0]);
    for (int i = 0; i < deviceOfOp.length; i++) {
      device[model.node(i)] = deviceOfOp[i];
    }
    return new HeteroAffinity(graph).resolvedPlacement(new Placement(devices, device));
  }

  private static void applyAffinities(OpenVinoRuntime.Model m, OpGraph graph, Placement p) {
    Map<String, String> names = new HashMap<>(new HeteroAffinity(graph).nameMap(p));
    HeteroAffinity.ModelFit fit = HeteroAffinity.fitToModel(names, m.opNames());
    if (!fit.problems().isEmpty()) {
      throw new OpenVinoException(String.join("; ", fit.problems()));
    }
    m.setAffinities(fit.affinities());
  }
}
