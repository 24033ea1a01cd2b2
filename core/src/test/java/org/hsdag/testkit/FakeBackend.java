package org.hsdag.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The one deterministic test backend (name "fake", simulated): latency = the sum of each op's cost
 * on its device + {@code cutMs} per edge whose ends are on different devices; every sample equals
 * it. An op placed where {@link Support} says it cannot run, or a placement the failure predicate
 * matches, comes back as a failed measurement. It counts calls (in all and per placement), can
 * report a lucky first sample, and can block forever at a given call (to be killed there).
 */
public final class FakeBackend implements LatencyBackend {
  /** Milliseconds of node {@code v} of {@code g} on device {@code d} (index in the placement's device set). */
  @FunctionalInterface
  public interface OpCost {
    double ms(OpGraph g, int v, String device, int d);
  }

  /** Whether node {@code v} of {@code g} can run on {@code device}. */
  @FunctionalInterface
  public interface Support {
    boolean runs(OpGraph g, int v, String device, int d);
  }

  private final List<DeviceInfo> devices;
  private final String profile;
  private final OpCost cost;
  private final double cutMs;
  private final Support support;
  private final Predicate<Placement> fails;
  private final boolean subModelPerCut;
  private final int blockAtCall;
  private final AtomicInteger calls = new AtomicInteger();
  private final Map<Placement, Integer> perPlacement = new ConcurrentHashMap<>();
  private final Map<Placement, Double> firstTimeOverride = new ConcurrentHashMap<>();

  private FakeBackend(List<DeviceInfo> devices, String profile, OpCost cost, double cutMs, Support support,
      Predicate<Placement> fails, boolean subModelPerCut, int blockAtCall) {
    this.devices = List.copyOf(devices);
    this.profile = profile;
    this.cost = cost;
    this.cutMs = cutMs;
    this.support = support;
    this.fails = fails;
    this.subModelPerCut = subModelPerCut;
    this.blockAtCall = blockAtCall;
  }

  /**
   * Devices CPU and GPU.1: every compute op costs 1 ms on CPU and 0.5 ms on GPU.1 (Parameters,
   * constants and Results nothing), every edge between devices 0.3 ms; each cut adds a sub-model.
   */
  public static FakeBackend cpuGpu() {
    return cpuGpu(Set.of(), -1);
  }

  /** {@link #cpuGpu()} where op types in {@code gpuUnsupported} cannot run on a GPU, blocking at call {@code blockAtCall} (-1: never). */
  public static FakeBackend cpuGpu(Set<String> gpuUnsupported, int blockAtCall) {
    Set<String> noGpu = Set.copyOf(gpuUnsupported);
    OpCost cost = (g, v, device, d) -> {
      OpNode n = g.node(v);
      return n.isConstant() || n.isParameter() || n.isResult() ? 0 : device.equals("CPU") ? 1.0 : 0.5;
    };
    Support runs = (g, v, device, d) -> !(device.startsWith("GPU") && noGpu.contains(g.node(v).type()));
    return new FakeBackend(List.of(new DeviceInfo("CPU", "Fake CPU"), new DeviceInfo("GPU.1", "Fake GPU")), "test",
        cost, 0.3, runs, p -> false, true, blockAtCall);
  }

  /** {@link #cpuGpu()} where every placement that splits the model fails to run ("fake failure"). */
  public static FakeBackend cpuGpuWhereSplitsFail() {
    FakeBackend b = cpuGpu();
    return new FakeBackend(b.devices, b.profile, b.cost, b.cutMs, b.support, p -> !p.isSingleDevice(), true, -1);
  }

  /**
   * Devices CPU and GPU (profile "fake"): each op costs {@code costMs.get(type)[device]};
   * placements matching {@code fails} (may be null) fail; {@code support} (null: everything) is
   * what {@link #supports} answers and what a placement must respect.
   */
  public static FakeBackend byOpType(Map<String, double[]> costMs, double transferMs, Predicate<Placement> fails,
      SupportMatrix support) {
    OpCost cost = (g, v, device, d) -> costMs.get(g.node(v).type())[d];
    Support runs = support == null ? (g, v, device, d) -> true : (g, v, device, d) -> support.allowed(v, d);
    return new FakeBackend(List.of(new DeviceInfo("CPU", "fake CPU"), new DeviceInfo("GPU", "fake GPU")), "fake",
        cost, transferMs, runs, fails == null ? p -> false : fails, false, -1);
  }

  /** The devices of {@code devices}: node v costs {@code cost[v][d]}, may run on d when bit d of {@code mask[v]} is set. */
  public static FakeBackend perNode(DeviceSet devices, double[][] cost, long[] mask, double cutMs) {
    List<DeviceInfo> infos = new ArrayList<>();
    for (String n : devices.names()) {
      infos.add(new DeviceInfo(n, n));
    }
    return new FakeBackend(infos, "test", (g, v, device, d) -> cost[v][d], cutMs,
        (g, v, device, d) -> (mask[v] >>> d & 1) != 0, p -> false, false, -1);
  }

  /** The first measurement of {@code p} reports {@code ms} (a lucky sample); later ones the true latency. */
  public void luckyFirst(Placement p, double ms) {
    firstTimeOverride.put(p, ms);
  }

  /** Measurements asked for so far. */
  public int calls() {
    return calls.get();
  }

  /** Measurements of {@code p} asked for so far. */
  public int calls(Placement p) {
    return perPlacement.getOrDefault(p, 0);
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public String profile() {
    return profile;
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public List<DeviceInfo> devices() {
    return devices;
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet set) {
    long[] mask = new long[graph.nodeCount()];
    for (int v = 0; v < mask.length; v++) {
      for (int d = 0; d < set.size(); d++) {
        if (support.runs(graph, v, set.name(d), d)) {
          mask[v] |= 1L << d;
        }
      }
    }
    return new SupportMatrix(set, mask);
  }

  /** The exact latency of {@code p}. */
  public double latency(OpGraph g, Placement p) {
    double ms = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      ms += cost.ms(g, v, p.deviceName(v), p.deviceOf(v));
    }
    return ms + cutMs * cuts(g, p);
  }

  private static int cuts(OpGraph g, Placement p) {
    int cuts = 0;
    for (int k = 0; k < g.edgeCount(); k++) {
      cuts += p.deviceOf(g.edge(k).source()) != p.deviceOf(g.edge(k).target()) ? 1 : 0;
    }
    return cuts;
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    if (calls.incrementAndGet() == blockAtCall) {
      blockForever();
    }
    int seen = perPlacement.merge(placement, 1, Integer::sum);
    if (fails.test(placement)) {
      return Measurement.failed("fake failure", name(), profile());
    }
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (!support.runs(graph, v, placement.deviceName(v), placement.deviceOf(v))) {
        return Measurement.failed("op '" + graph.node(v).name() + "' cannot run on " + placement.deviceName(v),
            name(), profile());
      }
    }
    double ms = latency(graph, placement);
    Double lucky = firstTimeOverride.get(placement);
    if (lucky != null && seen == 1) {
      ms = lucky;
    }
    double[] samples = new double[protocol.runs()];
    Arrays.fill(samples, ms);
    int subModels = subModelPerCut ? 1 + cuts(graph, placement) : 1;
    return Measurement.of(samples, protocol, subModels, name(), profile());
  }

  private static void blockForever() {
    while (true) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
