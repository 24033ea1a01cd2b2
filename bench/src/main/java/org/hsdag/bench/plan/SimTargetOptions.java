package org.hsdag.bench.plan;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.placement.DeviceSet;
import org.hsdag.cost.DeviceProfile;
import picocli.CommandLine.Option;

/** The picocli mixin of the simulated machine an experiment runs on: the profile and the device sets. */
public final class SimTargetOptions {
  @Option(names = "--profile", paramLabel = "NAME", defaultValue = "paper",
      description = "Simulator profile (default: ${DEFAULT-VALUE})")
  String profile;

  @Option(names = "--devices", paramLabel = "LIST", converter = DeviceSetConverter.class,
      description = "A device set, e.g. CPU,GPU.1 (repeat for several; default: the experiment's)")
  List<DeviceSet> deviceSets = new ArrayList<>();

  DeviceProfile profile() {
    return DeviceProfile.load(profile);
  }

  /** The device sets given, or {@code defaults}. */
  List<DeviceSet> deviceSetsOr(List<DeviceSet> defaults) {
    return deviceSets.isEmpty() ? defaults : List.copyOf(deviceSets);
  }

  /** Parses one {@code --devices} value. */
  public static final class DeviceSetConverter implements picocli.CommandLine.ITypeConverter<DeviceSet> {
    @Override
    public DeviceSet convert(String value) {
      return DeviceSet.parse(value);
    }
  }
}
