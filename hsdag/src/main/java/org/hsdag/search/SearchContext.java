package org.hsdag.search;

import java.util.List;
import org.hsdag.memory.MemoryCheck;
import java.util.Objects;
import java.util.Optional;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.LatencyModel;

/**
 * What a strategy searches over. Built only through {@link #builder} (the engine does it), so a new
 * field — for example a cost-model estimate strategies may consult — is one builder method, not a
 * new constructor everywhere.
 */
public final class SearchContext {
  private final OpGraph graph;
  private final DeviceSet devices;
  private final SupportMatrix support;
  private final int budget;
  private final long seed;
  private final MeasurementProtocol protocol;
  private final String backendName;
  private final LatencyModel proxy;
  private final boolean stopsEarly;
  private final List<DeviceKind> deviceKinds;
  private final MemoryCheck memory;

  private SearchContext(Builder b) {
    memory = b.memory;
    graph = Objects.requireNonNull(b.graph, "graph");
    devices = Objects.requireNonNull(b.devices, "devices");
    support = Objects.requireNonNull(b.support, "support");
    if (support.nodeCount() != graph.nodeCount()) {
      throw new IllegalArgumentException(
          "support matrix has " + support.nodeCount() + " nodes but the graph has " + graph.nodeCount());
    }
    budget = b.budget;
    seed = b.seed;
    protocol = b.protocol;
    backendName = b.backendName;
    proxy = b.proxy;
    stopsEarly = b.stopsEarly;
    deviceKinds = b.deviceKinds != null ? b.deviceKinds : devices.names().stream().map(DeviceKind::ofName).toList();
    if (deviceKinds.size() != devices.size()) {
      throw new IllegalArgumentException(deviceKinds.size() + " device kinds for " + devices.size() + " devices");
    }
  }

  /** A context for {@code graph} on {@code devices} with the backend's {@code support}. */
  public static Builder builder(OpGraph graph, DeviceSet devices, SupportMatrix support) {
    return new Builder(graph, devices, support);
  }

  /** The model. */
  public OpGraph graph() {
    return graph;
  }

  /** The devices to place on, in priority order. */
  public DeviceSet devices() {
    return devices;
  }

  /** The kind of each device of {@link #devices()}, in the same order (from the backend, else from the names). */
  public List<DeviceKind> deviceKinds() {
    return deviceKinds;
  }

  /**
   * Which devices can run each node; strategies never propose a disallowed device when an allowed
   * one exists.
   */
  public SupportMatrix support() {
    return support;
  }

  /** Measurements the engine will spend (strategies may plan with it). */
  public int budget() {
    return budget;
  }

  /** The strategy's seed (split from the run's master seed). */
  public long seed() {
    return seed;
  }

  /** The measurement protocol in use. */
  public MeasurementProtocol protocol() {
    return protocol;
  }

  /** The backend that measures, for logs. */
  public String backendName() {
    return backendName;
  }

  /**
   * The cost model of the backend (or of a given profile) over this graph and devices, when the
   * run has one: strategies may plan and rank with it before spending measurements.
   */
  public Optional<LatencyModel> proxy() {
    return Optional.ofNullable(proxy);
  }

  /**
   * {@link #proxy()} when it is a {@code type} (a strategy that plans on the cost model's terms asks
   * for its own type; the search itself knows only {@link LatencyModel}).
   */
  public <M extends LatencyModel> Optional<M> proxy(Class<M> type) {
    return proxy().filter(type::isInstance).map(type::cast);
  }

  /**
   * Whether the run may end before its budget when further measurements cannot pay (a patience is
   * set): a strategy may then finish when it has nothing worth measuring; otherwise the budget is to
   * be spent.
   */
  public boolean stopsEarly() {
    return stopsEarly;
  }

  /** Collects the fields of a {@link SearchContext}. */
  /** The device capacities of the search, when any device has one. */
  public Optional<MemoryCheck> memory() {
    return Optional.ofNullable(memory).filter(MemoryCheck::limitsAny);
  }

  public static final class Builder {
    private MemoryCheck memory;
    private final OpGraph graph;
    private final DeviceSet devices;
    private final SupportMatrix support;
    private int budget = 1;
    private long seed;
    private MeasurementProtocol protocol = MeasurementProtocol.PAPER;
    private String backendName = "";
    private LatencyModel proxy;
    private boolean stopsEarly = true;
    private List<DeviceKind> deviceKinds;

    private Builder(OpGraph graph, DeviceSet devices, SupportMatrix support) {
      this.graph = graph;
      this.devices = devices;
      this.support = support;
    }

    public Builder budget(int v) {
      budget = v;
      return this;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public Builder protocol(MeasurementProtocol v) {
      protocol = Objects.requireNonNull(v);
      return this;
    }

    /** The kind of each device, in device order (default: read from the device names). */
    public Builder deviceKinds(List<DeviceKind> v) {
      deviceKinds = List.copyOf(v);
      return this;
    }

    public Builder backendName(String v) {
      backendName = Objects.requireNonNull(v);
      return this;
    }

    /** The device capacities placements must respect (null: none). */
    public Builder memory(MemoryCheck v) {
      memory = v;
      return this;
    }

    /** The cost model strategies may consult (null: none). */
    public Builder proxy(LatencyModel v) {
      proxy = v;
      return this;
    }

    /** Whether the run may end before its budget ({@link SearchContext#stopsEarly()}; default true). */
    public Builder stopsEarly(boolean v) {
      stopsEarly = v;
      return this;
    }

    public SearchContext build() {
      return new SearchContext(this);
    }
  }
}
