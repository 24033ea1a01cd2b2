package org.hsdag.openvino;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.hsdag.backend.CostModelSource.FitError;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.Measurement;
import org.hsdag.cost.BoundaryOracle;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroFit;
import org.hsdag.cost.OpCost;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The OpenVINO backend's cost models ({@link OpenVinoBackend#costModel}), one per graph, and what they were built
 * from ({@link ProfiledKernels}): the kernels profiled on every device, then the designed splits HETERO's costs are
 * fitted to. Each part goes to the graph's progress sink as soon as it is measured (the kernels once profiled, the
 * designed splits one measurement at a time), and a saved table, whole or partial, is continued rather than
 * measured again. Not thread-safe: the backend calls it under its own lock.
 */
final class ProfiledCostModels {
  private final List<DeviceInfo> devices;
  private final ShapeAssumption shapes;
  private final Map<OpGraph, HeteroCostModel> models = new HashMap<>();
  private final Map<OpGraph, ProfiledKernels> kernels = new HashMap<>();
  private final Map<OpGraph, Consumer<String>> sinks = new HashMap<>();
  private final ProfileDatabaseUse database;

  ProfiledCostModels(List<DeviceInfo> devices, ShapeAssumption shapes) {
    this.devices = List.copyOf(devices);
    this.shapes = shapes;
    this.database = new ProfileDatabaseUse(devices.size());
  }

  /** The per-machine profile database these models' kernels are read from and saved to, when one is set. */
  ProfileDatabaseUse database() {
    return database;
  }

  /**
   * {@code graph}'s cost model, built once: {@code profile} profiles the kernels (given the graph's op costs, computed
   * once) unless they are known, {@code
   * measure} times the designed splits not yet measured, {@code oracle} judges HETERO's boundaries.
   */
  HeteroCostModel get(OpGraph graph, Function<OpCost[], ProfiledKernels> profile,
      Function<Placement, Measurement> measure, Supplier<BoundaryOracle> oracle) {
    HeteroCostModel cached = models.get(graph);
    if (cached != null) {
      return cached;
    }
    OpCost[] opCosts = KernelProfiles.opCosts(graph, shapes);
    ProfiledKernels k = kernels.get(graph);
    if (k == null) {
      k = keep(graph, profile.apply(opCosts));
    }
    HeteroCostModel base = KernelProfiles.kernelModel(graph, opCosts, k.micros(), k.apart(), k.supported(), devices,
        shapes);
    if (!k.fitted() && devices.size() > 1) {
      DeviceSet all = DeviceSet.of(devices.stream().map(DeviceInfo::name).toArray(String[]::new));
      ProfiledKernels profiled = k;
      HeteroFit.Result fit = HeteroProfiling.fitCosts(graph, base, all, measure, profiled.design(),
          samples -> keep(graph, profiled.withDesign(samples)));
      k = keep(graph, kernels.get(graph).withFit(fit));
    }
    HeteroCostModel fitted = k.fitted() ? HeteroFit.apply(base, k.kernelScale(), k.costs(), k.requestMicros()) : base;
    HeteroCostModel model = fitted.withBoundaryOracle(oracle.get());
    models.put(graph, model);
    return model;
  }

  /** Holds {@code k} as {@code graph}'s measurements and hands them to its sink. */
  private ProfiledKernels keep(OpGraph graph, ProfiledKernels k) {
    kernels.put(graph, k);
    Consumer<String> sink = sinks.get(graph);
    if (sink != null) {
      sink.accept(k.toJson());
    }
    return k;
  }

  Optional<String> measurements(OpGraph graph) {
    return Optional.ofNullable(kernels.get(graph)).map(ProfiledKernels::toJson);
  }

  Optional<String> measured(OpGraph graph) {
    return Optional.ofNullable(kernels.get(graph)).map(ProfiledKernels::describe);
  }

  /** Whether building {@code graph}'s model still measures: no kernels yet, or designed splits not fitted. */
  boolean pending(OpGraph graph) {
    ProfiledKernels k = kernels.get(graph);
    return k == null || (!k.fitted() && devices.size() > 1);
  }

  Optional<FitError> error(OpGraph graph) {
    ProfiledKernels k = kernels.get(graph);
    return k == null ? Optional.empty() : FitError.of(k.fitErrors(), repeatNoise(k.design()));
  }

  /**
   * How far the repeats of one designed run differ: the median over the runs repeated of half their
   * spread relative to their median; NaN when no run was repeated. A planned gain within it is one the
   * profile cannot tell from noise.
   */
  static double repeatNoise(DesignSamples design) {
    java.util.List<Double> spreads = new java.util.ArrayList<>();
    for (DesignSamples.Sampled s : design.placements()) {
      double[] m = s.micros().stream().mapToDouble(Double::doubleValue).sorted().toArray();
      if (m.length >= 2 && m[0] > 0) {
        double median = m.length % 2 == 1 ? m[m.length / 2] : (m[m.length / 2 - 1] + m[m.length / 2]) / 2;
        spreads.add((m[m.length - 1] - m[0]) / 2 / median);
      }
    }
    if (spreads.isEmpty()) {
      return Double.NaN;
    }
    double[] w = spreads.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return w.length % 2 == 1 ? w[w.length / 2] : (w[w.length / 2 - 1] + w[w.length / 2]) / 2;
  }

  /**
   * Continues from saved {@code measurements} of {@code graph}.
   *
   * @throws IllegalArgumentException when they are of another model or other devices
   */
  void reuse(OpGraph graph, String measurements) {
    ProfiledKernels k = ProfiledKernels.fromJson(measurements);
    if (!k.fits(graph, devices.stream().map(DeviceInfo::name).toList())) {
      throw new IllegalArgumentException("the saved kernel times are of another model or other devices ("
          + String.join(",", k.devices()) + ")");
    }
    kernels.put(graph, k);
    models.remove(graph);
  }

  void progress(OpGraph graph, Consumer<String> sink) {
    sinks.put(graph, sink);
  }

  /** Forgets {@code graph}'s model (its file changed); what it was built from stays. */
  void forget(OpGraph graph) {
    models.remove(graph);
  }

  void clear() {
    models.clear();
  }
}
