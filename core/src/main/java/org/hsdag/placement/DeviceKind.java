package org.hsdag.placement;

import java.util.List;
import java.util.Locale;

/**
 * What kind of processor a device is. A machine profile states it per device; for a device known
 * only by its OpenVINO name, {@link #ofName} reads it from OpenVINO's naming convention (GPU plugin,
 * "Device Naming Convention": an integrated GPU, when present, is always {@code GPU.0}, {@code GPU}
 * is its alias, other GPUs follow — docs.openvino.ai/2024/openvino-workflow/running-inference/
 * inference-devices-and-modes/gpu-device.html).
 */
public enum DeviceKind {
  CPU("CPU"), INTEGRATED_GPU("iGPU"), DISCRETE_GPU("dGPU"), NPU("NPU"), OTHER("");

  private final String label;

  DeviceKind(String label) {
    this.label = label;
  }

  /** How profiles and tables write it ({@code CPU}, {@code iGPU}, {@code dGPU}, {@code NPU}; empty for other). */
  public String label() {
    return label;
  }

  /** True for either kind of GPU. */
  public boolean isGpu() {
    return this == INTEGRATED_GPU || this == DISCRETE_GPU;
  }

  /** The kind a profile states ({@code CPU}, {@code iGPU}, {@code dGPU}, {@code NPU}, any case), else {@link #OTHER}. */
  public static DeviceKind parse(String label) {
    for (DeviceKind k : values()) {
      if (k != OTHER && k.label.equalsIgnoreCase(label == null ? "" : label.trim())) {
        return k;
      }
    }
    return OTHER;
  }

  /**
   * The kind an OpenVINO device name implies: a name containing {@code CPU} (test devices such as
   * {@code CPU2} included) is a CPU, {@code GPU} / {@code GPU.0} the integrated GPU, any other
   * {@code GPU.n} a discrete one, {@code NPU...} an NPU.
   */
  public static DeviceKind ofName(String device) {
    String n = device.toUpperCase(Locale.ROOT);
    if (n.contains("CPU")) {
      return CPU;
    }
    if (n.startsWith("NPU")) {
      return NPU;
    }
    if (n.equals("GPU") || n.equals("GPU.0")) {
      return INTEGRATED_GPU;
    }
    return n.startsWith("GPU.") ? DISCRETE_GPU : OTHER;
  }

  /**
   * The device speedups are measured against: the first CPU of {@code devices} (the host, the usual
   * choice without placement), else the first device (the highest priority).
   */
  public static String reference(DeviceSet devices, List<DeviceKind> kinds) {
    for (int d = 0; d < devices.size(); d++) {
      if (kinds.get(d) == CPU) {
        return devices.name(d);
      }
    }
    return devices.name(0);
  }

  /** {@link #reference(DeviceSet, List)} with each device's kind read from its name. */
  public static String reference(DeviceSet devices) {
    return reference(devices, devices.names().stream().map(DeviceKind::ofName).toList());
  }
}
