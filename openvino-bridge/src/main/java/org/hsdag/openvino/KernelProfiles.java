package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.cost.KernelTimes;
import org.hsdag.cost.OpCost;
import org.hsdag.cost.QuantizedInputs;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/** The real backend's per-op kernel profiles and the cost model built on them ({@link OpenVinoBackend#costModel}). */
final class KernelProfiles {
  /**
   * Timed runs (after one warm-up) of each profiling compile; the last one's records count. 5, not fewer: the
   * first inferences after a compile run up to twice as slow (resnet50 on the bf16 CPU: 38, 38, 42, 34, then 21 ms),
   * and a 3rd run's records made the fitted model's fidelity drop (rho 0.73 where 0.88-0.97).
   */
  static final int PROFILING_RUNS = 5;
  /**
   * How each designed placement of the cost fit is measured in each of {@link HeteroProfiling#DESIGN_ROUNDS}
   * rounds: one warm-up, the median of 4 runs (15 inferences a placement in all, about the 11 one pass of 10 took).
   */
  static final MeasurementProtocol DESIGN_PROTOCOL = new MeasurementProtocol(1, 4, Statistic.MEDIAN, 1, 0);
  /** Where link and sub-model costs come from when only one device is open (nothing to split). */
  static final String LINK_PROFILE = "paper";

  private KernelProfiles() {}

  /** The graph's model with these per-node kernel times, and the {@value #LINK_PROFILE} profile's other costs. */
  static HeteroCostModel kernelModel(OpGraph graph, double[][] micros, boolean[][] supported, List<DeviceInfo> devices,
      ShapeAssumption shapes) {
    return kernelModel(graph, opCosts(graph, shapes), micros, null, supported, devices, shapes);
  }

  /** {@link CostModel#costs} of {@code graph} under {@code shapes}: computed once per cost-model build, then passed. */
  static OpCost[] opCosts(OpGraph graph, ShapeAssumption shapes) {
    return new CostModel(shapes).costs(graph);
  }

  /**
   * The same with the graph's {@code opCosts} ({@link #opCosts}) and {@code apart} ({@link ProfiledKernels#apart},
   * may be null): a kernel an int8 model quantizes costs its profiled (int8) time while its FakeQuantize shares its
   * sub-model, the larger of the two otherwise.
   */
  static HeteroCostModel kernelModel(OpGraph graph, OpCost[] opCosts, double[][] micros, double[][] apart,
      boolean[][] supported, List<DeviceInfo> devices, ShapeAssumption shapes) {
    DeviceProfile links = DeviceProfile.load(LINK_PROFILE);
    List<HeteroDevice> hetero = new ArrayList<>();
    for (DeviceInfo d : devices) {
      DeviceModel known = links.devices().stream().filter(x -> x.name().equals(d.name())).findFirst().orElse(null);
      hetero.add(known == null ? new HeteroDevice(d.name(), 0, 0, 0) : HeteroDevice.of(known));
    }
    double[][] alone = micros;
    if (apart != null) {
      int[] quantizer = QuantizedInputs.quantizerOf(graph, opCosts);
      alone = new double[micros.length][];
      for (int d = 0; d < micros.length; d++) {
        alone[d] = micros[d].clone();
        for (int v = 0; v < quantizer.length; v++) {
          if (quantizer[v] >= 0) {
            alone[d][v] = Math.max(micros[d][v], apart[d][v]);
          }
        }
      }
    }
    return HeteroCostModel.forGraph(graph, opCosts, shapes, hetero, links.requestOverheadUs(),
        KernelTimes.byNode(alone, apart == null ? null : micros, supported));
  }

  /** The ops of {@code skeleton} that quantize another op's input ({@link QuantizedInputs}). */
  static int[] quantizerOps(OpGraph graph, HeteroCostModel skeleton, OpCost[] opCosts) {
    int[] quantizer = QuantizedInputs.quantizerOf(graph, opCosts);
    java.util.Set<Integer> nodes = new java.util.HashSet<>();
    for (int q : quantizer) {
      if (q >= 0) {
        nodes.add(q);
      }
    }
    return java.util.stream.IntStream.range(0, skeleton.opCount()).filter(i -> nodes.contains(skeleton.node(i)))
        .toArray();
  }

  /** Per-node kernel times and support on every device, profiled inside HETERO ({@link HeteroProfiling#kernels}). */
  static ProfiledKernels profile(OpenVinoRuntime.Model m, OpGraph graph, List<DeviceInfo> devices,
      ShapeAssumption shapes, OpenVinoOptions options) {
    return profile(m, graph, opCosts(graph, shapes), devices, shapes, options, null);
  }

  /**
   * As above with the graph's {@code opCosts} ({@link #opCosts}), the kernel times the profile database holds read
   * from {@code records} (null: none) instead of profiled: a device lacking a few ops profiles only a part of the
   * model around them ({@link SubModelSelection}), one lacking most is profiled whole; what was profiled is saved to it.
   */
  static ProfiledKernels profile(OpenVinoRuntime.Model m, OpGraph graph, OpCost[] opCosts, List<DeviceInfo> devices,
      ShapeAssumption shapes, OpenVinoOptions options, KernelRecords records) {
    Map<String, Integer> runtimeIndex = OpenVinoNames.indexByName(m.opNames());
    int n = graph.nodeCount();
    List<String> names = devices.stream().map(DeviceInfo::name).toList();
    boolean[][] supported = new boolean[devices.size()][n];
    for (int d = 0; d < devices.size(); d++) {
      boolean[] ok = m.query(names.get(d));
      for (int v = 0; v < n; v++) {
        Integer r = runtimeIndex.get(graph.node(v).name());
        supported[d][v] = r == null || ok[r];
      }
    }
    HeteroCostModel skeleton = kernelModel(graph, opCosts, new double[devices.size()][n], null, supported, devices,
        shapes);
    int[] quantizers = quantizerOps(graph, skeleton, opCosts);
    // The database keeps one time per op signature: an int8 model's times apart from their FakeQuantize are not
    // per-signature facts, so such a model is profiled whole every time.
    KernelRecords usable = quantizers.length == 0 ? records : null;
    if (records != null && usable == null) {
      records.bypassed("an int8 model's kernel times depend on where its quantizers run, not on op signatures alone");
    }
    double[][] micros = new double[devices.size()][n];
    double[][] apart = null;
    String[] signatures = usable == null ? null : OpSignature.of(graph);
    boolean[] whole = new boolean[devices.size()];
    java.util.Arrays.fill(whole, true);
    List<java.util.Optional<SubModelSelection>> parts = new ArrayList<>();
    List<java.util.Set<Integer>> lacking = List.of();
    if (usable != null) {
      lacking = usable.fill(graph, skeleton, signatures, micros);
      for (int d = 0; d < devices.size(); d++) {
        boolean anyOp = lacking.get(d).stream().anyMatch(v -> SubModelSelection.isOp(graph.node(v)));
        java.util.Optional<SubModelSelection> part = anyOp ? SubModelSelection.of(graph, lacking.get(d))
            : java.util.Optional.empty();
        whole[d] = anyOp && part.isEmpty();
        parts.add(part);
      }
    }
    try {
      boolean any = false;
      for (boolean t : whole) {
        any |= t;
      }
      if (any) {
        HeteroProfiling.Kernels measured = HeteroProfiling.kernels(m, graph, skeleton, names, quantizers,
            options.seed(), options.cacheDir(), PROFILING_RUNS, whole);
        for (int d = 0; d < devices.size(); d++) {
          if (whole[d]) {
            micros[d] = measured.micros()[d];
          }
        }
        apart = measured.apart();
        if (usable != null) {
          usable.profiled(graph, skeleton, signatures, micros, whole);
        }
      }
      for (int d = 0; usable != null && d < devices.size(); d++) {
        SubModelSelection part = parts.get(d).orElse(null);
        if (part != null) {
          double[] row = partRow(m, graph, skeleton, part, names, d, supported, options);
          for (int v : part.lacking()) {
            micros[d][v] = row[v];
          }
        }
        if (!whole[d] && !lacking.get(d).isEmpty()) {
          // Constants and Parameters run no kernel (nil, as the whole profile has them): saved so they lack no more.
          usable.save(graph, signatures, d, micros[d], lacking.get(d));
        }
        usable.counted(names.get(d), n, whole[d] ? n : part == null ? 0 : part.lacking().size());
      }
    } catch (OpenVinoException e) {
      throw new IllegalStateException("cannot profile " + graph.name() + " on " + String.join(",", names) + ": "
          + e.getMessage(), e);
    } finally {
      clearAffinities(m);
    }
    return new ProfiledKernels(names, graph.nodes().stream().map(OpNode::name).toList(), micros, supported)
        .withApart(apart);
  }

  /** Device {@code d}'s times of {@code part}'s lacking ops; the whole model's where the runtime extracts no part. */
  private static double[] partRow(OpenVinoRuntime.Model m, OpGraph graph, HeteroCostModel skeleton,
      SubModelSelection part, List<String> names, int d, boolean[][] supported, OpenVinoOptions options) {
    try {
      return SubModelProfiling.kernels(m, graph, part, names, d, supported, options.seed(), options.cacheDir(),
          PROFILING_RUNS);
    } catch (UnsupportedOperationException e) {
      boolean[] one = new boolean[names.size()];
      one[d] = true;
      return HeteroProfiling.kernels(m, graph, skeleton, names, new int[0], options.seed(), options.cacheDir(),
          PROFILING_RUNS, one).micros()[d];
    }
  }

  private static void clearAffinities(OpenVinoRuntime.Model m) {
    try {
      m.clearAffinities();
    } catch (RuntimeLostException gone) {
      // the model went with the runtime child; the profiling error says why
    }
  }
}
