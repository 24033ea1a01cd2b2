package org.hsdag.sim;

import java.util.List;
import java.util.Map;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;

/** A two-device profile with round numbers, so latencies can be computed by hand. */
final class TestProfiles {
  private TestProfiles() {}

  /**
   * CPU: 1000 FLOP/µs, 1000 B/µs, launch 1 µs, sub-model 10 µs, no link cost. GPU.1: 10000 FLOP/µs,
   * 10000 B/µs, launch 5 µs, sub-model 20 µs, link 7 µs + 1000 B/µs, no Gelu. Request 100 µs.
   */
  static DeviceProfile handy(boolean fusion) {
    DeviceModel cpu = new DeviceModel("CPU", "Test CPU", "CPU", 1, 1, 1, 10, 0, 0, Map.of("default", 1.0), List.of(),
        true, fusion);
    DeviceModel gpu = new DeviceModel("GPU.1", "Test dGPU", "dGPU", 10, 10, 5, 20, 7, 1, Map.of("default", 1.0),
        List.of("Gelu"), false, fusion);
    return new DeviceProfile("handy", "hand-computable test machine", List.of(), 100, List.of(cpu, gpu));
  }
}
