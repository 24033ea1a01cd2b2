package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Predicate;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;

/**
 * The paper's OpenVINO-CPU / OpenVINO-GPU baselines: what OpenVINO decides on its own with CPU or
 * GPU as first preference. AUTO never splits a model; it runs it on the highest-priority device
 * that supports every op and has the memory for it. When no single device does, the model can only run through HETERO's
 * automatic mode, which offers each op to the devices in priority order and keeps the first that
 * supports it (notes/placement-systems.md §5.4). Priority follows the devices' kinds ({@link
 * SearchContext#deviceKinds}): among GPUs AUTO takes discrete before integrated; devices other than
 * CPUs and GPUs (e.g. NPU) come after them. Proposes once.
 */
public final class AutoEmulationStrategy extends OneShotStrategy {
  /** Which device class AUTO is told to prefer. */
  public enum Preference {
    CPU, GPU
  }

  /** What the emulation decided: one device for the whole model, or HETERO automatic mode. */
  public enum Mode {
    AUTO_SINGLE_DEVICE, HETERO_AUTOMATIC
  }

  private final String methodName;
  private final Preference preference;
  private Mode mode;
  private List<String> priority;

  public AutoEmulationStrategy(String methodName, Preference preference) {
    this.methodName = methodName;
    this.preference = preference;
  }

  @Override
  public String name() {
    return methodName;
  }

  /** The device priority AUTO/HETERO used (valid after {@link #init}). */
  public List<String> priority() {
    return List.copyOf(priority);
  }

  /** Whether AUTO found one device for the whole model (valid after {@link #init}). */
  public Mode mode() {
    return mode;
  }

  /**
   * The AUTO priority order over {@code devices} (of the given {@code kinds}, in the same order) for
   * a preference: CPUs, then GPUs — discrete before integrated, each in set order — or the GPUs
   * first; every other kind (e.g. NPU) after them.
   */
  public static List<Integer> priorityOrder(DeviceSet devices, List<DeviceKind> kinds, Preference preference) {
    List<Integer> cpus = new ArrayList<>();
    List<Integer> gpus = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      DeviceKind k = kinds.get(d);
      (k == DeviceKind.CPU ? cpus : k.isGpu() ? gpus : others).add(d);
    }
    gpus.sort(Comparator.comparing((Integer d) -> kinds.get(d) == DeviceKind.INTEGRATED_GPU).thenComparing(d -> d));
    List<Integer> order = new ArrayList<>();
    if (preference == Preference.CPU) {
      order.addAll(cpus);
      order.addAll(gpus);
    } else {
      order.addAll(gpus);
      order.addAll(cpus);
    }
    order.addAll(others);
    return order;
  }

  /**
   * AUTO's one device for the whole model: the first in {@code order} that supports every op and
   * whose placement {@code fits} the device memory. AUTO compiles on the best device and, when that
   * fails, tries the next until one succeeds (OpenVINO's AUTO page, "How AUTO works":
   * docs.openvino.ai/cn/nightly/openvino_docs_OV_UG_supported_plugins_AUTO.html); a model over a
   * device's memory fails to compile there. Empty: no device runs it alone.
   */
  public static OptionalInt singleDevice(DeviceSet devices, SupportMatrix support, int nodes, List<Integer> order,
      Predicate<Placement> fits) {
    for (int d : order) {
      boolean all = true;
      for (int v = 0; v < nodes && all; v++) {
        all = support.allowed(v, d);
      }
      if (all && fits.test(Placement.allOn(devices, nodes, devices.name(d)))) {
        return OptionalInt.of(d);
      }
    }
    return OptionalInt.empty();
  }

  @Override
  protected Placement choose(SearchContext context) {
    DeviceSet devices = context.devices();
    SupportMatrix support = context.support();
    int n = context.graph().nodeCount();
    List<Integer> order = priorityOrder(devices, context.deviceKinds(), preference);
    priority = order.stream().map(devices::name).toList();
    Predicate<Placement> fits = p -> context.memory().map(m -> m.fits(p)).orElse(true);
    OptionalInt single = singleDevice(devices, support, n, order, fits);
    if (single.isPresent()) {
      mode = Mode.AUTO_SINGLE_DEVICE;
      return Placement.allOn(devices, n, devices.name(single.getAsInt()));
    }
    mode = Mode.HETERO_AUTOMATIC;
    int[] a = new int[n];
    for (int v = 0; v < n; v++) {
      a[v] = order.get(order.size() - 1); // HETERO's fallback: the last device
      for (int d : order) {
        if (support.allowed(v, d)) {
          a[v] = d;
          break;
        }
      }
    }
    return new Placement(devices, a);
  }
}
