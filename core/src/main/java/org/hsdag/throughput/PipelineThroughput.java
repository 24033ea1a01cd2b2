package org.hsdag.throughput;

import java.util.PriorityQueue;
import org.hsdag.cost.ThroughputGain;

/**
 * The throughput of a placement's {@link PipelineStages} with {@code requests} inferences in flight
 * (a closed loop: a finished request starts again at once, as a benchmark with that many requests
 * does). Each device is one server that runs the stages queued on it first come, first served, so
 * device A works on request 2 while device B finishes request 1; the request overhead is host time
 * that occupies no device.
 *
 * <p>{@link #simulatedPeriodMicros} runs that system event by event (deterministic times) and
 * measures the steady-state time between completions; {@link #boundMicros} is the analytic bound
 * the planner optimises: the busiest device's load per inference, or the latency over the
 * requests in flight (Little's law), whichever is larger. No schedule beats the bound in the long
 * run, so a finite window that happens to measure below it (work done before the window) reports
 * the bound.
 *
 * <p>An unsplit placement whose device has a measured {@linkplain PipelineStages#gain gain from
 * requests in flight} (the CPU plugin's streams under the throughput hint) is not one server: its
 * time per inference with N in flight is its latency over the gain at N, never below the latency
 * over N — the measured curve itself, as {@code hsdag calibrate} took it from the device alone.
 */
public final class PipelineThroughput {
  /** Completions before the measured window (per request in flight) and in it. */
  static final int WARMUP_ROUNDS = 8;
  static final int MEASURED_ROUNDS = 32;

  private PipelineThroughput() {}

  /** Time per inference at steady state bounded from below: max(busiest device's load, latency / requests), µs. */
  public static double boundMicros(PipelineStages stages, int devices, int requests) {
    requirePositive(requests);
    if (!stages.gain().isEmpty()) {
      return streamsMicros(stages, requests);
    }
    double busiest = 0;
    for (double load : stages.deviceLoads(devices)) {
      busiest = Math.max(busiest, load);
    }
    return Math.max(busiest, stages.latencyMicros() / requests);
  }

  /** Inferences per second of a time per inference in µs. */
  public static double perSecond(double periodMicros) {
    return 1e6 / periodMicros;
  }

  /**
   * Time per inference at steady state, µs: the time between the first and the last completion
   * of the measured window over the completions in between.
   */
  public static double simulatedPeriodMicros(PipelineStages stages, int requests) {
    requirePositive(requests);
    int n = stages.size();
    if (n == 0) {
      return stages.requestMicros() / requests;
    }
    if (!stages.gain().isEmpty()) {
      return streamsMicros(stages, requests);
    }
    int devices = 0;
    for (int s = 0; s < n; s++) {
      devices = Math.max(devices, stages.device(s) + 1);
    }
    double[] freeAt = new double[devices];
    // Events: (ready time, request, stage); ties by request then stage keep the run deterministic.
    PriorityQueue<double[]> ready = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0])
        : a[1] != b[1] ? Double.compare(a[1], b[1]) : Double.compare(a[2], b[2]));
    for (int r = 0; r < requests; r++) {
      ready.add(new double[] {stages.requestMicros(), r, 0});
    }
    int warmup = WARMUP_ROUNDS * requests;
    int window = MEASURED_ROUNDS * requests;
    int completed = 0;
    double first = Double.NaN;
    while (true) {
      double[] e = ready.poll();
      int s = (int) e[2];
      int d = stages.device(s);
      double start = Math.max(e[0], freeAt[d]);
      double end = start + stages.micros(s);
      freeAt[d] = end;
      if (s + 1 < n) {
        ready.add(new double[] {end, e[1], s + 1});
        continue;
      }
      completed++;
      if (completed == warmup) {
        first = end;
      } else if (completed == warmup + window) {
        return Math.max((end - first) / window, boundMicros(stages, devices, requests));
      }
      ready.add(new double[] {end + stages.requestMicros(), e[1], 0});
    }
  }

  /** An unsplit placement with its device's measured gain: latency / gain(N), at least latency / N. */
  private static double streamsMicros(PipelineStages stages, int requests) {
    double latency = stages.latencyMicros();
    return Math.max(latency / ThroughputGain.at(stages.gain(), requests), latency / requests);
  }

  private static void requirePositive(int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("requests in flight must be at least 1 (got " + requests + ")");
    }
  }
}
