package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;

/**
 * The paper's OpenVINO-CPU / OpenVINO-GPU baselines: what OpenVINO decides on its own with CPU or
 * GPU as first preference. AUTO never splits a model; it runs it on the highest-priority device
 * that supports every op. When no single device does, the model can only run through HETERO's
 * automatic mode, which offers each op to the devices in priority order and keeps the first that
 * supports it (notes/placement-systems.md §5.4). Priority among GPUs follows AUTO (discrete before
 * integrated; OpenVINO numbers the integrated GPU {@code GPU.0}, so {@code GPU.0} goes last);
 * devices other than CPU and GPUs (e.g. NPU) come after them. Proposes once.
 */
public final class AutoEmulationStrategy extends OneShotStrategy {
  /** Which device class AUTO is told to prefer. */
  public enum Preference {
    CPU,
    GPU
  }

  /** What the emulation decided: one device for the whole model, or HETERO automatic mode. */
  public enum Mode {
    AUTO_SINGLE_DEVICE,
    HETERO_AUTOMATIC
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

  /** The AUTO priority order over {@code devices} for a preference. */
  public static List<Integer> priorityOrder(DeviceSet devices, Preference preference) {
    List<Integer> cpus = new ArrayList<>();
    List<Integer> gpus = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      String n = devices.name(d);
      if (n.equals("CPU")) {
        cpus.add(d);
      } else if (n.startsWith("GPU")) {
        gpus.add(d);
      } else {
        others.add(d);
      }
    }
    gpus.sort(Comparator.comparingInt((Integer d) -> gpuRank(devices.name(d))).thenComparing(d -> d));
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

  // Discrete GPUs (GPU.1, GPU.2, ...) before the integrated GPU.0 / plain "GPU".
  private static int gpuRank(String name) {
    if (name.equals("GPU") || name.equals("GPU.0")) {
      return Integer.MAX_VALUE;
    }
    int dot = name.indexOf('.');
    try {
      return dot < 0 ? Integer.MAX_VALUE - 1 : Integer.parseInt(name.substring(dot + 1));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE - 1;
    }
  }

  @Override
  protected Placement choose(SearchContext context) {
    DeviceSet devices = context.devices();
    SupportMatrix support = context.support();
    int n = context.graph().nodeCount();
    List<Integer> order = priorityOrder(devices, preference);
    priority = order.stream().map(devices::name).toList();
    for (int d : order) {
      boolean all = true;
      for (int v = 0; v < n && all; v++) {
        all = support.allowed(v, d);
      }
      if (all) {
        mode = Mode.AUTO_SINGLE_DEVICE;
        return Placement.allOn(devices, n, devices.name(d));
      }
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
