package org.hsdag.cost;

import java.util.ArrayList;
import java.util.List;

/**
 * A device's measured gain from requests in flight when it runs a model alone: entry {@code N - 1}
 * is its inferences per second with N requests in flight over those with one, so entry 0 is 1. The
 * CPU plugin runs parallel streams under OpenVINO's throughput hint (as many as its threads and the
 * hint's request count allow: openvinotoolkit/openvino src/plugins/intel_cpu/src/cpu_streams_calculation.cpp,
 * {@code get_streams_info_table}), so a CPU alone is not one request at a time; {@code hsdag calibrate}
 * measures the curve per device and a profile carries it ({@link DeviceModel#throughputGain}). An
 * empty curve means no gain is known: the simulator keeps its one-request-at-a-time device.
 * Stateless.
 */
public final class ThroughputGain {
  private ThroughputGain() {}

  /**
   * The gain curve of the times per inference measured with 1, 2, … requests in flight ({@code
   * periodsMillis.get(N - 1)}): the first period over each, rounded to 3 decimals.
   *
   * @throws IllegalArgumentException when a period is not finite and positive
   */
  public static List<Double> fit(List<Double> periodsMillis) {
    List<Double> gain = new ArrayList<>();
    for (double p : periodsMillis) {
      if (!(p > 0) || Double.isInfinite(p)) {
        throw new IllegalArgumentException("a time per inference must be finite and > 0 (got " + p + ")");
      }
      gain.add(gain.isEmpty() ? 1.0 : Math.round(periodsMillis.get(0) / p * 1000) / 1000.0);
    }
    return List.copyOf(gain);
  }

  /**
   * The gain with {@code requests} in flight: the curve's entry, the last entry beyond the curve
   * (no more gain than measured), 1 for an empty curve.
   */
  public static double at(List<Double> gain, int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("requests in flight must be at least 1 (got " + requests + ")");
    }
    return gain.isEmpty() ? 1.0 : gain.get(Math.min(requests, gain.size()) - 1);
  }

  /**
   * {@code gain} checked for a profile's device {@code device}: null reads as empty; every entry
   * finite and positive, the first 1.
   *
   * @throws IllegalArgumentException naming the device and the bad entry
   */
  public static List<Double> checked(String device, List<Double> gain) {
    if (gain == null) {
      return List.of();
    }
    for (Double g : gain) {
      if (g == null || !(g > 0) || g.isInfinite()) {
        throw new IllegalArgumentException("device " + device + ": throughputGain entries must be > 0 (got " + g + ")");
      }
    }
    if (!gain.isEmpty() && Math.abs(gain.get(0) - 1) > 1e-9) {
      throw new IllegalArgumentException(
          "device " + device + ": throughputGain starts with 1 request in flight, gain 1 (got " + gain.get(0) + ")");
    }
    return List.copyOf(gain);
  }
}
