package org.hsdag.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class MemoryModelTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /**
   * x[1,1000] f32 → a = MatMul(x, w1 f16[1000,1000]) → b = MatMul(a, w2 f16[1000,500]) → out1, and
   * r = ReLU(a) → out2. Nodes in creation order are also the topological order: x0 w1 1 a2 w2 3 b4 r5.
   */
  private static OpGraph graph() {
    TinyGraphs.Builder g = TinyGraphs.builder("hand");
    int x = g.parameter("x", 1, 1000);
    int w1 = g.constant("w1", ElementType.F16, 1000, 1000);
    int a = g.op("a", "MatMul", new long[] {1, 1000}, x, w1);
    int w2 = g.constant("w2", ElementType.F16, 1000, 500);
    int b = g.op("b", "MatMul", new long[] {1, 500}, a, w2);
    int r = g.op("r", "ReLU", new long[] {1, 1000}, a);
    g.result("out1", b);
    g.result("out2", r);
    return g.build();
  }

  /** a and r on GPU.1, b on CPU; constants, the Parameter and Results follow HETERO's rules whatever they name. */
  private static Placement split(OpGraph g) {
    int[] dev = new int[g.nodeCount()];
    dev[g.indexOf("a")] = 1;
    dev[g.indexOf("r")] = 1;
    return new Placement(DEVICES, dev);
  }

  @Test
  void weightsActivationPeaksBoundaryAndOverheadMatchTheHandCount() {
    OpGraph g = graph();
    MemoryCheck check = MemoryCheck.of(g, DEVICES, MemoryLimits.NONE, Map.of("CPU", 10L, "GPU.1", 100L));
    List<MemoryUse> use = check.use(split(g));
    MemoryUse cpu = use.get(0);
    MemoryUse gpu = use.get(1);
    // weights: w1 follows a (GPU.1), w2 follows b (CPU), f16 = 2 bytes each
    assertEquals(2_000_000, gpu.weightBytes());
    assertEquals(1_000_000, cpu.weightBytes());
    // GPU.1: x (4000 B) live over positions 0..2, a (4000) over 2..5, r (4000) from 5 to the end: peak 8000 at 2 and 5
    assertEquals(8_000, gpu.activationPeakBytes());
    // CPU: a copied in at 4 (4000) while b (2000) is produced there: 6000
    assertEquals(6_000, cpu.activationPeakBytes());
    assertEquals(4_000, cpu.boundaryBytes());
    assertEquals(0, gpu.boundaryBytes());
    assertEquals(2_008_100, gpu.totalBytes());
    assertEquals(1_006_010, cpu.totalBytes());
  }

  @Test
  void aCapOneByteBelowTheNeedIsViolatedAndTheExactNeedFits() {
    OpGraph g = graph();
    Map<String, Long> overheads = Map.of("CPU", 10L, "GPU.1", 100L);
    MemoryCheck tight = MemoryCheck.of(g, DEVICES, MemoryLimits.parse("GPU.1=2008099"), overheads);
    assertTrue(tight.violation(split(g)).orElseThrow().startsWith(MemoryCheck.OUT_OF_MEMORY + "GPU.1"));
    assertFalse(tight.fits(split(g)));
    MemoryCheck exact = MemoryCheck.of(g, DEVICES, MemoryLimits.parse("GPU.1=2008100"), overheads);
    assertTrue(exact.fits(split(g)));
  }

  @Test
  void anUnusedDeviceNeedsNothingNotEvenItsOverhead() {
    OpGraph g = graph();
    MemoryCheck check = MemoryCheck.of(g, DEVICES, MemoryLimits.NONE, Map.of("CPU", 10L, "GPU.1", 100L));
    MemoryUse gpu = check.use(Placement.allOn(DEVICES, g.nodeCount(), "CPU")).get(1);
    assertEquals(0, gpu.totalBytes());
  }

  @Test
  void sizesParseInDecimalAndBinaryUnitsAndBadOnesAreRefused() {
    assertEquals(8L << 30, ByteSizes.parse("8GiB"));
    assertEquals(8L << 30, ByteSizes.parse("8g"));
    assertEquals(512_000_000L, ByteSizes.parse("512MB"));
    assertEquals(1536L << 20, ByteSizes.parse("1.5GiB"));
    assertEquals(1000, ByteSizes.parse("1000"));
    for (String bad : List.of("", "GiB", "-1GiB", "8XB", "0", "8 gigs")) {
      assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse(bad), bad);
    }
    MemoryLimits l = MemoryLimits.parse("gpu.1=8GiB, GPU.0=3GiB");
    assertEquals(8L << 30, l.capacity("GPU.1"));
    assertEquals(Long.MAX_VALUE, l.capacity("CPU"));
    assertThrows(IllegalArgumentException.class, () -> MemoryLimits.parse("GPU.1"));
    assertThrows(IllegalArgumentException.class, () -> MemoryLimits.parse("GPU.1=1GiB,GPU.1=2GiB"));
    assertThrows(IllegalArgumentException.class, () -> l.requireWithin(List.of("CPU", "GPU.1"), "the devices"));
  }
}
