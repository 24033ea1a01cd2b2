package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.OpClass;
import org.junit.jupiter.api.Test;

class ProfileMismatchTest {
  private final DeviceProfile paper = DeviceProfile.load("paper");

  @Test
  void theSameSeedGivesTheSameProfileAndAnotherSeedAnother() {
    DeviceProfile a = ProfileMismatch.named(0.3, 7).apply(paper);
    assertEquals(a, ProfileMismatch.named(0.3, 7).apply(paper));
    assertEquals(a.toJson(), ProfileMismatch.named(0.3, 7).apply(paper).toJson());
    assertNotEquals(a.devices(), ProfileMismatch.named(0.3, 8).apply(paper).devices());
    assertTrue(a.name().contains("mismatch"), a.name());
  }

  @Test
  void efficienciesMoveWithinTheAmplitudeLinksHalveAndLaunchesGrowByHalf() {
    DeviceProfile m = ProfileMismatch.named(0.3, 1).apply(paper);
    int moved = 0;
    for (int d = 0; d < paper.devices().size(); d++) {
      DeviceModel before = paper.devices().get(d);
      DeviceModel after = m.devices().get(d);
      assertEquals(before.linkBandwidthGBs() * 0.5, after.linkBandwidthGBs(), 1e-12);
      assertEquals(before.launchOverheadUs() * 1.5, after.launchOverheadUs(), 1e-12);
      assertEquals(before.subModelOverheadUs(), after.subModelOverheadUs());
      assertEquals(before.peakGflops(), after.peakGflops());
      for (OpClass cls : OpClass.values()) {
        if (!cls.isCompute()) {
          continue;
        }
        double factor = after.efficiencyOf(cls) / before.efficiencyOf(cls);
        assertTrue(factor >= 0.7 - 1e-12 && factor <= 1.3 + 1e-12, cls + " factor " + factor);
        if (Math.abs(factor - 1) > 0.01) {
          moved++;
        }
      }
    }
    assertTrue(moved > 10, "most efficiencies move (" + moved + ")");
  }

  @Test
  void zeroAmplitudeKeepsEfficienciesAndBadAmplitudesAreRefused() {
    DeviceProfile m = new ProfileMismatch(0, 3, 0.5, 1.5).apply(paper);
    for (OpClass cls : OpClass.values()) {
      assertEquals(paper.device("GPU.1").efficiencyOf(cls), m.device("GPU.1").efficiencyOf(cls), 1e-15);
    }
    assertThrows(IllegalArgumentException.class, () -> ProfileMismatch.named(1.0, 1));
    assertThrows(IllegalArgumentException.class, () -> ProfileMismatch.named(-0.1, 1));
  }
}
