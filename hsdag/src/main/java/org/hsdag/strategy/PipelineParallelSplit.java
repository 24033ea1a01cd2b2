package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.hsdag.placement.DeviceKind;
import java.util.Map;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.memory.MemoryModel;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.Placement;

/**
 * An emulation of OpenVINO HETERO's {@code ov::hint::model_distribution_policy(PIPELINE_PARALLEL)}
 * split, as its source reads (openvinotoolkit/openvino, src/plugins/hetero/src/plugin.cpp at commit
 * 14dfc48386a16e4d7bcb1d46260be7e498d1d522, {@code get_device_memory_map} and
 * {@code query_model_update}; src/inference/src/dev/iplugin.cpp at 9e73aab1db9a4fe8d486d1671538bfc9da8487df,
 * {@code ov::get_supported_nodes} with {@code query_model_ratio}):
 *
 * <ul>
 *   <li>devices are queried in priority order on what earlier devices left; the CPU counts as having
 *       unlimited memory, a GPU has its {@code device_total_mem_size}, any other device no figure;
 *   <li>the last device is the fallback and takes all that is left (ratio 1); a CPU takes all it
 *       supports; a GPU whose memory holds 1.2 × the remaining constants' bytes takes all; otherwise,
 *       when the GPUs still to come hold 1.2 × them or a CPU is among the devices, it takes the ratio
 *       memory / (1.2 × bytes), else memory / (memory of the GPUs still to come); a device without a
 *       memory figure gets no ratio and takes all it supports;
 *   <li>with a ratio below 1 the device takes a prefix of the remaining model in topological order,
 *       cut at a constant where the running sum of constant bytes lies within 0.95–1.05 × ratio × bytes,
 *       the candidate cut with the fewest elements crossing it; when no constant falls in that window,
 *       the longest prefix below it (an approximation of the plugin's fallback).
 * </ul>
 *
 * It looks at memory only, never at speed. Constants, Parameters and Results then follow HETERO's
 * rules ({@link HeteroRules}).
 */
public final class PipelineParallelSplit {
  private static final double MODEL_FACTOR = 1.2;
  private static final double WINDOW_LOW = 0.95;
  private static final double WINDOW_HIGH = 1.05;

  private PipelineParallelSplit() {}

  /**
   * The memory figure each device would report to the split: a CPU unlimited, a GPU its capacity
   * when one is known, anything else none (-1).
   */
  public static long[] memoryFigures(List<DeviceKind> kinds, IntToLongFunction capacity) {
    long[] memory = new long[kinds.size()];
    for (int d = 0; d < memory.length; d++) {
      long cap = capacity.applyAsLong(d);
      DeviceKind kind = kinds.get(d);
      memory[d] = kind == DeviceKind.CPU ? Long.MAX_VALUE : kind.isGpu() && cap != Long.MAX_VALUE ? cap : -1;
    }
    return memory;
  }

  /**
   * The split of {@code graph} over {@code priority} (device indices of {@code devices}, highest
   * priority first).
   *
   * @param memoryBytes per device index: its memory figure, {@link Long#MAX_VALUE} for unlimited (a CPU), or
   *     -1 when the device reports none
   */
  public static Placement split(OpGraph graph, DeviceSet devices, SupportMatrix support, List<Integer> priority,
      long[] memoryBytes) {
    HeteroRules rules = new HeteroRules(graph);
    int n = graph.nodeCount();
    int[] device = new int[n];
    Arrays.fill(device, -1);
    long[] constBytesOf = new MemoryModel(graph).weightBytesByLeader();
    Map<Integer, Long> available = new LinkedHashMap<>();
    for (int d : priority) {
      if (memoryBytes[d] >= 0) {
        available.put(d, memoryBytes[d]);
      }
    }
    int[] topo = graph.topologicalOrder();
    for (int k = 0; k < priority.size(); k++) {
      int d = priority.get(k);
      boolean fallback = k == priority.size() - 1;
      double ratio = fallback || !available.containsKey(d) ? 1 : ratio(d, devices, available, remainingBytes(n, device,
          constBytesOf, rules));
      available.remove(d);
      List<Integer> ops = new ArrayList<>();
      for (int v : topo) {
        if (runs(graph, rules, v) && device[v] < 0 && (fallback || support.allowed(v, d))) {
          ops.add(v);
        }
      }
      int take = ratio >= 1 ? ops.size() : prefix(graph, ops, constBytesOf, ratio);
      for (int j = 0; j < take; j++) {
        device[ops.get(j)] = d;
      }
    }
    int last = priority.get(priority.size() - 1);
    for (int v = 0; v < n; v++) {
      if (device[v] < 0) {
        device[v] = last;
      }
    }
    return new Placement(devices, rules.resolve(device));
  }

  /** The ratio HETERO asks a memory-limited device for. */
  private static double ratio(int d, DeviceSet devices, Map<Integer, Long> available, long total) {
    long mem = available.get(d);
    boolean hasCpu = false;
    double otherMem = 0;
    for (Map.Entry<Integer, Long> e : available.entrySet()) {
      if (devices.name(e.getKey()).startsWith("CPU")) {
        hasCpu = true;
      } else {
        otherMem += e.getValue();
      }
    }
    if (mem >= MODEL_FACTOR * total || devices.name(d).startsWith("CPU") || total == 0) {
      return 1;
    }
    if (otherMem >= MODEL_FACTOR * total || hasCpu) {
      return total < mem ? 1 : mem / (MODEL_FACTOR * total);
    }
    return otherMem > 0 ? mem / otherMem : 1;
  }

  /**
   * How many of {@code ops} (remaining, in topological order) the device takes: up to the cut at a
   * constant whose running byte sum is within the window, fewest crossing elements first.
   */
  private static int prefix(OpGraph graph, List<Integer> ops, long[] constBytesOf, double ratio) {
    long total = 0;
    for (int v : ops) {
      total += constBytesOf[v];
    }
    double target = ratio * total;
    long sum = 0;
    int best = -1;
    long bestCrossing = Long.MAX_VALUE;
    int below = 0;
    for (int j = 0; j < ops.size(); j++) {
      long w = constBytesOf[ops.get(j)];
      sum += w;
      if (w == 0) {
        continue;
      }
      if (sum <= WINDOW_HIGH * target) {
        below = j + 1;
      }
      if (sum >= WINDOW_LOW * target && sum <= WINDOW_HIGH * target) {
        long crossing = crossing(graph, ops, j + 1);
        if (crossing < bestCrossing) {
          bestCrossing = crossing;
          best = j + 1;
        }
      }
    }
    return best >= 0 ? best : below;
  }

  /** Elements of the tensors the first {@code size} of {@code ops} pass to later nodes. */
  private static long crossing(OpGraph graph, List<Integer> ops, int size) {
    boolean[] in = new boolean[graph.nodeCount()];
    for (int j = 0; j < size; j++) {
      in[ops.get(j)] = true;
    }
    long elements = 0;
    for (int j = 0; j < size; j++) {
      int v = ops.get(j);
      for (int c : graph.successors(v)) {
        if (!in[c] && !graph.node(c).isResult() && !graph.node(c).isConstant()) {
          elements += graph.node(v).outputs().get(0).elementCount();
          break;
        }
      }
    }
    return elements;
  }

  private static boolean runs(OpGraph graph, HeteroRules rules, int v) {
    OpNode node = graph.node(v);
    return !rules.isConstantOnly(v) && !node.isParameter() && !node.isResult();
  }

  private static long remainingBytes(int n, int[] device, long[] constBytesOf, HeteroRules rules) {
    long total = 0;
    for (int v = 0; v < n; v++) {
      if (device[v] < 0 && rules.leader(v) < 0) {
        total += constBytesOf[v];
      }
    }
    return total;
  }
}
