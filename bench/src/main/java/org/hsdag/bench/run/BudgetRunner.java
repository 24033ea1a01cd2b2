package org.hsdag.bench.run;

import java.util.Arrays;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchStrategy;

/**
 * Drives one {@link SearchStrategy} against a backend for a fixed number of measurements (fewer
 * when the strategy finishes early), the loop {@code bench} uses so every method gets the same
 * budget. Every proposal is measured and counts against the budget.
 */
public final class BudgetRunner {
  private final LatencyBackend backend;
  private final MeasurementProtocol protocol;

  public BudgetRunner(LatencyBackend backend, MeasurementProtocol protocol) {
    this.backend = backend;
    this.protocol = protocol;
  }

  /** The search context a strategy gets for {@code graph} on {@code devices}. */
  public SearchContext context(OpGraph graph, DeviceSet devices, int budget, long seed) {
    SupportMatrix support = backend.supports(graph, devices);
    return new SearchContext(graph, devices, support, budget, seed, protocol, backend.name());
  }

  public RunTrace run(SearchStrategy strategy, SearchContext context) {
    return run(strategy.name(), strategy, context);
  }

  /** Runs {@code strategy} and labels the trace {@code method}. */
  public RunTrace run(String method, SearchStrategy strategy, SearchContext context) {
    long start = System.nanoTime();
    strategy.init(context);
    int budget = context.budget();
    double[] lat = new double[budget];
    double[] best = new double[budget];
    double bestMs = Double.POSITIVE_INFINITY;
    Placement bestP = null;
    int failures = 0;
    int used = 0;
    while (used < budget && !strategy.finished()) {
      Placement p = strategy.propose();
      Measurement m = backend.measure(context.graph(), p, protocol);
      strategy.observe(p, m);
      double ms = m.ok() ? m.latencyMillis() : Double.NaN;
      if (!m.ok()) {
        failures++;
      } else if (ms < bestMs) {
        bestMs = ms;
        bestP = p;
      }
      lat[used] = ms;
      best[used] = bestMs;
      used++;
    }
    long wall = (System.nanoTime() - start) / 1_000_000;
    return new RunTrace(method, context.seed(), Arrays.copyOf(lat, used), Arrays.copyOf(best, used), bestP, bestMs, failures, wall);
  }
}
