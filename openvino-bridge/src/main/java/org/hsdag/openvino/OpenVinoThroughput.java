package org.hsdag.openvino;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;

/**
 * The openvino backend's throughput measurement ({@link org.hsdag.backend.ThroughputMeasurement}):
 * the placement's affinities are set as for a latency measurement, the model is compiled on
 * {@code HETERO:<devices>} with OpenVINO's throughput hint for N requests (as {@code benchmark_app
 * -hint throughput -nireq N} compiles), and N asynchronous infer requests are kept in flight
 * ({@code hsdag_ov_infer_throughput}: {@code start_async} with completion callbacks). HETERO chains
 * each request's sub-requests asynchronously, so a split may pipeline across its devices; what it
 * does is measured, not assumed. A sample is the time per inference of one round of N completions.
 */
final class OpenVinoThroughput {
  private OpenVinoThroughput() {}

  /**
   * Measures {@code placement} with {@code requests} in flight on the backend's model of {@code
   * graph} on the backend's {@code devices}. A placement that cannot run, or a
   * model OpenVINO cannot read, is a failed measurement. The phases are timed as {@link
   * OpenVinoBackend#measureWithCost} times them (infer: filling the inputs and every round), and
   * {@code stage} follows them for a timeout's reason.
   */
  static MeasurementCost measure(Supplier<OpenVinoRuntime.Model> model, OpGraph graph,
      Placement placement, MeasurementProtocol protocol, int requests, List<DeviceInfo> devices,
      OpenVinoOptions options, String profile, MeasurementDeadline.Stage stage) {
    if (requests < 1) {
      throw new IllegalArgumentException("requests in flight must be at least 1 (got " + requests + ")");
    }
    long[] t = {System.nanoTime(), 0, 0};
    Set<String> available = devices.stream().map(DeviceInfo::name).collect(Collectors.toCollection(LinkedHashSet::new));
    Map<String, String> affinities;
    try {
      affinities = new HeteroAffinity(graph).nameMap(placement);
    } catch (InvalidPlacementException e) {
      return cost(failed(e.getMessage(), profile), t);
    }
    for (String used : new LinkedHashSet<>(affinities.values())) {
      if (!available.contains(used)) {
        return cost(failed("device " + used + " is not available on this machine (available: "
            + String.join(",", available) + ")", profile), t);
      }
    }
    try {
      OpenVinoRuntime.Model m = model.get();
      HeteroAffinity.ModelFit fit = HeteroAffinity.fitToModel(affinities, m.opNames());
      if (!fit.problems().isEmpty()) {
        return cost(failed(String.join("; ", fit.problems()), profile), t);
      }
      m.setAffinities(fit.affinities());
      t[1] = System.nanoTime();
      stage.enter("compiling");
      try (OpenVinoRuntime.Compiled c = m.compileForThroughput(placement.devices().heteroString(), options.cacheDir(),
          requests)) {
        t[2] = System.nanoTime();
        stage.enter("inferring");
        c.fillInputs(options.seed());
        double[] samples = c.inferThroughput(requests, protocol.warmupRuns(), protocol.runs());
        return cost(Measurement.of(samples, protocol,
            SubModelCount.checked(c.reportedSubModels(), graph.nodeCount(), List.of()), OpenVinoBackend.NAME,
            profile), t);
      }
    } catch (RuntimeLostException e) {
      return cost(failed(e.getMessage() + " while " + stage.current(), profile), t);
    } catch (OpenVinoException | IllegalStateException e) {
      return cost(failed(e.getMessage(), profile), t);
    } catch (RuntimeException e) {
      // Never let one placement kill a tuning run.
      return cost(failed("unexpected error: " + e, profile), t);
    }
  }

  /** The phases of {@code t} (start, compile start, infer start; 0: not reached) up to now. */
  private static MeasurementCost cost(Measurement m, long[] t) {
    long end = System.nanoTime();
    double prepare = ((t[1] == 0 ? end : t[1]) - t[0]) / 1e6;
    double compile = t[1] == 0 ? 0 : ((t[2] == 0 ? end : t[2]) - t[1]) / 1e6;
    double infer = t[2] == 0 ? 0 : (end - t[2]) / 1e6;
    return new MeasurementCost(m, prepare, compile, infer);
  }

  private static Measurement failed(String reason, String profile) {
    return Measurement.failed(reason, OpenVinoBackend.NAME, profile);
  }
}
