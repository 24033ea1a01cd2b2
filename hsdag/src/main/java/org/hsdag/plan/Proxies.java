package org.hsdag.plan;

import java.nio.file.Path;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.SimGraph;
import org.hsdag.throughput.ThroughputMeasuring;

/** Where a search's cost model comes from: a profile file the user names, or the backend itself. */
public final class Proxies {
  private Proxies() {}

  /**
   * A proxy and the words that say where it came from, e.g. {@code cost model of sim/paper}.
   *
   * @param proxy the placement proxy on the search's devices
   * @param source where its numbers come from, for every line that prints one
   */
  public record Resolved(PlacementProxy proxy, String source) {}

  /**
   * The proxy of {@code graph} on {@code devices}: from {@code proxyProfile} (a simulator profile,
   * e.g. from {@code hsdag calibrate}) when given, else from the backend's own cost model.
   *
   * @param proxyProfile a profile name or file, or null
   * @param shapes the sizes of dynamic dimensions, for a proxy built from a profile
   * @throws ProxyUnavailableException when neither gives one
   * @throws IllegalArgumentException when the profile cannot be read
   */
  public static Resolved resolve(LatencyBackend backend, OpGraph graph, DeviceSet devices, String proxyProfile,
      ShapeAssumption shapes) {
    if (proxyProfile != null) {
      DeviceProfile profile = DeviceProfile.load(proxyProfile);
      requireDevices(profile.devices().stream().map(d -> d.name()).toList(), devices, "proxy profile " + proxyProfile);
      HeteroCostModel model = SimGraph.build(graph, profile, new CostModel(shapes)).costModel();
      return forObjectiveOf(backend, new Resolved(PlacementProxy.of(graph, model, devices), "cost model of profile "
          + profileLabel(proxyProfile)), devices);
    }
    var source = backend.capability(CostModelSource.class);
    if (source.isPresent()) {
      HeteroCostModel model;
      try {
        model = source.get().costModel(graph);
      } catch (RuntimeException e) {
        // A cost model that cannot be built (a device that fails to compile or profile the model) only costs the warm start.
        throw new ProxyUnavailableException(
            "backend " + backend.name() + " could not build its cost model (" + e.getMessage() + ")");
      }
      requireDevices(model.deviceNames(), devices, backend.name() + "/" + backend.profile());
      return forObjectiveOf(backend,
          new Resolved(PlacementProxy.of(graph, model, devices), "cost model of " + backend.name()
              + "/" + backend.profile()),
          devices);
    }
    throw new ProxyUnavailableException("backend " + backend.name() + " offers no per-op cost model; pass "
        + "--proxy-profile FILE (a profile from 'hsdag calibrate') to plan with one");
  }

  /** A backend that measures throughput ({@link ThroughputMeasuring}) plans for throughput too. */
  private static Resolved forObjectiveOf(LatencyBackend backend, Resolved resolved, DeviceSet devices) {
    var throughput = backend.capability(ThroughputMeasuring.class);
    return throughput.isEmpty() ? resolved : forThroughput(resolved, throughput.get().requested(), devices);
  }

  /** {@code resolved} for the throughput objective with {@code requested} in flight (0: the devices + 1). */
  public static Resolved forThroughput(Resolved resolved, int requested, DeviceSet devices) {
    int n = ThroughputMeasuring.requestsFor(requested, devices);
    return new Resolved(resolved.proxy().forThroughput(n), resolved.source() + ", time per inference with " + n
        + " requests in flight");
  }

  private static void requireDevices(java.util.Collection<String> available, DeviceSet devices, String what) {
    for (String d : devices.names()) {
      if (!available.contains(d)) {
        throw new ProxyUnavailableException(
            what + " has no device " + d + " (it has " + String.join(", ", available) + ")");
      }
    }
  }

  private static String profileLabel(String nameOrPath) {
    Path p = Path.of(nameOrPath);
    return p.getFileName() == null ? nameOrPath : p.getFileName().toString();
  }
}
