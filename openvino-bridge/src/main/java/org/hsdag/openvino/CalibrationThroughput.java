package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ThroughputGain;

/**
 * What {@code hsdag calibrate} measures of a device's throughput: the device alone, compiled with
 * OpenVINO's throughput hint for N requests (as the openvino backend's throughput measurement and
 * {@code benchmark_app -hint throughput -nireq N} compile), with N = 1 … k requests in flight; and
 * the fit of those times into the profile's {@linkplain DeviceModel#throughputGain gain from requests in
 * flight} ({@link ThroughputGain}). The CPU plugin's streams under the hint are what this measures:
 * as many streams as its threads allow, at most the hint's request count (openvinotoolkit/openvino
 * src/plugins/intel_cpu/src/cpu_streams_calculation.cpp, {@code get_streams_info_table}), so a device
 * whose thread count is 1 (a test device's default) has one stream and no gain. Stateless.
 */
public final class CalibrationThroughput {
  /** Interleaved passes over N = 1 … k, so a change of the machine's load falls on every N alike. */
  static final int PASSES = 5;

  private CalibrationThroughput() {}

  /**
   * The median time per inference, ms, of the whole model on {@code device} with 1 … {@code maxRequests}
   * in flight (entry N - 1): one compile per N, then {@value #PASSES} interleaved passes over the N, each
   * one untimed round of N completions and about {@code runs / PASSES} timed completions, at least two rounds.
   */
  static List<Double> periods(OpenVinoRuntime.Model model, String device, int maxRequests, int runs, long seed) {
    if (maxRequests < 1 || runs < 1) {
      throw new IllegalArgumentException("Expected maxRequests >= 1 and runs >= 1");
    }
    List<OpenVinoRuntime.Compiled> compiled = new ArrayList<>();
    try {
      for (int n = 1; n <= maxRequests; n++) {
        OpenVinoRuntime.Compiled c = model.compileForThroughput(device, null, n);
        compiled.add(c);
        c.fillInputs(seed);
      }
      List<List<Double>> samples = new ArrayList<>();
      for (int n = 1; n <= maxRequests; n++) {
        samples.add(new ArrayList<>());
      }
      for (int pass = 0; pass < PASSES; pass++) {
        for (int n = 1; n <= maxRequests; n++) {
          int rounds = Math.max(2, Math.round((float) runs / (n * PASSES)));
          for (double s : compiled.get(n - 1).inferThroughput(n, 1, rounds)) {
            samples.get(n - 1).add(s);
          }
        }
      }
      List<Double> out = new ArrayList<>();
      for (List<Double> s : samples) {
        out.add(RuntimeCheck.median(s.stream().mapToDouble(Double::doubleValue).toArray()));
      }
      return List.copyOf(out);
    } finally {
      for (OpenVinoRuntime.Compiled c : compiled) {
        c.close();
      }
    }
  }

  /**
   * {@code profile} with each device's gain from requests in flight fitted to its run's measured times
   * (devices whose run has none keep theirs: records of earlier versions), and a line per fitted device
   * added to {@code notes} and to the profile's sources.
   */
  public static DeviceProfile withGains(DeviceProfile profile, CalibrationRecords records, List<String> notes) {
    DeviceProfile out = profile;
    List<String> added = new ArrayList<>();
    for (CalibrationRecords.DeviceRun run : records.devices()) {
      if (run.throughputPeriodsMillis().isEmpty() || profile.indexOf(run.device()) < 0) {
        continue;
      }
      List<Double> gain = ThroughputGain.fit(run.throughputPeriodsMillis());
      out = out.withDevice(out.device(run.device()).withThroughputGain(gain));
      added.add(describe(run.device(), run.throughputPeriodsMillis(), gain));
    }
    if (added.isEmpty()) {
      return out;
    }
    notes.addAll(added);
    List<String> sources = new ArrayList<>(out.sources());
    sources.addAll(added);
    return new DeviceProfile(out.name(), out.description(), sources, out.requestOverheadUs(), out.devices());
  }

  /** One line: the device's gain per requests in flight and the times it comes from. */
  static String describe(String device, List<Double> periodsMillis, List<Double> gain) {
    StringBuilder g = new StringBuilder();
    StringBuilder p = new StringBuilder();
    for (int n = 0; n < gain.size(); n++) {
      g.append(n == 0 ? "" : " ").append(String.format(Locale.ROOT, "x%.2f", gain.get(n)));
      p.append(n == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f", periodsMillis.get(n)));
    }
    return String.format(Locale.ROOT, "%s alone, throughput hint, 1..%d requests in flight: inferences/s %s over 1 in "
        + "flight (ms per inference %s)", device, gain.size(), g, p);
  }
}
