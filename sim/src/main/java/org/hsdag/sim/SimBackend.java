package org.hsdag.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.DeviceTimeBreakdown;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MachineDescription;
import org.hsdag.backend.MemoryLimiting;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.OpCoverage;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.ProfileMemory;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.SimGraph;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.memory.MemoryModel;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.random.SplitMix64;
import org.hsdag.throughput.PipelineSimulator;

/**
 * The embedded default backend ({@code sim}): times a placement by simulating how OpenVINO HETERO
 * would run it on the machine of a {@link DeviceProfile} — constants with their consumers,
 * sub-models split as HETERO's subgraph collector splits them ({@code cost.HeteroSplit}), run one after another,
 * boundary tensors copied through host memory — with seeded noise ({@link NoiseModel}).
 *
 * <p>Noise: a {@link KeyedMeasurement} draws each measurement's noise from (the seed, the key the
 * caller names the measurement by), so a result depends on what was measured and never on which
 * other measurements ran before it; a plain {@link #measure} draws from one seeded stream in call
 * order.
 *
 * <p>Per-graph tables are built once per {@link OpGraph} instance (a small identity-keyed cache),
 * so repeated measurements of one graph cost a few linear passes over primitive arrays. Numbers
 * from this backend are simulated, never hardware measurements; {@link #name()} and
 * {@link #profile()} say so in every {@link Measurement}. Thread-safe.
 */
public final class SimBackend
    implements
      LatencyBackend,
      KeyedMeasurement,
      DeviceTimeBreakdown,
      CostModelSource,
      OpCoverage,
      MachineDescription,
      DeviceMemorySource,
      MemoryLimiting,
      PipelineSimulator {
  private static final int GRAPH_CACHE_SIZE = 16;

  private final DeviceProfile profile;
  private final SimOptions options;
  private final CostModel costModel;
  private final SplittableRandom rng;
  private final Map<IdentityKey, SimGraph> graphs = new LinkedHashMap<>(32, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<IdentityKey, SimGraph> eldest) {
      return size() > GRAPH_CACHE_SIZE;
    }
  };
  private final Map<IdentityKey, MemoryModel> memoryModels = new LinkedHashMap<>(32, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<IdentityKey, MemoryModel> eldest) {
      return size() > GRAPH_CACHE_SIZE;
    }
  };
  private final Map<DeviceSet, int[]> deviceMaps = new ConcurrentHashMap<>();
  private volatile SimGraph last;

  public SimBackend(DeviceProfile profile, SimOptions options) {
    this.profile = profile;
    this.options = options;
    this.costModel = new CostModel(options.shapes());
    this.rng = new SplittableRandom(options.seed());
  }

  /** Default options (seed 0, default noise, batch 1 / sequence 8). */
  public SimBackend(DeviceProfile profile) {
    this(profile, SimOptions.DEFAULT);
  }

  /** A backend on a built-in profile name or a profile JSON path. */
  public static SimBackend open(String profileNameOrPath, SimOptions options) {
    return new SimBackend(DeviceProfile.load(profileNameOrPath), options);
  }

  /** This backend on the same options with the user's capacities replacing the profile's ({@code --memory}). */
  @Override
  public SimBackend withMemoryLimits(org.hsdag.memory.MemoryLimits caps) {
    return caps.isEmpty() ? this : new SimBackend(ProfileMemory.withCapacities(profile, caps), options);
  }

  @Override
  public String name() {
    return "sim";
  }

  @Override
  public String profile() {
    return profile.name();
  }

  public DeviceProfile deviceProfile() {
    return profile;
  }

  @Override
  public String description() {
    return profile.description();
  }

  @Override
  public String kind(String device) {
    return profile.devices().stream().filter(m -> m.name().equals(device)).map(DeviceModel::kind).findFirst()
        .orElse("");
  }

  @Override
  public Map<String, Object> figures(String device) {
    DeviceModel model = profile.device(device);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", model.kind());
    m.put("peak_gflops", model.peakGflops());
    m.put("memory_bandwidth_gbs", model.memoryBandwidthGBs());
    return m;
  }

  @Override
  public Map<String, Integer> unknownOpTypes(OpGraph graph) {
    return simGraph(graph).unknownOpTypes();
  }

  public SimOptions options() {
    return options;
  }

  @Override
  public long noiseSeed() {
    return options.seed();
  }

  @Override
  public void sampleNoise(double base, int warmup, double[] out, SplittableRandom noise) {
    options.noise().sample(base, warmup, out, noise);
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public List<DeviceInfo> devices() {
    List<DeviceInfo> out = new ArrayList<>();
    for (DeviceModel d : profile.devices()) {
      out.add(new DeviceInfo(d.name(), d.fullName()));
    }
    return out;
  }

  /** All profile device names as a {@link DeviceSet}, in profile order. */
  public DeviceSet deviceSet() {
    List<String> names = new ArrayList<>();
    for (DeviceModel d : profile.devices()) {
      names.add(d.name());
    }
    return new DeviceSet(names);
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    SimGraph sg = simGraph(graph);
    int[] map = deviceMap(devices);
    long[] mask = new long[graph.nodeCount()];
    for (int v = 0; v < mask.length; v++) {
      for (int d = 0; d < devices.size(); d++) {
        if (map[d] >= 0 && sg.canRun(v, map[d])) {
          mask[v] |= 1L << d;
        }
      }
    }
    return new SupportMatrix(devices, mask);
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return measure(graph, placement, protocol, () -> {
      synchronized (rng) {
        return rng.split();
      }
    });
  }

  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
    return measure(graph, placement, protocol, () -> new SplittableRandom(mix(options.seed(), key)));
  }

  private Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol,
      java.util.function.Supplier<SplittableRandom> noise) {
    SimGraph.Evaluation ev;
    try {
      ev = evaluate(graph, placement);
    } catch (UnknownDeviceException e) {
      return Measurement.failed(e.getMessage(), name(), profile());
    }
    if (!ev.ok()) {
      // A placement that cannot run draws no noise.
      return Measurement.failed(failureReason(graph, placement, ev), name(), profile());
    }
    java.util.Optional<String> oom = memoryCheck(graph, placement.devices()).violation(placement);
    if (oom.isPresent()) {
      return Measurement.failed(oom.get() + " (sim profile " + profile.name() + ")", name(), profile());
    }
    double[] samples = new double[protocol.runs()];
    options.noise().sample(ev.micros() / 1000.0, protocol.warmupRuns(), samples, noise.get());
    return Measurement.of(samples, protocol, ev.subModels(), name(), profile());
  }

  @Override
  public Map<String, Double> timeByDevice(OpGraph graph, Placement placement) {
    SimGraph.Evaluation ev;
    try {
      ev = evaluate(graph, placement);
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
    if (!ev.ok()) {
      return Map.of();
    }
    SimGraph sg = simGraph(graph);
    Map<String, Double> out = new LinkedHashMap<>();
    for (int d = 0; d < placement.devices().size(); d++) {
      out.put(placement.devices().name(d), 0.0);
    }
    for (int v = 0; v < placement.size(); v++) {
      String dev = placement.deviceName(v);
      out.merge(dev, sg.kernelMicros(v, profile.indexOf(dev)) / 1000.0, Double::sum);
    }
    return out;
  }

  /** SplitMix64 finaliser over (seed, key): independent noise streams per key. */
  static long mix(long seed, long key) {
    return SplitMix64.mix(seed, key);
  }

  /**
   * The noise-free simulation of {@code placement} (the hot path: no noise, no allocation beyond
   * a few work arrays).
   *
   * @throws InvalidPlacementException when the placement does not fit the graph
   * @throws UnknownDeviceException when the placement names a device the profile lacks
   */
  @Override
  public SimGraph.Evaluation evaluate(OpGraph graph, Placement placement) {
    if (placement.size() != graph.nodeCount()) {
      throw new InvalidPlacementException(
          "placement has " + placement.size() + " nodes but the model has " + graph.nodeCount());
    }
    int[] map = deviceMap(placement.devices());
    for (int d = 0; d < map.length; d++) {
      if (map[d] < 0) {
        // Only an error if some node actually uses that device.
        for (int v = 0; v < placement.size(); v++) {
          if (placement.deviceOf(v) == d) {
            throw new UnknownDeviceException("device " + placement.devices().name(d) + " is not in sim profile "
                + profile.name() + " (devices: " + deviceSet() + ")");
          }
        }
      }
    }
    return simGraph(graph).evaluate(placementArray(placement), map);
  }

  /** The profile device of every op of {@link #costModel}{@code (graph)} under {@code placement}. */
  @Override
  public int[] opDevices(OpGraph graph, Placement placement) {
    return simGraph(graph).opDevices(placementArray(placement), deviceMap(placement.devices()));
  }

  /** Noise-free latency in milliseconds, or NaN when the placement cannot run. */
  public double latencyMillis(OpGraph graph, Placement placement) {
    SimGraph.Evaluation ev = evaluate(graph, placement);
    return ev.ok() ? ev.micros() / 1000.0 : Double.NaN;
  }

  private static int[] placementArray(Placement p) {
    return p.deviceOf();
  }

  private String failureReason(OpGraph graph, Placement p, SimGraph.Evaluation ev) {
    if (ev.isRefused()) {
      return simGraph(graph).refusal(p.deviceOf(), deviceMap(p.devices())).orElse(HeteroRefusal.PREFIX)
          + " (sim profile " + profile.name() + ")";
    }
    OpNode node = graph.node(ev.failedNode());
    DeviceModel dev = profile.devices().get(ev.failedDevice());
    boolean dynamic = simGraph(graph).cost(ev.failedNode()).dynamic();
    return "op '" + node.name() + "' (" + node.type() + ") cannot run on " + dev.name() + ": "
        + dev.whyNot(node.type(), dynamic) + " (sim profile " + profile.name() + ")";
  }

  /**
   * The memory check the simulator fails placements with: the profile's capacities and overheads on
   * {@code devices} (the memory model of a graph is cached like its tables).
   */
  public MemoryCheck memoryCheck(OpGraph graph, DeviceSet devices) {
    MemoryModel m;
    synchronized (memoryModels) {
      m = memoryModels.computeIfAbsent(new IdentityKey(graph), k -> memoryModel(graph));
    }
    return ProfileMemory.check(profile, m, devices);
  }

  /** The graph's memory model with its tensors at the sizes the model is compiled at. */
  private MemoryModel memoryModel(OpGraph graph) {
    TensorShapes sized = TensorShapes.of(graph, options.shapes());
    return new MemoryModel(graph, (v, port) -> {
      ElementType t = graph.node(v).outputs().get(port).elementType();
      ElementType type = t == null || t.bitWidth() == 0 ? ElementType.F32 : t;
      return type.byteSize(sized.outputElements(v, port));
    });
  }

  @Override
  public MemoryLimits capacities() {
    return ProfileMemory.limits(profile);
  }

  @Override
  public Map<String, Long> overheads() {
    return ProfileMemory.overheads(profile);
  }

  @Override
  public String capacitySource() {
    List<String> given = profile.devices().stream()
        .filter(d -> d.memory() != null && ProfileMemory.SET_BY_USER.equals(d.memory().source())).map(DeviceModel::name)
        .toList();
    return "sim profile " + profile.name() + (given.isEmpty() ? "" : ", --memory for " + String.join(",", given));
  }

  /** The profile's check with {@code user}'s capacities replacing its own (a device the profile lacks is refused). */
  @Override
  public MemoryCheck memoryCheck(OpGraph graph, DeviceSet devices, MemoryLimits user) {
    MemoryModel m;
    synchronized (memoryModels) {
      m = memoryModels.computeIfAbsent(new IdentityKey(graph), k -> memoryModel(graph));
    }
    return ProfileMemory.check(ProfileMemory.withCapacities(profile, user), m, devices);
  }

  /** The profile's own tables: the proxy equals the noise-free simulator. */
  @Override
  public HeteroCostModel costModel(OpGraph graph) {
    return simGraph(graph).costModel();
  }

  /** The precomputed tables of {@code graph} (built on first use, cached per graph instance). */
  @SuppressWarnings("ReferenceEquality") // cached per instance on purpose, as IdentityKey explains
  public SimGraph simGraph(OpGraph graph) {
    SimGraph l = last;
    if (l != null && l.graph() == graph) {
      return l;
    }
    IdentityKey key = new IdentityKey(graph);
    SimGraph sg;
    synchronized (graphs) {
      sg = graphs.get(key);
    }
    if (sg == null) {
      sg = SimGraph.build(graph, profile, costModel);
      synchronized (graphs) {
        graphs.put(key, sg);
      }
    }
    last = sg;
    return sg;
  }

  private int[] deviceMap(DeviceSet devices) {
    return deviceMaps.computeIfAbsent(devices, ds -> {
      int[] m = new int[ds.size()];
      for (int d = 0; d < m.length; d++) {
        m[d] = profile.indexOf(ds.name(d));
      }
      return m;
    });
  }

  @Override
  public String toString() {
    return "SimBackend[" + profile.name() + ", seed " + options.seed() + "]";
  }

  /** A placement names a device the profile does not have. */
  public static final class UnknownDeviceException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownDeviceException(String message) {
      super(message);
    }
  }

  /** Identity, not equality, of graphs: equal copies are cheap to rebuild, deep equality is not cheap to check. */
  private record IdentityKey(OpGraph graph) {
    @Override
    @SuppressWarnings("ReferenceEquality") // identity is the point of this key
    public boolean equals(Object o) {
      return o instanceof IdentityKey k && k.graph == graph;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(graph);
    }
  }
}
