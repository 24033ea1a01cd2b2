package org.hsdag.cost;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemory;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.memory.MemoryModel;
import org.hsdag.placement.DeviceSet;

/** The device memory a {@link DeviceProfile} states, as {@link MemoryLimits} and a {@link MemoryCheck}. */
public final class ProfileMemory {
  /** The source of a capacity the user's {@code --memory} replaced. */
  public static final String SET_BY_USER = "set by --memory";

  private ProfileMemory() {}

  /** Capacities of the profile's devices that state one. */
  public static MemoryLimits limits(DeviceProfile profile) {
    Map<String, Long> caps = new LinkedHashMap<>();
    for (DeviceModel d : profile.devices()) {
      if (d.memory() != null && d.memory().capacityBytes() > 0) {
        caps.put(d.name(), d.memory().capacityBytes());
      }
    }
    return new MemoryLimits(caps);
  }

  /** Runtime overhead of each device that states one. */
  public static Map<String, Long> overheads(DeviceProfile profile) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (DeviceModel d : profile.devices()) {
      if (d.memory() != null) {
        out.put(d.name(), d.memory().runtimeOverheadBytes());
      }
    }
    return out;
  }

  /**
   * The profile with the capacities of {@code caps} (the user's {@code --memory}) replacing its own;
   * the source of a replaced figure says so.
   *
   * @throws IllegalArgumentException when {@code caps} names a device the profile lacks
   */
  public static DeviceProfile withCapacities(DeviceProfile profile, MemoryLimits caps) {
    caps.requireWithin(profile.devices().stream().map(DeviceModel::name).toList(), "profile " + profile.name());
    if (caps.isEmpty()) {
      return profile;
    }
    List<DeviceModel> devices = new ArrayList<>();
    for (DeviceModel d : profile.devices()) {
      Long cap = caps.capacities().get(d.name());
      if (cap == null) {
        devices.add(d);
        continue;
      }
      long overhead = d.memory() == null ? 0 : d.memory().runtimeOverheadBytes();
      devices.add(d.withMemory(new DeviceMemory(cap, overhead, SET_BY_USER)));
    }
    return new DeviceProfile(profile.name(), profile.description(), profile.sources(), profile.requestOverheadUs(),
        devices);
  }

  /** The memory check of {@code graph} on {@code devices} with this profile's capacities and overheads. */
  public static MemoryCheck check(DeviceProfile profile, MemoryModel model, DeviceSet devices) {
    return new MemoryCheck(model, devices, limits(profile), overheads(profile));
  }

  /** {@link #check(DeviceProfile, MemoryModel, DeviceSet)} building the graph's model. */
  public static MemoryCheck check(DeviceProfile profile, OpGraph graph, DeviceSet devices) {
    return check(profile, new MemoryModel(graph), devices);
  }
}
