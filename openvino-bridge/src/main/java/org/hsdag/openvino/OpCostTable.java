package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Per-op kernel time on one device, from the profiling records of a single-device run: what the
 * planner's cost model needs from real hardware. A device executes primitives, not the model's ops:
 * each profiling record names an executed node, and the runtime model says which original layers
 * were fused into it ({@link ExecutedNode}). The record's time goes to the first of those layers
 * that is an op of the model (the kernel the others were fused into) and the others cost 0 there,
 * as the cost model treats a fused op; records no op claims (reorders, converts the plugin
 * inserted) are summed apart.
 *
 * @param device the device the run used
 * @param millisByOp time per op friendly name (ops the records never mention are absent)
 * @param unattributedMillis time of executed records that map to no op of the model
 */
public record OpCostTable(String device, Map<String, Double> millisByOp, double unattributedMillis) {
  public OpCostTable {
    Objects.requireNonNull(device, "device");
    millisByOp = Map.copyOf(millisByOp);
  }

  /**
   * The table of one run.
   *
   * @param records the profiling records of an inference compiled with profiling on {@code device}
   * @param executed the compiled model's executed nodes (empty: each record is its own op)
   * @param opNames the friendly names of the model's ops
   */
  public static OpCostTable of(String device, List<ProfilingRecord> records, List<ExecutedNode> executed,
      Set<String> opNames) {
    Map<String, List<String>> fusedInto = new HashMap<>();
    for (ExecutedNode e : executed) {
      fusedInto.put(e.name(), e.originalNames());
    }
    Map<String, Double> byOp = new LinkedHashMap<>();
    double unattributed = 0;
    for (ProfilingRecord r : records) {
      if (!r.executed()) {
        continue;
      }
      List<String> originals = fusedInto.getOrDefault(r.nodeName(), List.of());
      if (originals.isEmpty()) {
        originals = List.of(r.nodeName());
      }
      String kernel = null;
      for (String name : originals) {
        if (opNames.contains(name)) {
          if (kernel == null) {
            kernel = name;
            byOp.merge(name, r.realTimeMillis(), Double::sum);
          } else {
            byOp.putIfAbsent(name, 0.0);
          }
        }
      }
      if (kernel == null) {
        unattributed += r.realTimeMillis();
      }
    }
    return new OpCostTable(device, byOp, unattributed);
  }

  /**
   * Per op, the median of its time over several profiled inferences of one compile (the tables of one
   * device): a record a load burst or a cold cache inflated is one sample among several, not the
   * figure. An op some tables do not name takes the median of those that do.
   *
   * @throws IllegalArgumentException when there is no table, or the tables are of different devices
   */
  public static OpCostTable median(List<OpCostTable> tables) {
    if (tables.isEmpty() || tables.stream().anyMatch(t -> !t.device().equals(tables.get(0).device()))) {
      throw new IllegalArgumentException("per-op median: tables of one device expected");
    }
    Map<String, List<Double>> samples = new LinkedHashMap<>();
    List<Double> rest = new ArrayList<>();
    for (OpCostTable t : tables) {
      t.millisByOp().forEach((op, ms) -> samples.computeIfAbsent(op, k -> new ArrayList<>()).add(ms));
      rest.add(t.unattributedMillis());
    }
    Map<String, Double> byOp = new LinkedHashMap<>();
    samples.forEach((op, ms) -> byOp.put(op, medianOf(ms)));
    return new OpCostTable(tables.get(0).device(), byOp, medianOf(rest));
  }

  private static double medianOf(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
