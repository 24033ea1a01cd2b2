package org.hsdag.train;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A deterministic latency model for tests (sim-like, profile "fake"): each op costs {@code
 * cost[type][device]} ms, each edge between ops on different devices adds {@code transferMs}.
 * Placements matching {@code fails} come back as failed measurements.
 */
public final class FakeBackend implements LatencyBackend {
  private final Map<String, double[]> costMs;
  private final double transferMs;
  private final Predicate<Placement> fails;
  private final SupportMatrix support;
  int measured;

  public FakeBackend(Map<String, double[]> costMs, double transferMs, Predicate<Placement> fails, SupportMatrix support) {
    this.costMs = costMs;
    this.transferMs = transferMs;
    this.fails = fails;
    this.support = support;
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public String profile() {
    return "fake";
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public List<DeviceInfo> devices() {
    return List.of(new DeviceInfo("CPU", "fake CPU"), new DeviceInfo("GPU", "fake GPU"));
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    return support != null ? support : SupportMatrix.all(devices, graph.nodeCount());
  }

  public double latencyMs(OpGraph graph, Placement p) {
    double t = 0;
    for (int v = 0; v < graph.nodeCount(); v++) {
      t += costMs.get(graph.node(v).type())[p.deviceOf(v)];
    }
    for (int k = 0; k < graph.edgeCount(); k++) {
      if (p.deviceOf(graph.edge(k).source()) != p.deviceOf(graph.edge(k).target())) {
        t += transferMs;
      }
    }
    return t;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    measured++;
    if (fails != null && fails.test(placement)) {
      return Measurement.failed("fake failure", name(), profile());
    }
    double t = latencyMs(graph, placement);
    double[] samples = new double[protocol.runs()];
    java.util.Arrays.fill(samples, t);
    return Measurement.of(samples, protocol, 1, name(), profile());
  }
}
