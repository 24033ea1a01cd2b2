package org.hsdag.search;

import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.LatencyModel;

/** Configures a {@link SearchEngine}. */
public final class SearchEngineBuilder {
  final LatencyBackend backend;
  final OpGraph graph;
  final DeviceSet devices;
  MeasurementProtocol protocol = MeasurementProtocol.PAPER;
  long seed;
  DoubleSupplier clock;
  LatencyModel proxy;
  MemoryCheck memory;

  /** Device capacities: placements that do not fit are refused without a run (default: the proxy's). */
  public SearchEngineBuilder memory(MemoryCheck v) {
    memory = v;
    return this;
  }

  SearchEngineBuilder(LatencyBackend backend, OpGraph graph, DeviceSet devices) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.graph = Objects.requireNonNull(graph, "graph");
    this.devices = Objects.requireNonNull(devices, "devices");
  }

  /** How each placement is timed (default: the paper's). */
  public SearchEngineBuilder protocol(MeasurementProtocol v) {
    protocol = Objects.requireNonNull(v);
    return this;
  }

  /** The cost model the strategies' context offers (null: none). */
  public SearchEngineBuilder proxy(LatencyModel v) {
    proxy = v;
    return this;
  }

  /** The run seed that keys measurement noise. */
  public SearchEngineBuilder seed(long v) {
    seed = v;
    return this;
  }

  /** Elapsed seconds for the time limit (default: since the engine was built). */
  public SearchEngineBuilder clock(DoubleSupplier elapsedSeconds) {
    clock = Objects.requireNonNull(elapsedSeconds);
    return this;
  }

  public SearchEngine build() {
    return new SearchEngine(this);
  }
}
