package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dynamic batch given as 4096 is refused with its figure before anything is compiled; batch 1 fits. */
class InputMemoryTest {
  /** A detector-like stem: a dynamic-batch image input through two elementwise ops. */
  private static OpGraph dynamicBatch() {
    TinyGraphs.Builder b = TinyGraphs.builder("det");
    int x = b.parameter("data", -1, 3, 384, 672);
    int r = b.op("relu", "ReLU", new long[] {-1, 3, 384, 672}, x);
    b.result("out", b.op("sig", "Sigmoid", new long[] {-1, 3, 384, 672}, r));
    return b.build();
  }

  @Test
  void hugeInputSizesAreRefusedWithTheFigureAndSmallOnesPass() {
    OpGraph g = dynamicBatch();
    ShapeAssumption huge = ShapeAssumption.DEFAULT.withInputs(Map.of("data", new long[] {4096, 3, 384, 672}));
    InputMemory need = InputMemory.estimate(g, huge);
    // One f32 activation of 4096x3x384x672 is 12.7 GB; the peak holds at least that.
    assertTrue(need.activationBytes() >= 4096L * 3 * 384 * 672 * 4, "peak " + need.activationBytes());
    long available = 6L << 30;
    Optional<String> refusal = need.refusal(available, "data=4096x3x384x672");
    assertTrue(refusal.isPresent());
    assertTrue(refusal.get().startsWith("the model at data=4096x3x384x672 needs at least "), refusal.get());
    assertTrue(refusal.get().contains("6.00 GiB available (MemAvailable)"), refusal.get());

    ShapeAssumption one = ShapeAssumption.DEFAULT.withInputs(Map.of("data", new long[] {1, 3, 384, 672}));
    assertEquals(Optional.empty(), InputMemory.estimate(g, one).refusal(available, "data=1x3x384x672"));
  }

  @Test
  void readsMemAvailableInBytes(@TempDir Path dir) throws IOException {
    Path meminfo = dir.resolve("meminfo");
    Files.writeString(meminfo, "MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    3500000 kB\n");
    assertEquals(OptionalLong.of(3_500_000L * 1024), InputMemory.availableBytes(meminfo));
    assertEquals(OptionalLong.empty(), InputMemory.availableBytes(dir.resolve("absent")));
  }
}
