package org.hsdag.train;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.strategy.HsdagStrategy;
import org.hsdag.search.SearchContext;

/** Drives a strategy against a backend the way the tuner does (propose, measure, observe). */
public final class Runs {
  private Runs() {}

  public static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU");
  public static final MeasurementProtocol ONE_RUN = new MeasurementProtocol(0, 1, org.hsdag.backend.Statistic.MEDIAN, 1,
      0);

  public static SearchContext context(OpGraph g, LatencyBackend backend, int budget, long seed) {
    return SearchContext.builder(g, DEVICES, backend.supports(g, DEVICES)).budget(budget).seed(seed).protocol(ONE_RUN)
        .backendName(backend.name()).build();
  }

  /** Measured latencies (NaN for failures) and proposals of {@code steps} steps. */
  public record Trace(List<Placement> placements, List<Double> latencies) {
    public double best() {
      return latencies.stream().filter(d -> !d.isNaN()).mapToDouble(d -> d).min().orElse(Double.NaN);
    }
  }

  public static Trace run(HsdagStrategy s, OpGraph g, LatencyBackend backend, int steps) {
    List<Placement> ps = new ArrayList<>();
    List<Double> ls = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      Placement p = s.propose();
      Measurement m = backend.measure(g, p, ONE_RUN);
      s.observe(p, m);
      ps.add(p);
      ls.add(m.ok() ? m.latencyMillis() : Double.NaN);
    }
    return new Trace(ps, ls);
  }

  public static HsdagStrategy started(HsdagConfig config, OpGraph g, LatencyBackend backend, long seed) {
    HsdagStrategy s = new HsdagStrategy(config);
    s.init(context(g, backend, 300, seed));
    return s;
  }
}
