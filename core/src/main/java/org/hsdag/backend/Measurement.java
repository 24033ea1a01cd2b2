package org.hsdag.backend;

import java.util.Objects;

/**
 * The outcome of timing one placement. A failed placement (an op on a device that cannot run it,
 * a compile or run error) is a value with a reason, never an exception.
 *
 * @param ok whether the placement ran
 * @param samplesMillis timed samples in milliseconds (empty when failed)
 * @param latencyMillis the protocol's statistic over the samples (NaN when failed)
 * @param ciLowMillis lower bound of the 95% confidence interval of that same statistic (NaN if unknown)
 * @param ciHighMillis upper bound of the 95% confidence interval of that same statistic (NaN if unknown)
 * @param subModels number of HETERO sub-models the placement compiles into (0 when unknown)
 * @param reason why it failed, or null
 * @param backend backend name, e.g. {@code sim} or {@code openvino}
 * @param profile profile name (sim) or machine description (openvino)
 * @param load the foreign load on the machine while it ran ({@link LoadWatchingBackend}), or null: not watched
 *     (the simulator: not applicable)
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out, never shared; stays a record for Jackson (cluster wire)
public record Measurement(
    boolean ok,
    double[] samplesMillis,
    double latencyMillis,
    double ciLowMillis,
    double ciHighMillis,
    int subModels,
    String reason,
    String backend,
    String profile,
    MeasurementLoad load) {

  public Measurement {
    samplesMillis = samplesMillis.clone();
    Objects.requireNonNull(backend);
    Objects.requireNonNull(profile);
    if (!ok && reason == null) {
      throw new IllegalArgumentException("a failed measurement needs a reason");
    }
  }

  /** A measurement without a load figure. */
  public Measurement(boolean ok, double[] samplesMillis, double latencyMillis, double ciLowMillis, double ciHighMillis,
      int subModels, String reason, String backend, String profile) {
    this(ok, samplesMillis, latencyMillis, ciLowMillis, ciHighMillis, subModels, reason, backend, profile, null);
  }

  /** The same measurement, taken under {@code l}. */
  public Measurement withLoad(MeasurementLoad l) {
    return new Measurement(ok, samplesMillis, latencyMillis, ciLowMillis, ciHighMillis, subModels, reason, backend,
        profile, l);
  }

  @Override
  public double[] samplesMillis() {
    return samplesMillis.clone();
  }

  /** A successful measurement: latency by {@code protocol}, with the 95% interval of that statistic. */
  public static Measurement of(double[] samplesMillis, MeasurementProtocol protocol, int subModels, String backend,
      String profile) {
    double latency = protocol.reduce(samplesMillis);
    double[] ci = protocol.interval(samplesMillis);
    return new Measurement(true, samplesMillis, latency, ci[0], ci[1], subModels, null, backend, profile);
  }

  public static Measurement failed(String reason, String backend, String profile) {
    return new Measurement(false, new double[0], Double.NaN, Double.NaN, Double.NaN, 0, reason, backend, profile);
  }

  /** Latency in seconds (for rewards). */
  public double latencySeconds() {
    return latencyMillis / 1000.0;
  }
}
