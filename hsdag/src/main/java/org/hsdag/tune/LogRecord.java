package org.hsdag.tune;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementLoad;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * One line of a run's {@code log.jsonl}. {@code type} is {@code header} (a run or a resumed run
 * starts; {@code info} holds the configuration fingerprint), {@code measurement} (one timed or
 * cached placement; {@code status} ok or failed, with the {@code reason}) or {@code footer}
 * ({@code status} completed, interrupted or failed), {@code measuring} (a search step's placement about to be measured,
 * written before the backend runs it). A log
 * without a footer after its last header belongs to a run that was killed.
 *
 * <p>A measurement record keeps the whole placement ({@code assignment}: one character per node,
 * the device index in {@link #ALPHABET}) and every sample, so resume can replay it exactly and
 * {@code report} needs nothing else. Absent values are omitted; NaN is written as absent. {@code load}
 * (the foreign load during a real measurement, {@link MeasurementLoad}) is absent in logs written
 * before it existed and on the simulator. {@code predicted_ms} (the run's cost model's figure for the placement,
 * uncorrected, so the live view can show how far it is trusted) is absent without a cost model and in older logs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record LogRecord(
    String type,
    String time,
    Double elapsedS,
    Integer step,
    String phase,
    Integer round,
    String candidate,
    String placement,
    String assignment,
    Map<String, Integer> opsPerDevice,
    Boolean cached,
    Boolean ok,
    Double latencyMs,
    List<Double> samplesMs,
    Double ciLowMs,
    Double ciHighMs,
    Integer subModels,
    String statistic,
    String reason,
    String backend,
    String profile,
    Double bestMs,
    String status,
    Map<String, Object> info,
    MeasurementLoad load,
    Double predictedMs) {

  /** Device index alphabet of {@link #assignment()} (63 devices at most, as in SupportMatrix). */
  public static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";

  public static final String HEADER = "header";
  public static final String MEASUREMENT = "measurement";
  public static final String FOOTER = "footer";
  /** Written before a search step's placement goes to the backend; a step without its measurement record after it
   * is one the run did not survive (e.g. a native crash in the tune's own process). */
  public static final String MEASURING = "measuring";

  public static final String PHASE_BASELINE = "baseline";
  public static final String PHASE_SEARCH = "search";
  public static final String PHASE_FINAL = "final";

  public LogRecord {
    samplesMs = samplesMs == null ? null : List.copyOf(samplesMs);
  }

  public static LogRecord header(String time, double elapsedS, Map<String, Object> info) {
    return new LogRecord(HEADER, time, elapsedS, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null, null, null, info, null, null);
  }

  public static LogRecord footer(String time, double elapsedS, String status, Double bestMs, Map<String, Object> info) {
    return new LogRecord(FOOTER, time, elapsedS, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null, bestMs, status, info, null, null);
  }

  /** The marker of search step {@code step} about to measure {@code placement}. */
  public static LogRecord measuring(String time, double elapsedS, int step, Placement placement) {
    return new LogRecord(MEASURING, time, elapsedS, step, null, null, null, placement.hashHex(),
        encode(placement), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null);
  }

  /** A measurement record of {@code placement}. */
  public static LogRecord measurement(String time, double elapsedS, Integer step, String phase, Integer round,
      String candidate, Placement placement, Measurement m, boolean cached, String statistic, double bestMs) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    int[] c = placement.countsPerDevice();
    for (int d = 0; d < c.length; d++) {
      counts.put(placement.devices().name(d), c[d]);
    }
    return new LogRecord(MEASUREMENT, time, elapsedS, step, phase, round, candidate, placement.hashHex(),
        encode(placement), counts, cached, m.ok(), nanToNull(m.latencyMillis()),
        Arrays.stream(m.samplesMillis()).boxed().toList(),
        nanToNull(m.ciLowMillis()), nanToNull(m.ciHighMillis()), m.subModels(), statistic, m.reason(),
        m.backend(), m.profile(), nanToNull(bestMs), m.ok() ? "ok" : "failed", null, m.load(), null);
  }

  /** This record with the run's cost model's prediction of its placement (ms), taken before it was measured. */
  public LogRecord withPredictedMs(double ms) {
    return new LogRecord(type, time, elapsedS, step, phase, round, candidate, placement, assignment, opsPerDevice,
        cached, ok, latencyMs, samplesMs, ciLowMs, ciHighMs, subModels, statistic, reason, backend, profile, bestMs,
        status, info, load, Double.isFinite(ms) && ms > 0 ? ms : null);
  }

  /** The measurement exactly as it was observed. */
  public Measurement toMeasurement() {
    if (!Boolean.TRUE.equals(ok)) {
      return Measurement.failed(reason == null ? "failed" : reason, backend, profile).withLoad(load);
    }
    return new Measurement(true,
        samplesMs == null ? new double[0] : samplesMs.stream().mapToDouble(Double::doubleValue).toArray(),
        nullToNan(latencyMs),
        nullToNan(ciLowMs), nullToNan(ciHighMs), subModels == null ? 0 : subModels, reason, backend, profile, load);
  }

  /** The logged placement on {@code devices} (the run's device set). */
  public Placement toPlacement(DeviceSet devices) {
    return decode(assignment, devices);
  }

  public boolean hasMeasurement() {
    return MEASUREMENT.equals(type);
  }

  public boolean succeeded() {
    return Boolean.TRUE.equals(ok);
  }

  public static String encode(Placement p) {
    StringBuilder sb = new StringBuilder(p.size());
    for (int v = 0; v < p.size(); v++) {
      sb.append(ALPHABET.charAt(p.deviceOf(v)));
    }
    return sb.toString();
  }

  public static Placement decode(String assignment, DeviceSet devices) {
    int[] a = new int[assignment.length()];
    for (int v = 0; v < a.length; v++) {
      a[v] = ALPHABET.indexOf(assignment.charAt(v));
    }
    return new Placement(devices, a);
  }

  private static Double nanToNull(double x) {
    return Double.isNaN(x) ? null : x;
  }

  private static double nullToNan(Double x) {
    return x == null ? Double.NaN : x;
  }
}
