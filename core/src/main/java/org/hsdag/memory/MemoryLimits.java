package org.hsdag.memory;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.placement.DeviceSet;

/**
 * Capacities per device name, in bytes: the profile's, overridden by the user's {@code --memory}.
 * A device without an entry is not limited.
 *
 * @param capacities device name to bytes (each > 0)
 */
public record MemoryLimits(Map<String, Long> capacities) {
  /** No device is limited. */
  public static final MemoryLimits NONE = new MemoryLimits(Map.of());

  public MemoryLimits {
    capacities = Map.copyOf(capacities);
    capacities.forEach((d, b) -> {
      if (b == null || b <= 0) {
        throw new IllegalArgumentException("capacity of " + d + " must be > 0");
      }
    });
  }

  /**
   * Parses {@code GPU.1=8GiB,GPU.0=3GiB} (device names as {@link DeviceSet} spells them).
   *
   * @throws IllegalArgumentException with a one-line reason for a malformed entry, a bad size or a repeated device
   */
  public static MemoryLimits parse(String text) {
    Map<String, Long> caps = new LinkedHashMap<>();
    for (String entry : text.split(",", -1)) {
      String e = entry.trim();
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new IllegalArgumentException("bad memory entry '" + e + "': expected DEVICE=SIZE, e.g. GPU.1=8GiB");
      }
      String device = DeviceSet.canonical(e.substring(0, eq).trim());
      if (caps.put(device, ByteSizes.parse(e.substring(eq + 1))) != null) {
        throw new IllegalArgumentException("memory of " + device + " is given twice");
      }
    }
    return new MemoryLimits(caps);
  }

  /** These limits with {@code override}'s entries replacing or adding to them. */
  public MemoryLimits overriddenBy(MemoryLimits override) {
    Map<String, Long> m = new LinkedHashMap<>(capacities);
    m.putAll(override.capacities);
    return new MemoryLimits(m);
  }

  /** Capacity of {@code device} in bytes, or {@link Long#MAX_VALUE} when it is not limited. */
  public long capacity(String device) {
    return capacities.getOrDefault(device, Long.MAX_VALUE);
  }

  public boolean isEmpty() {
    return capacities.isEmpty();
  }

  /**
   * Checks that every limited device is one of {@code devices}.
   *
   * @throws IllegalArgumentException naming the first device that is not
   */
  public void requireWithin(Collection<String> devices, String what) {
    for (String d : capacities.keySet()) {
      if (!devices.contains(d)) {
        throw new IllegalArgumentException("--memory names " + d + ", which is not among " + what + " ("
            + String.join(",", devices) + ")");
      }
    }
  }
}
