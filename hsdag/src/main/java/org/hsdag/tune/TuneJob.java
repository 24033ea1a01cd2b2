package org.hsdag.tune;

import java.nio.file.Path;
import java.util.Objects;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.search.SearchStrategy;

/**
 * What one {@link Tuner} run needs.
 *
 * @param backend measures the placements
 * @param graph the model
 * @param config the run's settings, as its manifest records them
 * @param strategy proposes the placements
 * @param runDir the run folder (log, checkpoints, results)
 * @param listener the run's progress, or null for none
 * @param proxy the run's cost model strategies may plan with, or null for none ({@link TuneConfig#proxy()})
 * @param memory device capacities no measured placement may exceed, or null for the proxy's (if any); the
 *     best placement's memory per device goes into {@code result.json}
 */
public record TuneJob(LatencyBackend backend, OpGraph graph, TuneConfig config, SearchStrategy strategy, Path runDir,
    TuneListener listener, PlacementProxy proxy, MemoryCheck memory) {
  public TuneJob {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(graph, "graph");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(runDir, "runDir");
    listener = listener == null ? TuneListener.NONE : listener;
    memory = memory != null ? memory : proxy == null ? null : proxy.memory().orElse(null);
  }
}
