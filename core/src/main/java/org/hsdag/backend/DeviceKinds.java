package org.hsdag.backend;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;

/** The kind of each device of a set on a backend: as its machine description states, else from the device name. */
public final class DeviceKinds {
  private DeviceKinds() {}

  /** One kind per device of {@code devices}, in set order. */
  public static List<DeviceKind> of(LatencyBackend backend, DeviceSet devices) {
    var machine = backend.capability(MachineDescription.class);
    List<DeviceKind> kinds = new ArrayList<>();
    for (String d : devices.names()) {
      DeviceKind stated = machine.map(m -> DeviceKind.parse(m.kind(d))).orElse(DeviceKind.OTHER);
      kinds.add(stated != DeviceKind.OTHER ? stated : DeviceKind.ofName(d));
    }
    return List.copyOf(kinds);
  }
}
