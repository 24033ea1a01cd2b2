package org.hsdag.cost;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.hsdag.memory.DeviceMemory;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One simulated device of a {@link DeviceProfile}, as written in the profile JSON.
 *
 * <p>Op time on this device = max(FLOPs / (peak · efficiency[class] · occupancy), bytes / memory
 * bandwidth) + launch overhead, where occupancy is 1 except for convolutions smaller than
 * {@code fullOccupancyOutputs} (see {@link #occupancy}). A tensor crossing a HETERO sub-model boundary to or from this device pays
 * {@code linkLatencyUs + bytes / linkBandwidthGBs} (the device side of the copy through host
 * memory; a CPU has no link cost, an iGPU sharing host memory a small one, a dGPU crosses PCIe).
 *
 * @param name OpenVINO device name ({@code CPU}, {@code GPU.0}, {@code GPU.1}, {@code NPU})
 * @param fullName the {@code ov::device::full_name} the real plugin reports
 * @param kind {@code CPU}, {@code iGPU}, {@code dGPU} or {@code NPU} (informational)
 * @param peakGflops peak dense throughput in GFLOP/s at the precision the plugin uses by default
 * @param memoryBandwidthGBs device memory bandwidth in GB/s
 * @param launchOverheadUs fixed cost of every kernel (primitive) in microseconds
 * @param subModelOverheadUs fixed cost of every HETERO sub-model compiled for this device (µs)
 * @param linkLatencyUs latency of one boundary-tensor copy between this device and host memory (µs)
 * @param linkBandwidthGBs bandwidth of that copy in GB/s; 0 means no copy is needed (host memory)
 * @param efficiency fraction of peak reached per {@link OpClass} name; key {@code default} for the
 *     rest. Values in (0, 2]: above 1 means faster than the direct FLOP count at the nominal peak
 *     (calibration artefacts or algorithmic savings such as Winograd)
 * @param unsupportedOps op types this device's plugin cannot compile
 * @param dynamicShapes whether the device runs ops with dynamic dimensions (NPUs do not)
 * @param fusion whether element-wise ops directly after a convolution or MatMul on the same
 *     sub-model are fused into it (no launch, no memory traffic)
 * @param fullOccupancyOutputs output elements a convolution needs to keep every lane of the device
 *     busy; a smaller convolution reaches only the fraction {@code outputs / fullOccupancyOutputs}
 *     of its efficiency (a big GPU at batch 1 on 17x17 or 8x8 feature maps). 0 (the default)
 *     disables it, as for CPUs, which fill their few lanes with any real layer. MatMuls are exempt:
 *     at batch-1 transformer shapes the plugins use GEMV / split-K kernels that parallelise over
 *     the weights, not the outputs
 * @param memory the device's memory capacity and runtime overhead with their source; null when the profile
 *     does not say (not limited)
 * @param throughputGain the device's measured gain from requests in flight when it runs the model alone
 *     ({@link ThroughputGain}: entry N - 1 is its inferences/s with N in flight over those with one);
 *     empty (absent in the file) when not measured: the simulator then runs one request at a time on it
 * @param aloneScale the factor on this device's kernels when it runs the whole model alone rather than a
 *     sub-model of a split ({@link HeteroDevice#aloneScale}; a test device's thread count holds alone only);
 *     null (absent in the file) for 1
 */
public record DeviceModel(
    String name,
    String fullName,
    String kind,
    double peakGflops,
    double memoryBandwidthGBs,
    double launchOverheadUs,
    double subModelOverheadUs,
    double linkLatencyUs,
    double linkBandwidthGBs,
    Map<String, Double> efficiency,
    List<String> unsupportedOps,
    boolean dynamicShapes,
    boolean fusion,
    double fullOccupancyOutputs,
    DeviceMemory memory,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> throughputGain,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double aloneScale) {

  /** A device that runs alone as inside a split. */
  public DeviceModel(String name, String fullName, String kind, double peakGflops, double memoryBandwidthGBs,
      double launchOverheadUs, double subModelOverheadUs, double linkLatencyUs, double linkBandwidthGBs,
      Map<String, Double> efficiency, List<String> unsupportedOps, boolean dynamicShapes, boolean fusion,
      double fullOccupancyOutputs, DeviceMemory memory, List<Double> throughputGain) {
    this(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs, linkLatencyUs,
        linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs, memory,
        throughputGain, null);
  }

  /** A device without a measured {@linkplain #throughputGain gain from requests in flight}. */
  public DeviceModel(String name, String fullName, String kind, double peakGflops, double memoryBandwidthGBs,
      double launchOverheadUs, double subModelOverheadUs, double linkLatencyUs, double linkBandwidthGBs,
      Map<String, Double> efficiency, List<String> unsupportedOps, boolean dynamicShapes, boolean fusion,
      double fullOccupancyOutputs, DeviceMemory memory) {
    this(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs, linkLatencyUs,
        linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs, memory, null);
  }

  /** A device whose memory the profile does not state. */
  public DeviceModel(String name, String fullName, String kind, double peakGflops, double memoryBandwidthGBs,
      double launchOverheadUs, double subModelOverheadUs, double linkLatencyUs, double linkBandwidthGBs,
      Map<String, Double> efficiency, List<String> unsupportedOps, boolean dynamicShapes, boolean fusion,
      double fullOccupancyOutputs) {
    this(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs, linkLatencyUs,
        linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs, null);
  }

  /** A device without an occupancy limit ({@code fullOccupancyOutputs} 0). */
  public DeviceModel(String name, String fullName, String kind, double peakGflops, double memoryBandwidthGBs,
      double launchOverheadUs, double subModelOverheadUs, double linkLatencyUs, double linkBandwidthGBs,
      Map<String, Double> efficiency, List<String> unsupportedOps, boolean dynamicShapes, boolean fusion) {
    this(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs, linkLatencyUs,
        linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, 0);
  }

  public DeviceModel {
    Objects.requireNonNull(name, "device name");
    fullName = fullName == null ? name : fullName;
    kind = kind == null ? "" : kind;
    efficiency = efficiency == null ? Map.of() : Map.copyOf(efficiency);
    unsupportedOps = unsupportedOps == null ? List.of() : List.copyOf(unsupportedOps);
    throughputGain = ThroughputGain.checked(name, throughputGain);
    if (aloneScale != null && (!(aloneScale > 0) || Double.isInfinite(aloneScale))) {
      throw new IllegalArgumentException("device " + name + ": aloneScale must be > 0 (got " + aloneScale + ")");
    }
    aloneScale = aloneScale == null || aloneScale == 1.0 ? null : aloneScale;
    requirePositive(name, "peakGflops", peakGflops);
    requirePositive(name, "memoryBandwidthGBs", memoryBandwidthGBs);
    requireNonNegative(name, "launchOverheadUs", launchOverheadUs);
    requireNonNegative(name, "subModelOverheadUs", subModelOverheadUs);
    requireNonNegative(name, "linkLatencyUs", linkLatencyUs);
    requireNonNegative(name, "linkBandwidthGBs", linkBandwidthGBs);
    requireNonNegative(name, "fullOccupancyOutputs", fullOccupancyOutputs);
    for (Map.Entry<String, Double> e : efficiency.entrySet()) {
      if (!e.getKey().equals("default")) {
        try {
          OpClass.valueOf(e.getKey().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException ex) {
          throw new IllegalArgumentException("device " + name + ": unknown op class '" + e.getKey()
              + "' in efficiency (known: default, " + java.util.Arrays.toString(OpClass.values()) + ")");
        }
      }
      if (!(e.getValue() > 0 && e.getValue() <= 2)) {
        throw new IllegalArgumentException("device " + name + ": efficiency of " + e.getKey()
            + " must be in (0, 2] (got " + e.getValue() + ")");
      }
    }
  }

  /** This device with {@code m} as its memory (null: not stated). */
  public DeviceModel withMemory(DeviceMemory m) {
    return new DeviceModel(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs,
        linkLatencyUs, linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs, m,
        throughputGain, aloneScale);
  }

  /** This device with {@code gain} as its {@linkplain #throughputGain gain from requests in flight} (empty: none). */
  public DeviceModel withThroughputGain(List<Double> gain) {
    return new DeviceModel(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs,
        linkLatencyUs, linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs,
        memory,
        gain, aloneScale);
  }

  /** This device with {@code scale} on its kernels when it runs the model alone ({@link #aloneScale}). */
  public DeviceModel withAloneScale(double scale) {
    return new DeviceModel(name, fullName, kind, peakGflops, memoryBandwidthGBs, launchOverheadUs, subModelOverheadUs,
        linkLatencyUs, linkBandwidthGBs, efficiency, unsupportedOps, dynamicShapes, fusion, fullOccupancyOutputs,
        memory, throughputGain, scale);
  }

  /** The factor on this device's kernels when it runs the model alone: {@link #aloneScale}, or 1. */
  public double aloneFactor() {
    return aloneScale == null ? 1.0 : aloneScale;
  }

  /** Efficiency of {@code cls}: its own entry, else {@code default}, else 0.5. */
  public double efficiencyOf(OpClass cls) {
    Double e = efficiency.get(cls.name());
    if (e == null) {
      e = efficiency.get(cls.name().toLowerCase(Locale.ROOT));
    }
    if (e == null) {
      e = efficiency.get("default");
    }
    return e == null ? 0.5 : e;
  }

  /**
   * Fraction of the device a kernel of class {@code cls} with {@code outputs} output elements keeps
   * busy: 1 unless it is a convolution smaller than {@link #fullOccupancyOutputs}.
   */
  public double occupancy(OpClass cls, double outputs) {
    boolean conv = cls == OpClass.CONVOLUTION || cls == OpClass.POINTWISE_CONVOLUTION
        || cls == OpClass.GROUP_CONVOLUTION;
    if (!conv || fullOccupancyOutputs <= 0 || outputs >= fullOccupancyOutputs) {
      return 1;
    }
    return Math.max(outputs, 1) / fullOccupancyOutputs;
  }

  /** Whether this device can run an op of {@code type} (with dynamic dimensions if {@code dynamic}). */
  public boolean canRun(String type, boolean dynamic) {
    return !unsupportedOps.contains(type) && (dynamicShapes || !dynamic);
  }

  /** Why {@link #canRun} is false, for failure messages. */
  public String whyNot(String type, boolean dynamic) {
    if (unsupportedOps.contains(type)) {
      return name + " does not support op type " + type;
    }
    return name + " cannot run ops with dynamic shapes";
  }

  private static void requirePositive(String dev, String field, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("device " + dev + ": " + field + " must be > 0 (got " + v + ")");
    }
  }

  private static void requireNonNegative(String dev, String field, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("device " + dev + ": " + field + " must be >= 0 (got " + v + ")");
    }
  }
}
