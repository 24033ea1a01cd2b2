package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.io.AtomicFiles;
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
  /** The run folder's record of the capacities a tune started with, so a resumed run keeps them. */
  public static final String FILE = "memory.json";

  private static final ObjectMapper JSON = new ObjectMapper();

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

  /** Keeps the user's capacities (if any) in {@code runDir}. */
  void save(Path runDir) throws IOException {
    if (memory != null && !memory.isBlank()) {
      AtomicFiles.writeString(runDir.resolve(FILE), JSON.writeValueAsString(Map.of("memory", memory)) + "\n");
    }
  }

  /** The capacities the run in {@code runDir} started with (none when it saved none). */
  static MemoryOptions savedIn(Path runDir) throws IOException {
    MemoryOptions saved = new MemoryOptions();
    Path file = runDir.resolve(FILE);
    if (Files.exists(file)) {
      saved.memory = JSON.readTree(Files.readAllBytes(file)).path("memory").asText(null);
    }
    return saved;
  }

  /** {@code backend} with the user's capacities applied (a simulator fails what exceeds them as out of memory). */
  public LatencyBackend apply(LatencyBackend backend) {
    MemoryLimits user = limits();
    var sim = backend.capability(SimBackend.class);
    if (sim.isPresent() && !user.isEmpty()) {
      try {
        return sim.get().withMemoryLimits(user);
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
    var sim = backend.capability(SimBackend.class);
    if (sim.isPresent()) {
      return ProfileMemory.check(ProfileMemory.withCapacities(sim.get().deviceProfile(), user), graph, devices);
    }
    return MemoryCheck.of(graph, devices, user, java.util.Map.of());
  }
}
