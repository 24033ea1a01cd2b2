package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A deterministic test backend: latency = sum of per-op device costs + a penalty per edge whose
 * ends are on different devices; a placement using a device an op does not support fails. Counts
 * measurements.
 */
final class FakeBackend implements LatencyBackend {
  private final DeviceSet devices;
  private final double[][] cost;
  private final long[] mask;
  private final double cutPenalty;
  int measurements;

  FakeBackend(DeviceSet devices, double[][] cost, long[] mask, double cutPenalty) {
    this.devices = devices;
    this.cost = cost;
    this.mask = mask;
    this.cutPenalty = cutPenalty;
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public String profile() {
    return "test";
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public List<DeviceInfo> devices() {
    List<DeviceInfo> out = new ArrayList<>();
    for (String n : devices.names()) {
      out.add(new DeviceInfo(n, n));
    }
    return out;
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    return new SupportMatrix(devices, mask);
  }

  double latency(OpGraph graph, Placement p) {
    double t = 0;
    for (int v = 0; v < graph.nodeCount(); v++) {
      t += cost[v][p.deviceOf(v)];
    }
    for (Edge e : graph.edges()) {
      if (p.deviceOf(e.source()) != p.deviceOf(e.target())) {
        t += cutPenalty;
      }
    }
    return t;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement p, MeasurementProtocol protocol) {
    measurements++;
    for (int v = 0; v < graph.nodeCount(); v++) {
      if ((mask[v] >>> p.deviceOf(v) & 1) == 0) {
        return Measurement.failed("node " + graph.node(v).name() + " unsupported on " + p.deviceName(v), name(), profile());
      }
    }
    double t = latency(graph, p);
    double[] samples = new double[protocol.runs()];
    java.util.Arrays.fill(samples, t);
    return Measurement.of(samples, protocol, 1, name(), profile());
  }
}
