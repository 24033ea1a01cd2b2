package org.hsdag.openvino;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.cost.HeteroFit;
import org.hsdag.ir.OpGraph;

/**
 * What the OpenVINO backend measured to build a graph's cost model: per-node kernel time and
 * support on each device. Saved with a run, so that a resumed run plans on the same numbers as
 * the interrupted one did (profiling again would give other numbers, so the warm start would
 * propose other placements than the log holds).
 *
 * @param devices device names, in the backend's order
 * @param nodes the graph's node names, in node order (to refuse a table of another model)
 * @param micros {@code micros[d][v]}: kernel time of node v on device d, µs
 * @param supported {@code supported[d][v]}: whether device d runs node v
 * @param kernelScale per device, the fitted factor on the profiled times ({@link HeteroFit}); null before the fit
 * @param costs per device, the fitted boundary-copy and sub-model start costs; null before the fit
 * @param requestMicros the fitted per-request overhead
 * @param fitErrors the fitted model's relative error on each designed placement it was fitted to (predicted /
 *     measured - 1); empty before the fit, or for a table saved before errors were kept
 * @param design the designed-split measurements taken for the fit so far (a build stopped before the fit continues
 *     from them); {@link DesignSamples#NONE} when none, or for a table saved before they were kept
 * @param apart {@code apart[d][v]}: kernel time of node v on device d with the FakeQuantize that quantizes its input
 *     on another device ({@link HeteroProfiling.Kernels#apart}); null when the model has none
 */
@SuppressWarnings("ArrayRecordComponent") // rows copied in and out, never shared; a record for its JSON form
public record ProfiledKernels(List<String> devices, List<String> nodes, double[][] micros, boolean[][] supported,
    double[] kernelScale, List<HeteroDevice> costs, double requestMicros, List<Double> fitErrors,
    DesignSamples design, double[][] apart) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Kernel times and support only, nothing fitted yet. */
  public ProfiledKernels(List<String> devices, List<String> nodes, double[][] micros, boolean[][] supported) {
    this(devices, nodes, micros, supported, null, null, 0, List.of(), DesignSamples.NONE, null);
  }

  public ProfiledKernels {
    devices = List.copyOf(devices);
    nodes = List.copyOf(nodes);
    kernelScale = kernelScale == null ? null : kernelScale.clone();
    costs = costs == null ? null : List.copyOf(costs);
    fitErrors = fitErrors == null ? List.of() : List.copyOf(fitErrors);
    design = design == null ? DesignSamples.NONE : design;
    if ((kernelScale != null && kernelScale.length != devices.size())
        || (costs != null && costs.size() != devices.size())) {
      throw new IllegalArgumentException("profiled kernels: one fitted value per device expected");
    }
    if (micros.length != devices.size() || supported.length != devices.size()) {
      throw new IllegalArgumentException("profiled kernels: one row per device expected");
    }
    micros = micros.clone();
    supported = supported.clone();
    if (apart != null) {
      if (apart.length != devices.size()) {
        throw new IllegalArgumentException("profiled kernels: one row of unquantized times per device expected");
      }
      apart = apart.clone();
      for (int d = 0; d < apart.length; d++) {
        apart[d] = apart[d].clone();
        if (apart[d].length != nodes.size()) {
          throw new IllegalArgumentException("profiled kernels: one unquantized time per node expected");
        }
      }
    }
    for (int d = 0; d < micros.length; d++) {
      micros[d] = micros[d].clone();
      supported[d] = supported[d].clone();
      if (micros[d].length != nodes.size() || supported[d].length != nodes.size()) {
        throw new IllegalArgumentException("profiled kernels: one value per node expected");
      }
    }
  }

  @Override
  public double[][] micros() {
    double[][] copy = micros.clone();
    Arrays.setAll(copy, d -> micros[d].clone());
    return copy;
  }

  @Override
  public boolean[][] supported() {
    boolean[][] copy = supported.clone();
    Arrays.setAll(copy, d -> supported[d].clone());
    return copy;
  }

  @Override
  public double[][] apart() {
    if (apart == null) {
      return null;
    }
    double[][] copy = apart.clone();
    Arrays.setAll(copy, d -> apart[d].clone());
    return copy;
  }

  /** The same kernels with {@code apart} as the unquantized times. */
  public ProfiledKernels withApart(double[][] unquantized) {
    return new ProfiledKernels(devices, nodes, micros, supported, kernelScale, costs, requestMicros, fitErrors, design,
        unquantized);
  }

  @Override
  public double[] kernelScale() {
    return kernelScale == null ? null : kernelScale.clone();
  }

  /** Whether HETERO's costs have been fitted to designed measurements ({@link #withFit}). */
  public boolean fitted() {
    return kernelScale != null && costs != null;
  }

  /** The same kernels with the fit's kernel scales, copy, start and request costs. */
  public ProfiledKernels withFit(HeteroFit.Result fit) {
    List<Double> errors = new java.util.ArrayList<>();
    for (int k = 0; k < fit.observations().size(); k++) {
      errors.add(fit.error(k));
    }
    return new ProfiledKernels(devices, nodes, micros, supported, fit.kernelScale(), fit.costs(), fit.requestMicros(),
        errors, design, apart);
  }

  /** The same kernels with the designed-split measurements taken so far. */
  public ProfiledKernels withDesign(DesignSamples samples) {
    return new ProfiledKernels(devices, nodes, micros, supported, kernelScale, costs, requestMicros, fitErrors,
        samples, apart);
  }

  /**
   * What these hold, for the user: {@code kernel times on CPU, CPU2 and 17 of 42 designed-split measurements}, or
   * {@code ... and the fit to 14 designed splits}.
   */
  public String describe() {
    String kernels = "kernel times on " + String.join(", ", devices);
    if (fitted()) {
      return kernels + (fitErrors.isEmpty() ? " and the fitted split costs"
          : " and the fit to " + fitErrors.size() + " designed splits");
    }
    return design.measurements() == 0 ? kernels
        : kernels + " and " + design.measurements() + " of " + design.planned() + " designed-split measurements";
  }

  /** Whether these were measured on {@code graph} with exactly {@code deviceNames}. */
  public boolean fits(OpGraph graph, List<String> deviceNames) {
    return devices.equals(deviceNames) && nodes.equals(graph.nodes().stream().map(n -> n.name()).toList());
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Parses {@link #toJson()}'s output.
   *
   * @throws IllegalArgumentException when the text is not such a table
   */
  public static ProfiledKernels fromJson(String json) {
    try {
      return JSON.readValue(json, ProfiledKernels.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a profiled-kernel table: " + e.getOriginalMessage());
    }
  }
}
