package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MachineDescription;
import org.hsdag.memory.ByteSizes;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.cost.DeviceProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hsdag devices}: the devices a backend offers, with full names, and which backend and profile that is. */
@Command(name = "devices", mixinStandardHelpOptions = true,
    description = "List the devices of a backend (name and full name) and say which backend and profile answered.")
public final class DevicesCommand implements Callable<Integer> {
  @Mixin
  BackendOptions backendOptions;

  @Option(names = "--json", description = "Print machine-readable JSON instead of text.")
  boolean json;

  @Option(names = "--list-profiles", description = "List the built-in simulator profiles and exit.")
  boolean listProfiles;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (listProfiles) {
      for (String name : DeviceProfile.BUILT_IN) {
        DeviceProfile p = DeviceProfile.load(name);
        out.printf("%-20s %s%n", name, p.description());
      }
      out.flush();
      return ExitCodes.OK;
    }
    try (LatencyBackend backend = backendOptions.open(SeedOptions.DEFAULT, notice -> err.println("hsdag: " + notice))) {
      Map<String, Object> summary = summarize(backend);
      if (json) {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(summary));
      } else {
        printText(out, backend);
      }
    }
    out.flush();
    err.flush();
    return ExitCodes.OK;
  }

  /** Backend, profile and devices as an ordered map (the JSON form). */
  static Map<String, Object> summarize(LatencyBackend backend) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("backend", backend.name());
    s.put("profile", backend.profile());
    s.put("simulated", backend.simulated());
    if (!backend.simulated()) {
      s.put("runtime", OpenVinoAvailability.runtimeSource());
    }
    List<Map<String, Object>> devices = new ArrayList<>();
    for (DeviceInfo d : backend.devices()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", d.name());
      m.put("full_name", d.fullName());
      backend.capability(MachineDescription.class).ifPresent(machine -> m.putAll(machine.figures(d.name())));
      m.put("memory_bytes", capacity(backend, d.name()) == Long.MAX_VALUE ? null : capacity(backend, d.name()));
      devices.add(m);
    }
    s.put("devices", devices);
    s.put("memory_capacities", MemoryOptions.capacitySource(backend));
    return s;
  }

  private static void printText(PrintWriter out, LatencyBackend backend) {
    if (backend.simulated()) {
      String description = backend.capability(MachineDescription.class).map(m -> " — " + m.description()).orElse("");
      out.printf("backend  %s (simulated: numbers come from a model of the machine, not from hardware)%n",
          backend.name());
      out.printf("profile  %s%s%n", backend.profile(), description);
    } else {
      out.printf("backend  %s (hardware)%n", backend.name());
      out.printf("machine  %s%n", backend.profile());
      String source = OpenVinoAvailability.runtimeSource();
      if (!source.isEmpty()) {
        out.printf("runtime  %s%n", source);
      }
    }
    out.printf("%-7s %-6s %-10s %s%n", "DEVICE", "KIND", "MEMORY", "FULL NAME");
    // The kind as the machine states it, else from the name (as every command reads it): never an empty column.
    java.util.List<org.hsdag.placement.DeviceKind> kinds = org.hsdag.backend.DeviceKinds.of(backend,
        org.hsdag.placement.DeviceSet.of(backend.devices().stream().map(DeviceInfo::name).toArray(String[]::new)));
    for (int i = 0; i < backend.devices().size(); i++) {
      DeviceInfo d = backend.devices().get(i);
      String kind = kinds.get(i).label().isEmpty() ? "other" : kinds.get(i).label();
      long bytes = capacity(backend, d.name());
      out.printf("%-7s %-6s %-10s %s%n", d.name(), kind, bytes == Long.MAX_VALUE ? "-" : ByteSizes.format(bytes),
          d.fullName());
    }
    out.printf("memory capacities: %s%n", MemoryOptions.capacitySource(backend));
  }

  /** The capacity the backend knows for {@code device}, {@link Long#MAX_VALUE} when none. */
  private static long capacity(LatencyBackend backend, String device) {
    return backend.capability(DeviceMemorySource.class).map(m -> m.capacities().capacity(device))
        .orElse(Long.MAX_VALUE);
  }
}
