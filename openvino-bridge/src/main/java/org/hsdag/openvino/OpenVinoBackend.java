package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.hsdag.backend.CallTiming;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.CompileStats;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.CostModelSource.FitError;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasureTimeout;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.ModelFileBinding;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.backend.ThroughputMeasurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.cost.BoundaryOracle;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroFit;
import org.hsdag.cost.ShapeAssumption;

/**
 * The real backend: times a placement on this machine through OpenVINO's HETERO plugin.
 *
 * <p>For each measurement: resolve the placement with {@link HeteroAffinity} (every node, by
 * friendly name), check the names against the model as OpenVINO read it, set the
 * {@code "affinity"} of every node, compile on {@code HETERO:<devices>}, fill the inputs with
 * seeded random data, run {@code warmupRuns} untimed and {@code runs} timed synchronous
 * inferences, and reduce the samples by the protocol. A compile or run error becomes a failed
 * {@link Measurement} carrying OpenVINO's message; with a timeout set, so does a measurement that
 * takes too long, latency or throughput, with the stage it reached ({@link MeasurementDeadline}: the native call
 * cannot be interrupted and finishes in the background, and the next measurement waits for it). The compiled model
 * (with its infer request and inputs) is kept for the next measurement of the same placement ({@link
 * CompiledModels}, under a memory budget).
 *
 * <p>The SPI passes graphs, but OpenVINO needs the model file: a graph read by {@code IrReader}
 * knows its file ({@link OpGraph#source()}); {@link #bind(OpGraph, Path)} names another (a graph
 * built in memory and written out). Available only where the native library loads:
 * {@link #open(OpenVinoOptions)} throws {@link OpenVinoUnavailableException} with the reason
 * otherwise; {@link #availability()} reports it without throwing. Not thread-safe beyond the
 * guarantee that measurements are serialised.
 */
public final class OpenVinoBackend
    implements
      LatencyBackend,
      CostModelSource,
      ModelFileBinding,
      DeviceMemorySource,
      CompileCaching,
      ThroughputMeasurement,
      CallTiming.Timeable,
      MeasureTimeout {
  /** The backend name used in measurements, logs and {@code --backend}. */
  public static final String NAME = "openvino";

  private final OpenVinoRuntime runtime;
  private final OpenVinoOptions options;
  private final List<DeviceInfo> devices;
  private final String profile;
  private final List<DeviceMemoryReport> memory;
  private final ShapeAssumption shapes;
  private final Map<OpGraph, Path> modelFiles = new HashMap<>();
  private final Map<OpGraph, OpenVinoRuntime.Model> models = new HashMap<>();
  private final Map<OpGraph, BoundaryOracle> oracles = new HashMap<>();
  private final ProfiledCostModels costModels;
  private final CompiledModels compiled;
  private final MeasurementDeadline deadline;
  private final MeasurementLimit limit = new MeasurementLimit();
  private final RuntimeLoss loss = new RuntimeLoss();
  private final RuntimeFaultInjector faults = RuntimeFaultInjector.fromSystemProperty(); // tests only
  private long generation;

  /** Uses {@code runtime} (the real one from {@link OpenVinoAvailability#openRuntime()}, or a test double). */
  OpenVinoBackend(OpenVinoRuntime runtime, OpenVinoOptions options) {
    this(runtime, options, ShapeAssumption.DEFAULT);
  }

  /** As above; the cost model sizes dynamic tensors by {@code shapes}, as the simulator does. */
  OpenVinoBackend(OpenVinoRuntime runtime, OpenVinoOptions options, ShapeAssumption shapes) {
    this.runtime = runtime;
    this.options = options;
    this.shapes = shapes;
    this.compiled = new CompiledModels(runtime::residentBytes);
    this.deadline = new MeasurementDeadline(runtime.isolated() ? null : options.timeout());
    limit.fixed(options.timeout());
    runtime.watch(limit::next, loss::lost); // every call bounded, the cost model's profiling too
    options.testDevices().forEach(runtime::registerTestDevice);
    this.devices = List.copyOf(runtime.devices());
    this.profile = OpenVinoNames.describeMachine(runtime.version(), devices);
    this.costModels = new ProfiledCostModels(devices, shapes);
    this.memory = devices.stream().map(d -> DeviceMemoryReport.readOrNone(runtime, d.name())).toList();
  }

  /** The memory each device reported when the backend opened, in {@link #devices()} order. */
  public List<DeviceMemoryReport> memoryReports() {
    return memory;
  }

  @Override
  public MemoryLimits capacities() {
    return DeviceMemoryReport.limits(memory);
  }

  @Override
  public Map<String, Long> overheads() {
    return Map.of(); // OpenVINO reports no plugin overhead: none is assumed
  }

  @Override
  public String capacitySource() {
    return "reported by OpenVINO: "
        + memory.stream().map(DeviceMemoryReport::describe).collect(Collectors.joining(", "));
  }

  /** This backend, timing every call ({@link TimedBackend}); closing the result closes this. */
  @Override
  public LatencyBackend timed() {
    return new TimedBackend(this, true);
  }

  /** Whether the native backend can run here, and why not. */
  public static OpenVinoAvailability availability() {
    return OpenVinoAvailability.probe();
  }

  /** Opens the real backend; {@link OpenVinoUnavailableException} with the reason and the fix where it cannot run. */
  public static OpenVinoBackend open(OpenVinoOptions options) {
    return open(options, ShapeAssumption.DEFAULT);
  }

  /**
   * Opens the real backend; its cost model sizes dynamic tensors by {@code shapes} (the sizes
   * announced for the model's dynamic inputs, which {@code options} compiles).
   *
   * @throws OpenVinoUnavailableException with the reason and the fix when the native library is unavailable
   */
  public static OpenVinoBackend open(OpenVinoOptions options, ShapeAssumption shapes) {
    if (!availability().available()) {
      throw new OpenVinoUnavailableException(availability());
    }
    return new OpenVinoBackend(IsolatedRuntime.java(), options, shapes);
  }

  /**
   * Opens the real backend with the native runtime in this JVM, not a child: no deadline can stop a native call and a
   * native crash ends the JVM. For figures that compare the two ({@code bench isolation-overhead}).
   */
  public static OpenVinoBackend openInProcess(OpenVinoOptions options, ShapeAssumption shapes) {
    return new OpenVinoBackend(availability().openRuntime(), options, shapes);
  }

  /** The runtime child's process id, when the native calls run in one (tests end it on purpose). */
  public synchronized java.util.OptionalLong runtimePid() {
    return runtime.childPid();
  }

  /** {@link OpenVinoRuntime#busyNanos}: not synchronized, the timing reads it while a call waits. */
  Map<String, Long> runtimeBusyNanos() {
    return runtime.busyNanos();
  }

  @Override
  public synchronized void measureTimeout(java.time.Duration timeout) {
    limit.fixed(timeout != null ? timeout : options.timeout());
  }

  @Override
  public synchronized String measureTimeoutRule() {
    return runtime.isolated() ? limit.rule() : "none (the runtime runs in this process)";
  }

  @Override
  public void onRuntimeLost(java.util.function.Consumer<String> sink) {
    loss.sink(sink);
  }

  /**
   * {@link #bind} and read the model at once: a file OpenVINO cannot read ({@link OpenVinoReadException}) is
   * reported before any measurement.
   */
  @Override
  public synchronized void bindModelFile(OpGraph graph, Path xml) {
    bind(graph, xml);
    model(graph);
  }

  /** Records that {@code graph} was read from {@code xml} (its weights next to it), so it can be compiled. */
  public synchronized OpenVinoBackend bind(OpGraph graph, Path xml) {
    Path old = modelFiles.put(graph, xml);
    if (old != null && !old.equals(xml)) {
      costModels.forget(graph);
      oracles.remove(graph);
      OpenVinoRuntime.Model m = models.remove(graph);
      if (m != null) {
        m.close();
      }
    }
    return this;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@code OpenVINO <version> on CPU=<full name>, GPU.1=<full name>}. */
  @Override
  public String profile() {
    return profile;
  }

  @Override
  public boolean simulated() {
    return false;
  }

  @Override
  public List<DeviceInfo> devices() {
    return devices;
  }

  /**
   * {@code query_model} per device. Nodes HETERO places with their neighbours (constants,
   * constant-only chains, Parameters, Results) are allowed everywhere.
   *
   * @throws IllegalStateException if {@code graph} was not {@linkplain #bind bound} to a file
   * @throws OpenVinoException if OpenVINO cannot read the model
   */
  @Override
  public synchronized SupportMatrix supports(OpGraph graph, DeviceSet deviceSet) {
    OpenVinoRuntime.Model m = model(graph);
    Map<String, Integer> runtimeIndex = OpenVinoNames.indexByName(m.opNames());
    HeteroAffinity rules = new HeteroAffinity(graph);
    long[] mask = new long[graph.nodeCount()];
    for (int d = 0; d < deviceSet.size(); d++) {
      boolean[] ok = m.query(deviceSet.name(d));
      for (int v = 0; v < graph.nodeCount(); v++) {
        Integer r = runtimeIndex.get(graph.node(v).name());
        boolean follows = rules.isConstantOnly(v) || graph.node(v).isParameter() || graph.node(v).isResult();
        if (follows || r == null || ok[r]) {
          mask[v] |= 1L << d;
        }
      }
    }
    return new SupportMatrix(deviceSet, mask);
  }

  /** Measures {@code placement}; past the options' timeout, a failed measurement naming the stage it reached. */
  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    if (runtime.isolated()) {
      return measureWithCost(graph, placement, protocol).measurement();
    }
    return deadline.run("compile + " + protocol.describe(),
        stage -> measureWithCost(graph, placement, protocol, stage).measurement(), this::failed);
  }

  /** {@link #measure}, also saying where its time went: {@code bench}'s figures take the tuning measurements' path. */
  public MeasurementCost measureWithCost(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    return bounded(placement, () -> measureWithCost(graph, placement, protocol, new MeasurementDeadline.Stage()));
  }

  /**
   * Runs one measurement within its deadline ({@link MeasurementLimit}) when the runtime is a child: a child that
   * crashes or does not answer in time is ended and the measurement fails with the reason ({@link
   * RuntimeLostException}); its models and compiled models are forgotten and the next call starts a fresh child.
   * {@code counted}: the placement a test's fault injector counts, null for the cost model's designed splits.
   */
  private synchronized MeasurementCost bounded(Placement counted,
      java.util.function.Supplier<MeasurementCost> measurement) {
    faults.before(counted, runtime);
    MeasurementCost c = runtime.isolated() ? loss.during(() -> limit.bounded(runtime, measurement)) : measurement.get();
    forgetLostRuntime();
    return c;
  }

  /** After a lost runtime child: its models and compiled models are gone, so are this side's handles of them. */
  private synchronized void forgetLostRuntime() {
    long now = runtime.generation();
    if (now != generation) {
      generation = now;
      compiled.close();
      models.clear();
    }
  }

  private synchronized MeasurementCost measureWithCost(OpGraph graph, Placement placement,
      MeasurementProtocol protocol, MeasurementDeadline.Stage stage) {
    long t0 = System.nanoTime();
    Map<String, String> affinities;
    try {
      affinities = new HeteroAffinity(graph).nameMap(placement);
    } catch (InvalidPlacementException e) {
      return MeasurementCost.beforeCompile(failed(e.getMessage()), t0);
    }
    Set<String> available = devices.stream().map(DeviceInfo::name).collect(Collectors.toCollection(LinkedHashSet::new));
    for (String used : new LinkedHashSet<>(affinities.values())) {
      if (!available.contains(used)) {
        return MeasurementCost.beforeCompile(failed("device " + used + " is not available on this machine (available: "
            + String.join(",", available) + ")"), t0);
      }
    }
    long compiling = MeasurementCost.NOT_REACHED;
    long inferring = MeasurementCost.NOT_REACHED;
    try {
      OpenVinoRuntime.Model m = model(graph);
      HeteroAffinity.ModelFit fit = HeteroAffinity.fitToModel(affinities, m.opNames());
      if (!fit.problems().isEmpty()) {
        return MeasurementCost.beforeCompile(failed(String.join("; ", fit.problems())), t0);
      }
      CompiledModels.Key key = new CompiledModels.Key(fileOf(graph), placement.devices().heteroString(),
          fit.affinities());
      OpenVinoRuntime.Compiled kept = compiled.kept(key);
      long resident = kept == null ? runtime.residentBytes() : 0;
      if (kept == null) {
        m.setAffinities(fit.affinities());
      }
      compiling = System.nanoTime();
      stage.enter("compiling");
      OpenVinoRuntime.Compiled c = kept != null ? kept
          : compiled.compile(key, () -> m.compile(key.device(), options.cacheDir(), false));
      inferring = System.nanoTime();
      stage.enter("inferring");
      Measurement result = compiled.use(key, c, kept == null, resident, options.seed(), k -> {
        // The protocol's warm-up runs on every call, on a kept model too: other placements ran since its last
        // measurement (caches, thread pools and memory are theirs now), so its first inference is cold again, and
        // each call's figure stays what a freshly compiled model's would be.
        double[] samples = k.inferTimed(protocol.warmupRuns(), protocol.runs());
        return Measurement.of(samples, protocol,
            SubModelCount.checked(k.reportedSubModels(), graph.nodeCount(), List.of()), NAME, profile);
      });
      return MeasurementCost.since(result, t0, compiling, inferring);
    } catch (RuntimeLostException e) {
      return MeasurementCost.since(failed(e.getMessage() + " while " + stage.current()), t0, compiling, inferring);
    } catch (OpenVinoException | IllegalStateException e) {
      return MeasurementCost.since(failed(e.getMessage()), t0, compiling, inferring);
    } catch (RuntimeException e) {
      // Never let one placement kill a tuning run.
      return MeasurementCost.since(failed("unexpected error: " + e), t0, compiling, inferring);
    }
  }

  /** {@link OpenVinoThroughput}: N requests in flight on a throughput-hinted compile; past the deadline, failed. */
  @Override
  public Measurement measureThroughput(OpGraph graph, Placement placement, MeasurementProtocol protocol, int requests) {
    if (runtime.isolated()) {
      return measureThroughputWithCost(graph, placement, protocol, requests).measurement();
    }
    return deadline.run("compile + " + requests + " requests in flight, " + protocol.describe(),
        stage -> measureThroughputWithCost(graph, placement, protocol, requests, stage).measurement(), this::failed);
  }

  /** {@link #measureThroughput} without a timeout, also saying where its time went, as {@link #measureWithCost} does. */
  public MeasurementCost measureThroughputWithCost(OpGraph graph, Placement placement, MeasurementProtocol protocol,
      int requests) {
    return bounded(placement, () -> measureThroughputWithCost(graph, placement, protocol, requests,
        new MeasurementDeadline.Stage()));
  }

  private synchronized MeasurementCost measureThroughputWithCost(OpGraph graph, Placement placement,
      MeasurementProtocol protocol, int requests, MeasurementDeadline.Stage stage) {
    return OpenVinoThroughput.measure(() -> model(graph), graph, placement, protocol, requests, devices, options,
        profile, stage);
  }

  /**
   * The cost model of {@code graph} on every device, built once per graph: per-op kernel times profiled inside a
   * HETERO split ({@link HeteroProfiling}) or read from the profile database, support from {@code query_model}; then
   * costs fitted ({@link HeteroFit}) to the designed placements of {@code HeteroSplitDesign} (one device: the {@value
   * KernelProfiles#LINK_PROFILE} profile's). Dynamic dimensions sized as opened. Each part measured goes to {@link
   * #costModelProgress}'s sink; saved measurements ({@link #reuseCostModelMeasurements}) are continued.
   *
   * @throws IllegalStateException when a device cannot compile or profile the model
   */
  @Override
  public synchronized HeteroCostModel costModel(OpGraph graph) {
    // A refusal while fitting leaves one design out of the fit: no failed measurement of the run.
    return costModels.get(graph, costs -> KernelProfiles.profile(model(graph), graph, costs, devices, shapes, options,
        costModels.database().records(graph, runtime.version(), devices, options)),
        p -> compiled.during(CompiledModels.DESIGNED_SPLITS,
            () -> bounded(null, () -> measureWithCost(graph, p, KernelProfiles.DESIGN_PROTOCOL,
                new MeasurementDeadline.Stage())).measurement()),
        () -> boundaryOracle(graph));
  }

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    return type == ProfileDatabaseUser.class ? Optional.of(type.cast(costModels.database()))
        : LatencyBackend.super.capability(type);
  }

  @Override
  public synchronized Optional<String> costModelMeasurements(OpGraph graph) {
    return costModels.measurements(graph);
  }

  @Override
  public synchronized Optional<FitError> costModelError(OpGraph graph) {
    return costModels.error(graph);
  }

  @Override
  public synchronized void reuseCostModelMeasurements(OpGraph graph, String measurements) {
    costModels.reuse(graph, measurements);
  }

  @Override
  public synchronized void costModelProgress(OpGraph graph, java.util.function.Consumer<String> sink) {
    costModels.progress(graph, sink);
  }

  @Override
  public synchronized boolean costModelPending(OpGraph graph) {
    return costModels.pending(graph);
  }

  @Override
  public synchronized Optional<String> costModelMeasured(OpGraph graph) {
    return costModels.measured(graph);
  }

  /** The model file of a bound graph. */
  private Path fileOf(OpGraph graph) {
    Path xml = modelFiles.getOrDefault(graph, graph.source().orElse(null));
    if (xml == null) {
      throw new IllegalStateException("openvino backend: graph '" + graph.name() + "' was built in memory, not read"
          + " from an IR file; write it and read it back (IrReader), or call bind(graph, model.xml)");
    }
    return xml;
  }

  /** The runtime's judge of HETERO's boundaries for a bound graph, no compile (docs/hetero-rules.md §3a). */
  public synchronized BoundaryOracle boundaryOracle(OpGraph graph) {
    return oracles.computeIfAbsent(graph, g -> RuntimeBoundaryOracle.cached(g, this, () -> model(g)));
  }

  @Override
  public Optional<BoundaryOracle> runtimeBoundaryOracle(OpGraph graph) {
    return Optional.of(boundaryOracle(graph));
  }

  /** The runtime model of a bound graph, read once and reshaped to the configured input shapes. */
  OpenVinoRuntime.Model model(OpGraph graph) {
    forgetLostRuntime();
    OpenVinoRuntime.Model m = models.get(graph);
    if (m != null) {
      return m;
    }
    m = runtime.readModel(fileOf(graph));
    try {
      StaticInputs.reshape(m, options);
    } catch (RuntimeException e) {
      m.close();
      throw e;
    }
    models.put(graph, m);
    return m;
  }

  private Measurement failed(String reason) {
    return Measurement.failed(reason, NAME, profile);
  }

  /** Keeps compiled models for reuse under {@code bytes} ({@link CompiledModels}); 0 compiles on every measurement. */
  @Override
  public synchronized void compileCacheBudget(long bytes, String source) {
    compiled.budget(bytes, source);
  }

  @Override
  public synchronized CompileStats compileStats() {
    return compiled.stats(NAME);
  }

  /** Releases every native handle; waits for a timed-out inference still running (its handles are in use). */
  @Override
  public synchronized void close() {
    deadline.close();
    compiled.close();
    models.values().forEach(OpenVinoRuntime.Model::close);
    models.clear();
    costModels.clear();
    runtime.close();
  }
}
