package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;

/** Names as the runtime reports them: the machine's one-line description, ops by friendly name. */
final class OpenVinoNames {
  private OpenVinoNames() {}

  /** Each name's first index in {@code names}. */
  static Map<String, Integer> indexByName(List<String> names) {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      m.putIfAbsent(names.get(i), i);
    }
    return m;
  }

  /** {@code OpenVINO 2025.1.0 on CPU=Intel(R) Core(TM) i9-12900K, GPU.1=Intel(R) Data Center GPU Flex 170}. */
  static String describeMachine(String version, List<DeviceInfo> devices) {
    List<String> parts = new ArrayList<>();
    for (DeviceInfo d : devices) {
      parts.add(d.fullName() == null || d.fullName().isBlank() ? d.name() : d.name() + "=" + d.fullName());
    }
    String v = version.contains("-") ? version.substring(0, version.indexOf('-')) : version;
    return "OpenVINO " + v + " on " + (parts.isEmpty() ? "no devices" : String.join(", ", parts));
  }
}
