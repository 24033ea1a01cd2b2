package org.hsdag.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The placement-independent figures of one device in a {@link HeteroCostModel}: what a boundary
 * copy between the device and host memory costs and what starting a sub-model on it costs.
 *
 * @param name OpenVINO device name
 * @param linkLatencyUs fixed cost of one boundary-tensor copy to or from this device (µs)
 * @param linkMicrosPerByte inverse link bandwidth, µs per byte (0: no copy needed, host memory)
 * @param subModelOverheadUs fixed cost of every HETERO sub-model on this device (µs)
 * @param aloneScale the factor on this device's kernels when it runs the whole model alone rather than
 *     inside a split (a CPU twin's thread count holds alone but not beside a CPU sub-model); 1 when
 *     alike, and 0 (absent in a saved file) reads as 1
 * @param throughputGain the device's measured gain from requests in flight when it runs the model alone
 *     ({@link ThroughputGain}, {@link DeviceModel#throughputGain}); empty when not measured
 */
public record HeteroDevice(String name, double linkLatencyUs, double linkMicrosPerByte, double subModelOverheadUs,
    double aloneScale, List<Double> throughputGain) {
  /** A device that runs alike alone and inside a split. */
  public HeteroDevice(String name, double linkLatencyUs, double linkMicrosPerByte, double subModelOverheadUs) {
    this(name, linkLatencyUs, linkMicrosPerByte, subModelOverheadUs, 1.0);
  }

  /** A device without a measured gain from requests in flight. */
  public HeteroDevice(String name, double linkLatencyUs, double linkMicrosPerByte, double subModelOverheadUs,
      double aloneScale) {
    this(name, linkLatencyUs, linkMicrosPerByte, subModelOverheadUs, aloneScale, List.of());
  }

  public HeteroDevice {
    throughputGain = ThroughputGain.checked(name, throughputGain);
    aloneScale = aloneScale == 0 ? 1.0 : aloneScale;
    if (!(aloneScale > 0) || Double.isInfinite(aloneScale)) {
      throw new IllegalArgumentException("device " + name + ": aloneScale must be > 0 (got " + aloneScale + ")");
    }
    Objects.requireNonNull(name, "device name");
    requireFinite(name, "linkLatencyUs", linkLatencyUs);
    requireFinite(name, "linkMicrosPerByte", linkMicrosPerByte);
    requireFinite(name, "subModelOverheadUs", subModelOverheadUs);
  }

  /** The link and sub-model figures of a sim profile device. */
  public static HeteroDevice of(DeviceModel d) {
    double perByte = d.linkBandwidthGBs() == 0 ? 0 : 1.0 / (d.linkBandwidthGBs() * 1e3);
    return new HeteroDevice(d.name(), d.linkLatencyUs(), perByte, d.subModelOverheadUs(), d.aloneFactor(),
        d.throughputGain());
  }

  /** The same costs with {@code gain} as the gain from requests in flight. */
  public HeteroDevice withThroughputGain(List<Double> gain) {
    return new HeteroDevice(name, linkLatencyUs, linkMicrosPerByte, subModelOverheadUs, aloneScale, gain);
  }

  /** Every device of {@code profile}, in profile order. */
  public static List<HeteroDevice> of(DeviceProfile profile) {
    List<HeteroDevice> out = new ArrayList<>();
    for (DeviceModel d : profile.devices()) {
      out.add(of(d));
    }
    return out;
  }

  /** Microseconds of one boundary copy of {@code bytes} between this device and host memory. */
  public double copyMicros(double bytes) {
    return linkLatencyUs + bytes * linkMicrosPerByte;
  }

  private static void requireFinite(String dev, String field, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("device " + dev + ": " + field + " must be >= 0 (got " + v + ")");
    }
  }
}
