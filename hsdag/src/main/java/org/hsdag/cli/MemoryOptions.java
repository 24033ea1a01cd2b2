package org.hsdag.cli;

import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.cost.ProfileMemory;
import org.hsdag.sim.SimBackend;
import picocli.CommandLine.Option;

/**
 * The {@code --memory} picocli mixin: device capacities a placement must respect. On the simulator
 * they replace the profile's own capacities (which apply when it is not given); on OpenVINO they are
 * the only limits. A placement that does not fit is never measured.
 */
public final class MemoryOptions {
  @Option(names = "--memory", paramLabel = "DEV=SIZE[,...]",
      description = "Device memory capacities, e.g. GPU.1=8GiB,GPU.0=3GiB (units B, KB/MB/GB = 10^3.., KiB/MiB/GiB or "
          + "K/M/G = 2^10..). Placements that need more on a device (weights + activation peak + runtime overhead) "
          + "are never measured, and the planner keeps within them. Default: the sim profile's capacities "
          + "(none on openvino).")
  String memory;

  /** The user's capacities ({@link MemoryLimits#NONE} when not given). */
  public MemoryLimits limits() {
    if (memory == null || memory.isBlank()) {
      return MemoryLimits.NONE;
    }
    try {
      return MemoryLimits.parse(memory);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--memory: " + e.getMessage());
    }
  }

  /** {@code backend} with the user's capacities applied (a simulator fails what exceeds them as out of memory). */
  public LatencyBackend apply(LatencyBackend backend) {
    MemoryLimits user = limits();
    if (backend instanceof SimBackend sim && !user.isEmpty()) {
      try {
        return sim.withMemoryLimits(user);
      } catch (IllegalArgumentException e) {
        throw new UserInputException(e.getMessage());
      }
    }
    return backend;
  }

  /**
   * The memory check of {@code graph} on {@code devices}: the simulator's (its profile with the user's
   * capacities) or, on another backend, the user's capacities alone.
   *
   * @throws UserInputException when {@code --memory} names a device outside {@code devices}
   */
  public MemoryCheck check(LatencyBackend backend, OpGraph graph, DeviceSet devices) {
    MemoryLimits user = limits();
    try {
      user.requireWithin(devices.names(), "the devices");
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
    if (backend instanceof SimBackend sim) {
      return ProfileMemory.check(ProfileMemory.withCapacities(sim.deviceProfile(), user), graph, devices);
    }
    return MemoryCheck.of(graph, devices, user, java.util.Map.of());
  }
}
