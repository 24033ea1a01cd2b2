package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Weights;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelfTestModelTest {
  @Test
  void writesAnIrWithWeightsThatReadsBackAsTheSameGraph(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    assertTrue(Files.isRegularFile(dir.resolve("selftest.bin")));
    OpGraph read = new IrReader().read(xml);
    OpGraph built = SelfTestModel.graph();
    assertEquals(built.nodeCount(), read.nodeCount());
    assertEquals(built.edgeCount(), read.edgeCount());
    for (int v = 0; v < built.nodeCount(); v++) {
      assertEquals(built.node(v).name(), read.node(v).name());
      assertEquals(built.node(v).type(), read.node(v).type());
    }
    try (Weights w = Weights.open(read, xml)) {
      OpNode weights = read.node(read.indexOf("conv1/weights"));
      assertEquals(8 * 3 * 3 * 3 * 2, w.read(weights).length, "FP16 weights");
    }
    assertTrue(read.node(read.indexOf("conv1/weights/decompress")).isDecompression());
  }

  @Test
  void filesAreIdenticalOnEveryRun(@TempDir Path a, @TempDir Path b) throws Exception {
    SelfTestModel.write(a);
    SelfTestModel.write(b);
    assertEquals(-1, Files.mismatch(a.resolve("selftest.bin"), b.resolve("selftest.bin")));
    assertEquals(-1, Files.mismatch(a.resolve("selftest.xml"), b.resolve("selftest.xml")));
  }

  @Test
  void mixedPlacementCutsAfterTheFirstBlock() {
    OpGraph g = SelfTestModel.graph();
    Placement p = new HeteroAffinity(g).resolvedPlacement(SelfTestModel.mixedPlacement(g, "CPU", "GPU.1"));
    assertEquals("CPU", p.deviceName(g.indexOf(SelfTestModel.MIXED_CUT_AFTER)));
    assertEquals("GPU.1", p.deviceName(g.indexOf("conv2")));
    assertEquals("GPU.1", p.deviceName(g.indexOf("conv2/weights")));
    assertEquals("CPU", p.deviceName(g.indexOf("input")));
  }
}
