package org.hsdag.memory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A {@link MemoryModel} of one graph on one device set, with each device's capacity and runtime
 * overhead: says whether a placement fits, and what it needs per device. Immutable, thread-safe.
 */
public final class MemoryCheck {
  /** Every reason this class gives starts so; {@link #isOutOfMemory} recognises them. */
  public static final String OUT_OF_MEMORY = "out of memory on ";
  /** Prefix of a placement refused before it was measured. */
  public static final String REJECTED = "rejected by the memory model, not measured: ";

  private final MemoryModel model;
  private final DeviceSet devices;
  private final long[] capacity;
  private final long[] overhead;
  private final MemoryLimits limits;

  /**
   * @param limits capacities by device name (devices without one are not limited)
   * @param overheads runtime overhead by device name (absent: 0)
   */
  public MemoryCheck(MemoryModel model, DeviceSet devices, MemoryLimits limits, Map<String, Long> overheads) {
    this.model = Objects.requireNonNull(model, "model");
    this.devices = Objects.requireNonNull(devices, "devices");
    this.limits = Objects.requireNonNull(limits, "limits");
    capacity = new long[devices.size()];
    overhead = new long[devices.size()];
    for (int d = 0; d < devices.size(); d++) {
      capacity[d] = limits.capacity(devices.name(d));
      overhead[d] = overheads.getOrDefault(devices.name(d), 0L);
    }
  }

  /** A check of {@code graph} on {@code devices}. */
  public static MemoryCheck of(OpGraph graph, DeviceSet devices, MemoryLimits limits, Map<String, Long> overheads) {
    return new MemoryCheck(new MemoryModel(graph), devices, limits, overheads);
  }

  public MemoryModel model() {
    return model;
  }

  public DeviceSet devices() {
    return devices;
  }

  public MemoryLimits limits() {
    return limits;
  }

  /** Whether any device of the set has a capacity. */
  public boolean limitsAny() {
    for (long c : capacity) {
      if (c != Long.MAX_VALUE) {
        return true;
      }
    }
    return false;
  }

  /** Capacity of device index {@code d} ({@link Long#MAX_VALUE}: none). */
  public long capacity(int d) {
    return capacity[d];
  }

  /** Runtime overhead of device index {@code d}. */
  public long overhead(int d) {
    return overhead[d];
  }

  /** Memory per device of the set (in set order) under {@code placement}. */
  public List<MemoryUse> use(Placement placement) {
    requireSameDevices(placement);
    return use(placement.deviceOf());
  }

  /** Memory per device under a device index per node. */
  public List<MemoryUse> use(int[] deviceOf) {
    return model.use(deviceOf, devices.size(), overhead, capacity, devices.names());
  }

  /** Whether every device holds what {@code placement} puts there. */
  public boolean fits(Placement placement) {
    return violation(placement).isEmpty();
  }

  /** Whether every device holds what a device index per node puts there. */
  public boolean fits(int[] deviceOf) {
    return violation(deviceOf).isEmpty();
  }

  /** The one-line reason {@code placement} does not fit, or empty when it does. */
  public Optional<String> violation(Placement placement) {
    requireSameDevices(placement);
    return violation(placement.deviceOf());
  }

  private Optional<String> violation(int[] deviceOf) {
    if (!limitsAny()) {
      return Optional.empty();
    }
    for (MemoryUse u : use(deviceOf)) {
      if (!u.fits()) {
        return Optional.of(OUT_OF_MEMORY + u.device() + ": needs " + ByteSizes.format(u.totalBytes()) + " (weights "
            + ByteSizes.format(u.weightBytes()) + ", activations " + ByteSizes.format(u.activationPeakBytes())
            + ", runtime " + ByteSizes.format(u.overheadBytes()) + ") but has " + ByteSizes.format(u.capacityBytes())
            + ", " + ByteSizes.format(u.totalBytes() - u.capacityBytes()) + " over");
      }
    }
    return Optional.empty();
  }

  /**
   * One line per capped device whose runtime overhead alone reaches its capacity: nothing can be
   * placed there, so a plan silently avoids it unless this is said.
   */
  public List<String> unusableDevices() {
    List<String> out = new java.util.ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      if (capacity[d] != Long.MAX_VALUE && overhead[d] >= capacity[d]) {
        out.add(devices.name(d) + "'s runtime overhead alone (" + ByteSizes.format(overhead[d])
            + ") fills its memory capacity (" + ByteSizes.format(capacity[d]) + "): nothing can be placed on it");
      }
    }
    return out;
  }

  /**
   * Why no placement can fit, when that is clear before planning: every device is unusable, or the
   * model's weights exceed what the usable devices hold after their runtime overhead (a lower bound:
   * activations need more). Empty when a placement may fit.
   */
  public Optional<String> noPlacementFits() {
    long weights = java.util.Arrays.stream(model.weightBytesByLeader()).sum();
    long room = 0;
    List<String> caps = new java.util.ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      if (capacity[d] == Long.MAX_VALUE) {
        return Optional.empty();
      }
      room += Math.max(0, capacity[d] - overhead[d]);
      caps.add(devices.name(d) + " " + ByteSizes.format(capacity[d])
          + (overhead[d] > 0 ? " less " + ByteSizes.format(overhead[d]) + " runtime" : ""));
    }
    if (room > weights) {
      return Optional.empty();
    }
    return Optional.of("no placement fits: the model's weights (" + ByteSizes.format(weights)
        + ") exceed what the devices hold (" + String.join(", ", caps) + "); raise --memory or add a device");
  }

  /** Each capped device of the set with its capacity and runtime overhead, e.g. {@code GPU.1 8.00 GiB (512.00 MiB runtime)}. */
  public String describeCapacities() {
    List<String> caps = new java.util.ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      if (capacity[d] != Long.MAX_VALUE) {
        caps.add(devices.name(d) + " " + ByteSizes.format(capacity[d])
            + (overhead[d] > 0 ? " (" + ByteSizes.format(overhead[d]) + " runtime)" : ""));
      }
    }
    return String.join(", ", caps);
  }

  /** Whether a failure reason is a memory one (from this class, the simulator or a guard). */
  public static boolean isOutOfMemory(String reason) {
    return reason != null && (reason.startsWith(OUT_OF_MEMORY) || reason.startsWith(REJECTED));
  }

  private void requireSameDevices(Placement placement) {
    if (!placement.devices().equals(devices)) {
      throw new IllegalArgumentException("placement on " + placement.devices() + ", memory check on " + devices);
    }
  }
}
