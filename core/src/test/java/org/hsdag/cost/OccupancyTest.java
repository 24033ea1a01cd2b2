package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The occupancy limit slows small convolutions on a device that has one, and nothing else. */
class OccupancyTest {
  private static DeviceModel gpu(double fullOccupancyOutputs) {
    return new DeviceModel("GPU.1", "gpu", "dGPU", 1000, 100, 5, 0, 0, 0, Map.of("default", 0.5), List.of(), true,
        true, fullOccupancyOutputs);
  }

  @Test
  void smallConvolutionsReachTheirShareOfTheLanes() {
    DeviceModel d = gpu(1000);
    assertEquals(0.25, d.occupancy(OpClass.CONVOLUTION, 250), 1e-12);
    assertEquals(0.5, d.occupancy(OpClass.POINTWISE_CONVOLUTION, 500), 1e-12);
    assertEquals(0.1, d.occupancy(OpClass.GROUP_CONVOLUTION, 100), 1e-12);
    assertEquals(1.0, d.occupancy(OpClass.CONVOLUTION, 5000), 1e-12);
  }

  @Test
  void matMulsOtherOpsAndDevicesWithoutALimitAreNotAffected() {
    assertEquals(1.0, gpu(1000).occupancy(OpClass.MATMUL, 10), 1e-12);
    assertEquals(1.0, gpu(1000).occupancy(OpClass.ELEMENTWISE, 10), 1e-12);
    assertEquals(1.0, gpu(0).occupancy(OpClass.CONVOLUTION, 10), 1e-12);
    assertEquals(0.0, DeviceProfile.load("laptop-core-ultra").device("CPU").fullOccupancyOutputs());
  }

  @Test
  void negativeLimitIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> gpu(-1));
  }
}
