package org.hsdag.tune;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A deterministic test backend with devices CPU and GPU.1: every compute op costs 1 ms on CPU and
 * 0.5 ms on GPU.1, every edge between devices 0.3 ms; samples are all equal to the latency. Op
 * types in {@code gpuUnsupported} cannot run on GPU.1. It counts measurements per placement and
 * can block forever at a given measurement (to be killed there).
 */
public final class FakeBackend implements LatencyBackend {
  private final Set<String> gpuUnsupported;
  private final int blockAtCall;
  private final AtomicInteger calls = new AtomicInteger();
  private final Map<Placement, Integer> perPlacement = new ConcurrentHashMap<>();
  private final Map<Placement, Double> firstTimeOverride = new ConcurrentHashMap<>();

  public FakeBackend() {
    this(Set.of(), -1);
  }

  public FakeBackend(Set<String> gpuUnsupported, int blockAtCall) {
    this.gpuUnsupported = Set.copyOf(gpuUnsupported);
    this.blockAtCall = blockAtCall;
  }

  /** The first measurement of {@code p} reports {@code ms} (a lucky sample); later ones the true latency. */
  public void luckyFirst(Placement p, double ms) {
    firstTimeOverride.put(p, ms);
  }

  public int calls() {
    return calls.get();
  }

  public int calls(Placement p) {
    return perPlacement.getOrDefault(p, 0);
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
    return List.of(new DeviceInfo("CPU", "Fake CPU"), new DeviceInfo("GPU.1", "Fake GPU"));
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    long[] mask = new long[graph.nodeCount()];
    for (int v = 0; v < mask.length; v++) {
      for (int d = 0; d < devices.size(); d++) {
        if (!(devices.name(d).startsWith("GPU") && gpuUnsupported.contains(graph.node(v).type()))) {
          mask[v] |= 1L << d;
        }
      }
    }
    return new SupportMatrix(devices, mask);
  }

  /** The exact latency of {@code p}. */
  public static double latency(OpGraph g, Placement p) {
    double ms = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      var n = g.node(v);
      if (!n.isConstant() && !n.isParameter() && !n.isResult()) {
        ms += p.deviceName(v).equals("CPU") ? 1.0 : 0.5;
      }
    }
    for (int k = 0; k < g.edgeCount(); k++) {
      if (p.deviceOf(g.edge(k).source()) != p.deviceOf(g.edge(k).target())) {
        ms += 0.3;
      }
    }
    return ms;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    int n = calls.incrementAndGet();
    if (n == blockAtCall) {
      while (true) {
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    int seen = perPlacement.merge(placement, 1, Integer::sum);
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (placement.deviceName(v).startsWith("GPU") && gpuUnsupported.contains(graph.node(v).type())) {
        return Measurement.failed("op '" + graph.node(v).name() + "' cannot run on GPU.1", name(), profile());
      }
    }
    double ms = latency(graph, placement);
    Double lucky = firstTimeOverride.get(placement);
    if (lucky != null && seen == 1) {
      ms = lucky;
    }
    double[] samples = new double[protocol.runs()];
    Arrays.fill(samples, ms);
    int cuts = 0;
    for (int k = 0; k < graph.edgeCount(); k++) {
      cuts += placement.deviceOf(graph.edge(k).source()) != placement.deviceOf(graph.edge(k).target()) ? 1 : 0;
    }
    return Measurement.of(samples, protocol, 1 + cuts, name(), profile());
  }

  /** Placements of a list, for assertions. */
  static List<String> hashes(List<Placement> ps) {
    List<String> out = new ArrayList<>();
    for (Placement p : ps) {
      out.add(p.hashHex());
    }
    return out;
  }
}
