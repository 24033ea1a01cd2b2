package org.hsdag.bench.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.ModelArgument;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Proxies;
import org.hsdag.plan.ProxyUnavailableException;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputBackend;

/**
 * What {@code bench throughput} judges placements on, and how its {@code tune} runs reach the same
 * machine: a simulator profile (both figures noise-free, every one simulated), or the real runtime
 * of {@code --backend openvino} (both figures measured: the latency of one request at a time, and
 * the time per inference with N asynchronous requests in flight, each by the judge's protocol).
 */
final class ThroughputJudge implements AutoCloseable {
  private final String target;
  private final LatencyBackend backend;
  private final ThroughputBackend throughput;
  private final int requests;
  private final MeasurementProtocol protocol;
  private final List<String> tuneArgs;
  private final String proxyProfile;
  private final ShapeAssumption shapes;
  private final List<String> failures = new ArrayList<>();

  private ThroughputJudge(String target, LatencyBackend backend, int requests, MeasurementProtocol protocol,
      List<String> tuneArgs, String proxyProfile, ShapeAssumption shapes) {
    this.target = target;
    this.backend = backend;
    this.throughput = ThroughputBackend.wrap(backend, requests);
    this.requests = requests;
    this.protocol = protocol;
    this.tuneArgs = List.copyOf(tuneArgs);
    this.proxyProfile = proxyProfile;
    this.shapes = shapes;
  }

  /** The simulator on profile {@code profileName}, noise-free. */
  static ThroughputJudge sim(String profileName, int requests, List<String> tuneArgs) {
    DeviceProfile profile = DeviceProfile.load(profileName);
    List<String> args = new ArrayList<>(List.of("--backend", "sim", "--profile", profileName));
    args.addAll(tuneArgs);
    return new ThroughputJudge(profileName, new SimBackend(profile, SimOptions.exact()), requests, null, args, null,
        ShapeAssumption.DEFAULT);
  }

  /**
   * The real runtime {@code backend} (closed with the judge), each figure measured by {@code
   * protocol}; {@code tuneArgs} open the same machine in {@code tune}. The plan-only rows plan on
   * {@code proxyProfile}'s cost model, or the backend's own (profiled) when null, sizing dynamic
   * inputs as {@code shapes} says (as the backend was opened).
   */
  static ThroughputJudge real(LatencyBackend backend, int requests, MeasurementProtocol protocol,
      List<String> tuneArgs, String proxyProfile, ShapeAssumption shapes) {
    return new ThroughputJudge(backend.name(), backend, requests, protocol, tuneArgs, proxyProfile, shapes);
  }

  /** True when every figure is simulated. */
  boolean simulated() {
    return protocol == null;
  }

  /** The table's first column: the sim profile's name, or the real backend's name. */
  String target() {
    return target;
  }

  /** Backend and profile, for the header every figure sits under. */
  String describe() {
    return simulated() ? "backend sim, profile " + target + " (every figure simulated, noise-free)"
        : String.format(Locale.ROOT, "backend %s, profile %s (every figure measured on hardware, not simulated; "
            + "each figure by protocol %s)", backend.name(), backend.profile(), protocol.describe());
  }

  LatencyBackend backend() {
    return backend;
  }

  /**
   * The model {@code name} for this judge, and what {@code tune} is given for it: on the simulator
   * the catalog model built in memory; on a runtime its {@linkplain #file file}, bound to the backend.
   */
  Model model(String name) throws IOException {
    if (simulated()) {
      if (!ModelCatalog.names().contains(name)) {
        throw new UserInputException("model '" + name + "' is not a catalog model (" + String.join(", ",
            ModelCatalog.names()) + "); the simulator's experiment takes names");
      }
      return new Model(name, name, ModelCatalog.get(name).build().graph());
    }
    return bound(file(name));
  }

  /** The model file {@code name} names, read (a catalog name resolves to the bundled XML): for a runtime. */
  static Model file(String name) throws IOException {
    Path xml = ModelArgument.resolve(Path.of(name));
    if (!Files.isRegularFile(xml)) {
      throw new UserInputException("model '" + name + "' is neither a file nor a catalog model");
    }
    return new Model(name, xml.toString(), ModelArgument.read(xml));
  }

  /** {@code file} bound to this judge's runtime (its stand-in weights written when missing). */
  Model bound(Model file) {
    TuneBackends.bind(backend, file.graph(), Path.of(file.tuneArgument()));
    return file;
  }

  /** A model: its label, what {@code tune} is given, and its graph. */
  record Model(String label, String tuneArgument, OpGraph graph) {}

  /** The arguments that make {@code tune} run on this judge's machine. */
  List<String> tuneArgs() {
    return tuneArgs;
  }

  /** Which placements fit the devices' memory (the profile's capacities, or what the runtime reports). */
  Predicate<Placement> memory(OpGraph g, DeviceSet ds) {
    MemoryCheck check = memoryCheck(g, ds);
    return check == null ? p -> true : check::fits;
  }

  private MemoryCheck memoryCheck(OpGraph g, DeviceSet ds) {
    if (simulated()) {
      return backend.capability(SimBackend.class).orElseThrow().memoryCheck(g, ds);
    }
    return backend.capability(DeviceMemorySource.class).map(s -> s.memoryCheck(g, ds, MemoryLimits.NONE))
        .orElse(null);
  }

  /** The planner's cost model of {@code g} on {@code ds}, within the devices' memory: for the plan-only rows. */
  PlacementProxy proxy(OpGraph g, DeviceSet ds) {
    PlacementProxy proxy;
    if (simulated()) {
      proxy = PlacementProxy.ofSim(backend.capability(SimBackend.class).orElseThrow(), g, ds);
    } else {
      try {
        proxy = Proxies.resolve(backend, g, ds, proxyProfile, shapes).proxy();
      } catch (ProxyUnavailableException | IllegalArgumentException e) {
        throw new UserInputException(g.name() + ": " + e.getMessage());
      }
    }
    MemoryCheck check = memoryCheck(g, ds);
    return check == null ? proxy : proxy.withMemory(check);
  }

  /**
   * Both figures of {@code p}: noise-free on the simulator; measured on a runtime (latency, then
   * throughput). Null when it cannot run (on a runtime the reason is kept: {@link #failures}).
   */
  ObjectiveFigures figures(OpGraph g, Placement p) {
    if (simulated()) {
      return throughput.figures(g, p);
    }
    Measurement latency = backend.measure(g, p, protocol);
    if (!latency.ok()) {
      failures.add(latency.reason());
      return null;
    }
    Measurement period = throughput.measure(g, p, protocol);
    if (!period.ok()) {
      failures.add(period.reason());
      return null;
    }
    return new ObjectiveFigures(latency.latencyMillis(), period.latencyMillis(),
        ThroughputBackend.requestsFor(requests, p.devices()));
  }

  /** Why measurements failed on the runtime, in order. */
  List<String> failures() {
    return List.copyOf(failures);
  }

  @Override
  public void close() {
    backend.close();
  }
}
