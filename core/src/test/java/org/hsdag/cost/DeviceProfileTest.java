package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceProfileTest {
  @Test
  void builtInProfilesLoadWithFullNamesAndSources() {
    DeviceProfile paper = DeviceProfile.load("paper");
    assertEquals("12th Gen Intel(R) Core(TM) i9-12900K", paper.device("CPU").fullName());
    assertEquals("Intel(R) UHD Graphics 770 (iGPU)", paper.device("GPU.0").fullName());
    assertEquals("Intel(R) Data Center GPU Flex 170 (dGPU)", paper.device("GPU.1").fullName());
    assertFalse(paper.sources().isEmpty());
    for (String name : DeviceProfile.BUILT_IN) {
      DeviceProfile p = DeviceProfile.load(name);
      assertEquals(name, p.name());
      assertFalse(p.sources().isEmpty(), name + " cites its sources");
    }
    assertFalse(DeviceProfile.load("laptop-core-ultra").device("NPU").dynamicShapes());
  }

  @Test
  void profileRoundTripsThroughAFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mine.json");
    Files.writeString(f, DeviceProfile.load("paper").toJson());
    assertEquals(DeviceProfile.load("paper"), DeviceProfile.load(f.toString()));
  }

  @Test
  void badProfilesGiveOneLineReasons(@TempDir Path dir) throws Exception {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> DeviceProfile.load("nope"));
    assertTrue(unknown.getMessage().contains("paper"), unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DeviceProfile.load(dir.resolve("missing.json").toString()));
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad,
        DeviceProfile.load("paper").toJson().replace("\"peakGflops\" : 1700.0", "\"peakGflops\" : -1"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceProfile.load(bad.toString()));
    assertTrue(e.getMessage().contains("peakGflops"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void aMeasuredGainFromRequestsInFlightRoundTripsAndIsAbsentWhenNotMeasured(@TempDir Path dir) throws Exception {
    DeviceProfile paper = DeviceProfile.load("paper");
    assertFalse(paper.toJson().contains("throughputGain"), "no curve, no field: files stay as they were");
    assertEquals(List.of(), paper.device("CPU").throughputGain());
    DeviceProfile measured = paper.withDevice(paper.device("CPU").withThroughputGain(List.of(1.0, 1.9, 2.0)));
    Path f = dir.resolve("measured.json");
    Files.writeString(f, measured.toJson());
    DeviceProfile back = DeviceProfile.load(f.toString());
    assertEquals(List.of(1.0, 1.9, 2.0), back.device("CPU").throughputGain());
    assertEquals(List.of(1.0, 1.9, 2.0), HeteroDevice.of(back.device("CPU")).throughputGain());
    assertEquals(back.device("CPU").throughputGain(),
        back.device("CPU").withMemory(null).throughputGain(), "other copies keep it");
    Path bad = dir.resolve("bad-gain.json");
    Files.writeString(bad, measured.toJson().replace("1.9", "-1.9"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceProfile.load(bad.toString()));
    assertTrue(e.getMessage().contains("throughputGain"), e.getMessage());
  }

  @Test
  void aDeviceAloneFactorRoundTripsAndPricesThatDeviceAloneOnly(@TempDir Path dir) throws Exception {
    DeviceProfile paper = DeviceProfile.load("paper");
    assertFalse(paper.toJson().contains("aloneScale"), "no factor, no field: files stay as they were");
    DeviceProfile measured = paper.withDevice(paper.device("GPU.1").withAloneScale(2.0));
    Path f = dir.resolve("alone.json");
    Files.writeString(f, measured.toJson());
    DeviceProfile back = DeviceProfile.load(f.toString());
    assertEquals(2.0, back.device("GPU.1").aloneFactor());
    assertEquals(2.0, HeteroDevice.of(back.device("GPU.1")).aloneScale());
    assertEquals(2.0, back.device("GPU.1").withThroughputGain(List.of(1.0, 1.5)).aloneFactor(), "other copies keep it");
    OpGraph g = TinyGraphs.randomDag(40, 4, 3);
    HeteroCostModel before = SimGraph.build(g, paper, new CostModel(ShapeAssumption.DEFAULT)).costModel();
    HeteroCostModel after = SimGraph.build(g, back, new CostModel(ShapeAssumption.DEFAULT)).costModel();
    int gpu = after.deviceNames().indexOf("GPU.1");
    int[] alone = new int[after.opCount()];
    Arrays.fill(alone, gpu);
    int[] split = alone.clone();
    split[0] = after.deviceNames().indexOf("CPU");
    assertTrue(after.evaluate(alone).micros() > before.evaluate(alone).micros(), "GPU.1 alone runs slower");
    assertEquals(before.evaluate(split).micros(), after.evaluate(split).micros(),
        1e-9 * before.evaluate(split).micros(),
        "inside a split GPU.1 runs as before");
    Path bad = dir.resolve("bad-alone.json");
    Files.writeString(bad, measured.toJson().replaceAll("\"aloneScale\"\\s*:\\s*2\\.0", "\"aloneScale\" : -2.0"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceProfile.load(bad.toString()));
    assertTrue(e.getMessage().contains("aloneScale"), e.getMessage());
  }
}
