package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import java.util.HashSet;
import java.util.Set;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.cost.HeteroSplitDesign;
import org.hsdag.cost.KernelTimes;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.SimGraph;

/**
 * Measures {@link CalibrationRecords} on a real machine ({@code hsdag calibrate}): per device, the
 * median wall latency without profiling and per-layer records, the median over several profiled
 * inferences; then, per non-CPU device, a few HETERO runs splitting the model between CPU and
 * that device, for the link cost.
 *
 * @param runs timed inferences for each wall latency (after 3 warm-up runs)
 * @param profiledRuns profiled inferences per device (per layer, their median)
 * @param splits split points per non-CPU device (evenly spaced over the kernels)
 * @param seed input data seed
 * @param inputShapes static shapes for dynamic inputs, by input name
 * @param maxRequests each device alone is also measured with 1 … this many requests in flight under the
 *     throughput hint ({@link CalibrationThroughput}); 0: not
 */
public record CalibrationRun(int runs, int profiledRuns, int splits, long seed, Map<String, long[]> inputShapes,
    int maxRequests) {
  public CalibrationRun {
    if (runs < 1 || profiledRuns < 1 || splits < 0 || maxRequests < 0) {
      throw new IllegalArgumentException("Expected runs >= 1, profiledRuns >= 1, splits >= 0, maxRequests >= 0");
    }
    inputShapes = OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** A run that measures no throughput. */
  public CalibrationRun(int runs, int profiledRuns, int splits, long seed, Map<String, long[]> inputShapes) {
    this(runs, profiledRuns, splits, seed, inputShapes, 0);
  }

  /** Input shapes by name; the arrays are copies. */
  @Override
  public Map<String, long[]> inputShapes() {
    return OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** Measures {@code graph} (read from {@code xml}) on {@code devices}. */
  public CalibrationRecords measure(OpenVinoRuntime rt, OpGraph graph, Path xml, List<String> devices,
      DeviceProfile base,
      ShapeAssumption shapes) {
    Map<String, String> fullNames = new LinkedHashMap<>();
    for (DeviceInfo d : rt.devices()) {
      fullNames.put(d.name(), d.fullName());
    }
    for (String d : devices) {
      if (!fullNames.containsKey(d)) {
        throw new OpenVinoException(
            "device " + d + " is not available (available: " + String.join(",", fullNames.keySet()) + ")");
      }
    }
    List<CalibrationRecords.DeviceRun> runsOut = new ArrayList<>();
    List<CalibrationRecords.SplitRun> splitsOut = new ArrayList<>();
    try (OpenVinoRuntime.Model model = rt.readModel(xml)) {
      List<String> inputs = model.inputNames();
      Map<String, long[]> shapesByName = inputShapes();
      for (int i = 0; i < inputs.size(); i++) {
        long[] s = shapesByName.get(inputs.get(i));
        if (s != null) {
          model.setInputShape(i, s);
        }
      }
      model.clearAffinities();
      HeteroCostModel skeleton = skeleton(model, graph, devices, shapes);
      for (int k = 0; k < devices.size(); k++) {
        String d = devices.get(k);
        double latency = medianLatency(model, d);
        List<Double> periods = maxRequests == 0 ? List.of()
            : CalibrationThroughput.periods(model, d, maxRequests, runs, seed);
        runsOut.add(new CalibrationRecords.DeviceRun(d, fullNames.get(d), latency,
            profiledInHetero(model, graph, skeleton, devices, k), periods));
      }
      List<CalibrationRecords.DesignedRun> designed = devices.size() < 2 ? List.of()
          : designed(model, graph, skeleton, devices);
      if (devices.contains("CPU")) {
        SimGraph sg = SimGraph.build(graph, base, new CostModel(shapes));
        CalibrationFit helper = new CalibrationFit(graph, base, shapes);
        int kernels = sg.computeNodeCount();
        for (String d : devices) {
          if (d.equals("CPU")) {
            continue;
          }
          for (int k = 1; k <= splits; k++) {
            int prefix = (int) Math.round((double) kernels * k / (splits + 1));
            Placement p = helper.splitPlacement(sg, d, prefix);
            try {
              HeteroProfiling.applyAffinities(model, graph, p);
              splitsOut.add(new CalibrationRecords.SplitRun(d, prefix, medianLatency(model, "HETERO:" + d + ",CPU")));
            } catch (OpenVinoException e) {
              // A split some plugin rejects is just not used for the fit.
            } finally {
              model.clearAffinities();
            }
          }
        }
      }
      String source = "measured: " + OpenVinoNames.describeMachine(rt.version(), rt.devices());
      return new CalibrationRecords(xml.getFileName().toString(), source, runsOut, splitsOut, designed);
    }
  }

  /** The graph's ops on {@code devices} with support from {@code query_model} (no times: for placements). */
  private static HeteroCostModel skeleton(OpenVinoRuntime.Model model, OpGraph graph, List<String> devices,
      ShapeAssumption shapes) {
    Map<String, Integer> index = new LinkedHashMap<>();
    List<String> names = model.opNames();
    for (int i = 0; i < names.size(); i++) {
      index.putIfAbsent(names.get(i), i);
    }
    boolean[][] supported = new boolean[devices.size()][graph.nodeCount()];
    for (int d = 0; d < devices.size(); d++) {
      boolean[] ok = model.query(devices.get(d));
      for (int v = 0; v < graph.nodeCount(); v++) {
        Integer r = index.get(graph.node(v).name());
        supported[d][v] = r == null || ok[r];
      }
    }
    CostModel costs = new CostModel(shapes);
    return HeteroCostModel.forGraph(graph, costs.costs(graph), shapes,
        devices.stream().map(d -> new HeteroDevice(d, 0, 0, 0)).toList(), 0,
        KernelTimes.byNode(new double[devices.size()][graph.nodeCount()], null, supported));
  }

  /**
   * Device {@code d}'s records as HETERO runs it in a split: the whole model on it but its last op on
   * another device ({@link HeteroSplitDesign#withTail}); the other device's records dropped.
   */
  private List<ProfilingRecord> profiledInHetero(OpenVinoRuntime.Model model, OpGraph graph, HeteroCostModel skeleton,
      List<String> devices, int d) {
    if (devices.size() < 2) {
      return profiled(model, devices.get(d), Set.of());
    }
    DeviceSet set = DeviceSet.of(devices.toArray(String[]::new));
    Placement p = HeteroProfiling.placement(graph, skeleton, HeteroSplitDesign.withTail(skeleton, d), set);
    Set<String> foreign = new HashSet<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (p.deviceOf(v) != d) {
        foreign.add(graph.node(v).name());
      }
    }
    try {
      HeteroProfiling.applyAffinities(model, graph, p);
      return profiled(model, set.heteroString(), foreign);
    } finally {
      model.clearAffinities();
    }
  }

  /**
   * The designed placements' wall latencies (those the runtime refuses are left out): each the fastest
   * of {@link HeteroProfiling#DESIGN_ROUNDS} rounds that measure every placement once in turn ({@link
   * HeteroProfiling#undisturbed}).
   */
  private List<CalibrationRecords.DesignedRun> designed(OpenVinoRuntime.Model model, OpGraph graph,
      HeteroCostModel skeleton, List<String> devices) {
    DeviceSet set = DeviceSet.of(devices.toArray(String[]::new));
    List<HeteroSplitDesign.Designed> all = HeteroSplitDesign.placements(skeleton);
    List<List<long[]>> samples = new ArrayList<>();
    all.forEach(d -> samples.add(new ArrayList<>()));
    Set<Integer> refused = new HashSet<>();
    for (int round = 0; round < HeteroProfiling.DESIGN_ROUNDS; round++) {
      for (int i = 0; i < all.size(); i++) {
        if (refused.contains(i)) {
          continue;
        }
        Placement p = HeteroProfiling.placement(graph, skeleton, all.get(i).deviceOfOp(), set);
        try {
          HeteroProfiling.applyAffinities(model, graph, p);
          // In ns, so whole numbers keep sub-µs detail.
          samples.get(i).add(new long[] {Math.round(1e6 * medianLatency(model, set.heteroString()))});
        } catch (OpenVinoException e) {
          refused.add(i); // a split the runtime refuses is just not used for the fit
        } finally {
          model.clearAffinities();
        }
      }
    }
    List<CalibrationRecords.DesignedRun> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (!refused.contains(i) && !samples.get(i).isEmpty()) {
        out.add(new CalibrationRecords.DesignedRun(all.get(i).label(), devices, all.get(i).deviceOfOp(),
            HeteroProfiling.undisturbed(samples.get(i).stream().map(x -> x[0] / 1e6).toList())));
      }
    }
    return out;
  }

  private double medianLatency(OpenVinoRuntime.Model model, String device) {
    try (OpenVinoRuntime.Compiled c = model.compile(device, null, false)) {
      c.fillInputs(seed);
      return RuntimeCheck.median(c.inferTimed(3, runs));
    }
  }

  /** Per-layer records, the median over {@code profiledRuns} inferences, those of {@code foreign} nodes dropped. */
  private List<ProfilingRecord> profiled(OpenVinoRuntime.Model model, String device, Set<String> foreign) {
    try (OpenVinoRuntime.Compiled c = model.compile(device, null, true)) {
      c.fillInputs(seed);
      c.inferTimed(3, 0);
      Map<String, List<long[]>> samples = new LinkedHashMap<>();
      Map<String, ProfilingRecord> first = new LinkedHashMap<>();
      for (int r = 0; r < profiledRuns; r++) {
        c.inferTimed(0, 1);
        for (ProfilingRecord rec : c.profile()) {
          if (foreign.contains(rec.nodeName())) {
            continue;
          }
          String key = rec.subgraph() + "\u0000" + rec.nodeName() + "\u0000" + rec.nodeType() + "\u0000"
              + rec.execType();
          first.putIfAbsent(key, rec);
          samples.computeIfAbsent(key, x -> new ArrayList<>())
              .add(new long[] {rec.realTimeMicros(), rec.cpuTimeMicros()});
        }
      }
      // The median, not the mean: one inference a load burst slowed must not set a layer's time.
      List<ProfilingRecord> out = new ArrayList<>();
      for (Map.Entry<String, ProfilingRecord> e : first.entrySet()) {
        ProfilingRecord f = e.getValue();
        List<long[]> s = samples.get(e.getKey());
        out.add(new ProfilingRecord(f.subgraph(), f.nodeName(), f.nodeType(), f.execType(), f.status(),
            medianOf(s, 0), medianOf(s, 1)));
      }
      return out;
    }
  }

  /** The median of column {@code col} of the samples, rounded to a whole µs. */
  static long medianOf(List<long[]> samples, int col) {
    long[] v = samples.stream().mapToLong(x -> x[col]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : Math.round((v[v.length / 2 - 1] + v[v.length / 2]) / 2.0);
  }
}
