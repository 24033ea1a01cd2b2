package org.hsdag.memory;

import java.util.Objects;

/**
 * The memory of one device as a simulator profile states it.
 *
 * @param capacityBytes bytes a compiled model may occupy on the device (0: not limited)
 * @param runtimeOverheadBytes bytes the plugin itself takes once it runs anything there (context, kernels, scratch)
 * @param source where both figures come from (spec sheet, OS policy, estimate)
 */
public record DeviceMemory(long capacityBytes, long runtimeOverheadBytes, String source) {
  public DeviceMemory {
    if (capacityBytes < 0 || runtimeOverheadBytes < 0) {
      throw new IllegalArgumentException("device memory figures must be >= 0");
    }
    source = Objects.requireNonNullElse(source, "");
  }
}
