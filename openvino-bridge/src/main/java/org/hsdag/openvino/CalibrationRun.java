package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;
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
 * median wall latency without profiling and per-op kernel times profiled as a tune's cost model profiles them
 * ({@link KernelProfiles}, through the per-machine profile database when one is given); then the designed HETERO
 * splits and, per non-CPU device, a few runs splitting the model between CPU and that device, for the link cost.
 *
 * @param runs timed inferences for each wall latency (after 3 warm-up runs)
 * @param splits split points per non-CPU device (evenly spaced over the kernels)
 * @param seed input data seed
 * @param inputShapes static shapes for dynamic inputs, by input name
 * @param maxRequests each device alone is also measured with 1 … this many requests in flight under the
 *     throughput hint ({@link CalibrationThroughput}); 0: not
 */
public record CalibrationRun(int runs, int splits, long seed, Map<String, long[]> inputShapes, int maxRequests) {
  public CalibrationRun {
    if (runs < 1 || splits < 0 || maxRequests < 0) {
      throw new IllegalArgumentException("Expected runs >= 1, splits >= 0, maxRequests >= 0");
    }
    inputShapes = OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** A run that measures no throughput. */
  public CalibrationRun(int runs, int splits, long seed, Map<String, long[]> inputShapes) {
    this(runs, splits, seed, inputShapes, 0);
  }

  /**
   * The per-machine profile database a calibration reads kernel times from and feeds, as a tune's cost model does.
   *
   * @param database the database, or null for none (every kernel is profiled, nothing is saved)
   * @param fresh ignore what it holds and refresh it ({@code --fresh-profile})
   * @param testDevices the test devices registered on the runtime (part of what makes a record valid)
   * @param notices where a database that fails, and what was reused, are said
   */
  public record ProfileStore(ProfileDatabase database, boolean fresh, List<TestDevice> testDevices,
      java.util.function.Consumer<String> notices) {
    /** No database: profile everything. */
    public static final ProfileStore NONE = new ProfileStore(null, false, List.of(), s -> {});

    public ProfileStore {
      testDevices = List.copyOf(testDevices);
    }
  }

  /** As {@link #measure(OpenVinoRuntime, OpGraph, Path, List, DeviceProfile, ShapeAssumption, ProfileStore)} with no database. */
  public CalibrationRecords measure(OpenVinoRuntime rt, OpGraph graph, Path xml, List<String> devices,
      DeviceProfile base, ShapeAssumption shapes) {
    return measure(rt, graph, xml, devices, base, shapes, ProfileStore.NONE);
  }

  /** Input shapes by name; the arrays are copies. */
  @Override
  public Map<String, long[]> inputShapes() {
    return OpenVinoOptions.DEFAULT.withInputShapes(inputShapes).inputShapes();
  }

  /** Measures {@code graph} (read from {@code xml}) on {@code devices}, kernel times through {@code store}. */
  public CalibrationRecords measure(OpenVinoRuntime rt, OpGraph graph, Path xml, List<String> devices,
      DeviceProfile base, ShapeAssumption shapes, ProfileStore store) {
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
      double[][] kernelMicros = kernels(rt, model, graph, devices, shapes, store);
      for (int k = 0; k < devices.size(); k++) {
        String d = devices.get(k);
        double latency = medianLatency(model, d);
        List<Double> periods = maxRequests == 0 ? List.of()
            : CalibrationThroughput.periods(model, d, maxRequests, runs, seed);
        runsOut.add(new CalibrationRecords.DeviceRun(d, fullNames.get(d), latency, records(graph, kernelMicros[k]),
            periods));
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
   * Per device, each node's kernel time, µs, profiled inside HETERO as a tune's cost model profiles it ({@link
   * KernelProfiles#profile}): the database's records where it holds them, the rest profiled and saved to it.
   */
  private double[][] kernels(OpenVinoRuntime rt, OpenVinoRuntime.Model model, OpGraph graph, List<String> devices,
      ShapeAssumption shapes, ProfileStore store) {
    List<DeviceInfo> infos = new ArrayList<>();
    for (String d : devices) {
      infos.add(rt.devices().stream().filter(i -> i.name().equals(d)).findFirst().orElseThrow());
    }
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withSeed(seed).withInputShapes(inputShapes)
        .withTestDevices(store.testDevices());
    KernelRecords records = null;
    if (store.database() != null) {
      List<ProfileContext> contexts = new ArrayList<>();
      String processor = ProfileContext.processor();
      for (int d = 0; d < infos.size(); d++) {
        contexts.add(ProfileContext.of(rt.version(), infos, d, store.testDevices(), inputShapes, processor));
      }
      records = new KernelRecords(store.database(), store.fresh(), contexts, store.notices());
    }
    ProfiledKernels profiled;
    try {
      profiled = KernelProfiles.profile(model, graph, KernelProfiles.opCosts(graph, shapes), infos, shapes, options,
          records);
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof OpenVinoException) {
        throw new OpenVinoException(e.getMessage()); // the runtime's failure, said in calibrate's one line
      }
      throw e;
    }
    if (records != null) {
      store.notices().accept(records.reuse().line());
    }
    return profiled.micros();
  }

  /** A device's per-node kernel times as the per-layer records the fit reads (nodes that ran no kernel left out). */
  private static List<ProfilingRecord> records(OpGraph graph, double[] micros) {
    List<ProfilingRecord> out = new ArrayList<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (micros[v] > 0) {
        long us = Math.max(1, Math.round(micros[v]));
        out.add(new ProfilingRecord(0, graph.node(v).name(), graph.node(v).type(), "profiled",
            ProfilingRecord.Status.EXECUTED, us, us));
      }
    }
    return out;
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
}
