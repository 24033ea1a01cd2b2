package org.hsdag.tune;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimGraph;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.DeviceTimeBreakdown;

/**
 * The simulator as the tuner uses it: same latencies and the same noise model as {@link
 * SimBackend}, but each measurement's noise is drawn from (seed, key) rather than from one
 * sequential stream, so a resumed run reproduces the uninterrupted one bit for bit. It also
 * reports the simulated time per device for the report.
 */
public final class ReproducibleSim implements LatencyBackend, KeyedMeasurement, DeviceTimeBreakdown {
  private final SimBackend sim;
  private final long seed;

  public ReproducibleSim(SimBackend sim, long seed) {
    this.sim = sim;
    this.seed = seed;
  }

  /** The wrapped simulator. */
  public SimBackend sim() {
    return sim;
  }

  @Override
  public String name() {
    return sim.name();
  }

  @Override
  public String profile() {
    return sim.profile();
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public List<DeviceInfo> devices() {
    return sim.devices();
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    return sim.supports(graph, devices);
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return measure(graph, placement, protocol, placement.hash64());
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
    SimGraph.Evaluation ev;
    try {
      ev = sim.evaluate(graph, placement);
    } catch (IllegalArgumentException e) {
      return sim.measure(graph, placement, protocol);
    }
    if (!ev.ok()) {
      // The simulator's own failure message; its failure path draws no noise.
      return sim.measure(graph, placement, protocol);
    }
    double[] samples = new double[protocol.runs()];
    sim.options().noise().sample(ev.micros() / 1000.0, protocol.warmupRuns(), samples, new SplittableRandom(mix(seed, key)));
    return Measurement.of(samples, protocol, ev.subModels(), name(), profile());
  }

  @Override
  public Map<String, Double> timeByDevice(OpGraph graph, Placement placement) {
    SimGraph.Evaluation ev;
    try {
      ev = sim.evaluate(graph, placement);
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
    if (!ev.ok()) {
      return Map.of();
    }
    SimGraph sg = sim.simGraph(graph);
    Map<String, Double> out = new LinkedHashMap<>();
    for (int d = 0; d < placement.devices().size(); d++) {
      out.put(placement.devices().name(d), 0.0);
    }
    for (int v = 0; v < placement.size(); v++) {
      String dev = placement.deviceName(v);
      double ms = sg.kernelMicros(v, sim.deviceProfile().indexOf(dev)) / 1000.0;
      out.merge(dev, ms, Double::sum);
    }
    return out;
  }

  @Override
  public void close() {
    sim.close();
  }

  static long mix(long seed, long key) {
    long z = seed * 0x9E3779B97F4A7C15L + key;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
