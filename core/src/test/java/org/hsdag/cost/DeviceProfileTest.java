package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
