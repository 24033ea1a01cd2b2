package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
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
   * Profiled inferences per device: the per-op median over them counts. Taken in rounds that alternate
   * the devices, so a load burst hits every device alike instead of one device's whole profile (one
   * inference's records made a CPU twin's convolutions 1x to 31x the CPU's from one build to the next
   * on a loaded machine).
   */
  public static final int PROFILING_ROUNDS = 7;

  /**
   * Per-node kernel times on each device, µs ({@code [device][node]}), profiled inside HETERO.
   *
   * @param micros each device running the whole model (but its last op)
   * @param apart the same with every FakeQuantize that quantizes a kernel's input on another device, so those
   *     kernels run unquantized ({@link org.hsdag.cost.QuantizedInputs}); null when the model has none
   */
  @SuppressWarnings("ArrayRecordComponent") // filled once here, read by the cost model's builder
  public record Kernels(double[][] micros, double[][] apart) {}

  /**
   * Per-node kernel time on each device, µs ({@code [device][node]}), profiled inside HETERO: each
   * device's profiling compile warmed up by {@code runs} inferences, then {@value #PROFILING_ROUNDS}
   * rounds of one warm-up and one profiled inference on each device in turn; per op the median.
   * With {@code quantizers} (ops of {@code skeleton}), a second compile per device has them on another device and
   * gives {@link Kernels#apart}; its rounds alternate with the others.
   *
   * @param skeleton the graph's cost model on {@code devices} (for its ops and support; its times are not read)
   * @throws OpenVinoException when a device cannot compile or run its profiling placement
   */
  public static Kernels kernels(OpenVinoRuntime.Model m, OpGraph graph, HeteroCostModel skeleton,
      List<String> devices, int[] quantizers, long seed, Path cacheDir, int runs) {
    boolean[] all = new boolean[devices.size()];
    Arrays.fill(all, true);
    return kernels(m, graph, skeleton, devices, quantizers, seed, cacheDir, runs, all);
  }

  /**
   * As {@link #kernels(OpenVinoRuntime.Model, OpGraph, HeteroCostModel, List, int[], long, Path, int)}, profiling
   * only the devices {@code d} with {@code which[d]} (the other rows stay zero: their times are known).
   */
  static Kernels kernels(OpenVinoRuntime.Model m, OpGraph graph, HeteroCostModel skeleton, List<String> devices,
      int[] quantizers, long seed, Path cacheDir, int runs, boolean[] which) {
    Set<String> opNames = new HashSet<>(m.opNames());
    boolean apart = quantizers.length > 0 && devices.size() > 1;
    List<Profiled> open = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    try {
      for (int d = 0; d < devices.size(); d++) {
        if (which[d]) {
          int[] alone = HeteroSplitDesign.withTail(skeleton, d);
          open.add(compiled(m, graph, skeleton, devices, d, alone, seed, cacheDir, runs, opNames));
          rows.add(d);
        }
      }
      for (int d = 0; apart && d < devices.size(); d++) {
        if (which[d]) {
          int[] withoutQuantizers = HeteroSplitDesign.withTail(skeleton, d);
          for (int q : quantizers) {
            int other = HeteroSplitDesign.otherDevice(skeleton, q, d);
            withoutQuantizers[q] = other >= 0 ? other : d;
          }
          open.add(compiled(m, graph, skeleton, devices, d, withoutQuantizers, seed, cacheDir, runs, opNames));
        }
      }
      List<List<OpCostTable>> tables = new ArrayList<>();
      open.forEach(x -> tables.add(new ArrayList<>()));
      for (int round = 0; round < PROFILING_ROUNDS; round++) {
        for (int k = 0; k < open.size(); k++) {
          tables.get(k).add(open.get(k).once());
        }
      }
      int n = rows.size();
      return new Kernels(medians(graph, devices.size(), rows, tables.subList(0, n)),
          apart ? medians(graph, devices.size(), rows, tables.subList(n, 2 * n)) : null);
    } finally {
      open.forEach(x -> x.compiled().close());
      m.clearAffinities();
    }
  }

  /** Per-op medians of each profiled device's tables, in its row ({@code rows}); rows not profiled stay zero. */
  private static double[][] medians(OpGraph graph, int deviceCount, List<Integer> rows,
      List<List<OpCostTable>> tablesPerRow) {
    double[][] micros = new double[deviceCount][graph.nodeCount()];
    for (int i = 0; i < rows.size(); i++) {
      OpCostTable table = OpCostTable.median(tablesPerRow.get(i));
      for (int v = 0; v < graph.nodeCount(); v++) {
        micros[rows.get(i)][v] = 1000.0 * table.millisByOp().getOrDefault(graph.node(v).name(), 0.0);
      }
    }
    return micros;
  }

  /** Device {@code d}'s profiling placement among {@code deviceCount} devices: all on it, the last op elsewhere. */
  private static Placement profilingPlacement(OpGraph graph, HeteroCostModel skeleton, int deviceCount, int d) {
    String[] names = new String[deviceCount];
    for (int e = 0; e < deviceCount; e++) {
      names[e] = skeleton.devices().get(e).name();
    }
    return placement(graph, skeleton, HeteroSplitDesign.withTail(skeleton, d), DeviceSet.of(names));
  }

  /** The nodes another device runs in device {@code d}'s profiling compile (none with one device): not profiled. */
  static Set<Integer> foreign(OpGraph graph, HeteroCostModel skeleton, int deviceCount, int d) {
    Set<Integer> out = new HashSet<>();
    if (deviceCount > 1) {
      Placement p = profilingPlacement(graph, skeleton, deviceCount, d);
      for (int v = 0; v < graph.nodeCount(); v++) {
        if (p.deviceOf(v) != d) {
          out.add(v);
        }
      }
    }
    return out;
  }

  /** Device {@code d}'s profiling compile, inputs filled and warmed up. */
  private static Profiled compiled(OpenVinoRuntime.Model m, OpGraph graph, HeteroCostModel skeleton,
      List<String> devices, int d, int[] deviceOfOp, long seed, Path cacheDir, int runs, Set<String> opNames) {
    String target = devices.get(d);
    Set<String> foreign = new HashSet<>();
    if (devices.size() == 1) {
      m.clearAffinities();
    } else {
      Placement p = placement(graph, skeleton, deviceOfOp, DeviceSet.of(devices.toArray(String[]::new)));
      applyAffinities(m, graph, p);
      for (int v = 0; v < graph.nodeCount(); v++) {
        if (p.deviceOf(v) != d) {
          foreign.add(graph.node(v).name());
        }
      }
      target = profiledFirst(devices, d);
    }
    Profiled opened = open(m, devices.get(d), target, foreign, opNames, seed, cacheDir, runs);
    m.clearAffinities();
    return opened;
  }

  /**
   * The HETERO target of device {@code d}'s profiling compile: the profiled device first. HETERO's priorities do not
   * matter with every affinity set; the name says what ran.
   */
  static String profiledFirst(List<String> devices, int d) {
    List<String> order = new ArrayList<>(devices);
    order.remove(d);
    order.add(0, devices.get(d));
    return "HETERO:" + String.join(",", order);
  }

  /** {@code m} compiled for {@code target} (affinities set), inputs filled, warmed up by {@code runs} inferences. */
  static Profiled open(OpenVinoRuntime.Model m, String device, String target, Set<String> foreign,
      Set<String> opNames, long seed, Path cacheDir, int runs) {
    OpenVinoRuntime.Compiled c = m.compile(target, cacheDir, true);
    try {
      c.fillInputs(seed);
      c.inferTimed(1, runs);
      List<ExecutedNode> executed;
      try {
        executed = c.executedNodes();
      } catch (OpenVinoException | UnsupportedOperationException e) {
        executed = List.of(); // each record then names its own kernel
      }
      return new Profiled(device, c, executed, foreign, opNames);
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** One device's open profiling compile; records of nodes in {@code foreign} (another device's) are dropped. */
  record Profiled(String device, OpenVinoRuntime.Compiled compiled, List<ExecutedNode> executed,
      Set<String> foreign, Set<String> opNames) {
    /** One warm-up and one profiled inference (other devices ran since): its per-op table. */
    OpCostTable once() {
      compiled.inferTimed(1, 1);
      List<ProfilingRecord> records = new ArrayList<>();
      for (ProfilingRecord r : compiled.profile()) {
        if (!foreign.contains(r.nodeName())) {
          records.add(r);
        }
      }
      return OpCostTable.of(device, records, executed, opNames);
    }

    /** The per-op median of {@value #PROFILING_ROUNDS} rounds of {@link #once}. */
    OpCostTable median() {
      List<OpCostTable> tables = new ArrayList<>();
      for (int round = 0; round < PROFILING_ROUNDS; round++) {
        tables.add(once());
      }
      return OpCostTable.median(tables);
    }
  }

  /**
   * Rounds of the designed placements: each round measures every one of them once, in turn, and a
   * placement's latency is its fastest round ({@link #undisturbed}), so load that comes and goes hits
   * every placement alike and a round it slowed is not the figure.
   */
  public static final int DESIGN_ROUNDS = 3;

  /**
   * A placement's latency from its rounds' figures: the fastest. Other processes only ever add time, and on a
   * shared machine they come in bursts that slow every placement of a round; a median of three is a slowed figure
   * whenever two rounds were hit, and the fit then reads the burst as kernel or start costs (docs/hetero-rules.md
   * §7 has the runs).
   *
   * @throws IllegalArgumentException when there is no figure
   */
  public static double undisturbed(List<Double> roundFigures) {
    return roundFigures.stream().mapToDouble(Double::doubleValue).min()
        .orElseThrow(() -> new IllegalArgumentException("no round was measured"));
  }

  /**
   * Measures {@link HeteroSplitDesign#placements} of {@code model} in {@value #DESIGN_ROUNDS} interleaved
   * rounds, each placement's fastest round counting (a placement that fails is left out) and fits HETERO's costs to them ({@link HeteroFit}, robust).
   *
   * @param measure measures one placement (the backend's own measurement path)
   * @throws IllegalStateException when no designed placement could be measured
   */
  public static HeteroFit.Result fitCosts(OpGraph graph, HeteroCostModel model, DeviceSet devices,
      Function<Placement, Measurement> measure) {
    return fitCosts(graph, model, devices, measure, DesignSamples.NONE, s -> {});
  }

  /**
   * {@link #fitCosts(OpGraph, HeteroCostModel, DeviceSet, Function)} continuing from the measurements in {@code
   * prior} (a round a placement has there is not measured again; a failure there is not retried), handing what was
   * measured so far to {@code progress} after each measurement.
   */
  public static HeteroFit.Result fitCosts(OpGraph graph, HeteroCostModel model, DeviceSet devices,
      Function<Placement, Measurement> measure, DesignSamples prior, Consumer<DesignSamples> progress) {
    List<HeteroSplitDesign.Designed> designed = HeteroSplitDesign.placements(model);
    List<List<Double>> micros = new ArrayList<>();
    Map<String, String> failed = new LinkedHashMap<>();
    for (HeteroSplitDesign.Designed p : designed) {
      micros.add(new ArrayList<>());
      prior.of(p.label(), p.deviceOfOp()).ifPresent(s -> {
        micros.get(micros.size() - 1).addAll(s.micros());
        if (s.failed() != null) {
          failed.put(p.label(), s.failed());
        }
      });
    }
    for (int round = 0; round < DESIGN_ROUNDS; round++) {
      for (int i = 0; i < designed.size(); i++) {
        HeteroSplitDesign.Designed p = designed.get(i);
        if (failed.containsKey(p.label()) || micros.get(i).size() > round) {
          continue; // a refusal does not change between rounds; a saved round is not measured again
        }
        Measurement meas = measure.apply(placement(graph, model, p.deviceOfOp(), devices));
        if (meas.ok()) {
          micros.get(i).add(meas.latencyMillis() * 1000.0);
        } else {
          failed.put(p.label(), meas.reason());
        }
        progress.accept(samples(designed, micros, failed));
      }
    }
    List<HeteroFit.Observation> obs = new ArrayList<>();
    for (int i = 0; i < designed.size(); i++) {
      if (!failed.containsKey(designed.get(i).label()) && !micros.get(i).isEmpty()) {
        obs.add(new HeteroFit.Observation(designed.get(i).label(), designed.get(i).deviceOfOp(),
            undisturbed(micros.get(i))));
      }
    }
    if (obs.isEmpty()) {
      List<String> why = new ArrayList<>();
      failed.forEach((label, reason) -> why.add(label + ": " + reason));
      throw new IllegalStateException("no designed placement ran (" + String.join("; ", why) + ")");
    }
    return HeteroFit.fit(model, obs);
  }

  private static DesignSamples samples(List<HeteroSplitDesign.Designed> designed, List<List<Double>> micros,
      Map<String, String> failed) {
    List<DesignSamples.Sampled> taken = new ArrayList<>();
    for (int i = 0; i < designed.size(); i++) {
      String label = designed.get(i).label();
      if (!micros.get(i).isEmpty() || failed.containsKey(label)) {
        taken.add(new DesignSamples.Sampled(label, designed.get(i).deviceOfOp(), micros.get(i), failed.get(label)));
      }
    }
    return new DesignSamples(designed.size() * DESIGN_ROUNDS, taken);
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

  /**
   * Sets {@code p} as the affinities of the model the runtime read: hsdag's names fitted to the runtime's (a folded
   * constant the reader removed is skipped, {@link HeteroAffinity#fitToModel}).
   *
   * @throws OpenVinoException when a name does not fit
   */
  static void applyAffinities(OpenVinoRuntime.Model m, OpGraph graph, Placement p) {
    Map<String, String> names = new HashMap<>(new HeteroAffinity(graph).nameMap(p));
    HeteroAffinity.ModelFit fit = HeteroAffinity.fitToModel(names, m.opNames());
    if (!fit.problems().isEmpty()) {
      throw new OpenVinoException(String.join("; ", fit.problems()));
    }
    m.setAffinities(fit.affinities());
  }
}
