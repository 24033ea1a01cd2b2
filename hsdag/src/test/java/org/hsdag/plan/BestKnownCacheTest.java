package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A remembered best known is the searched one, and only while the cost model still gives it its latency. */
class BestKnownCacheTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static PlacementProxy proxy(DeviceProfile profile) {
    return PlacementProxy.ofSim(new SimBackend(profile, SimOptions.exact()),
        ModelCatalog.get("tiny_decoder").build().graph(), DEVICES);
  }

  @Test
  void theSecondSearchReadsWhatTheFirstWrote(@TempDir Path dir) throws Exception {
    PlacementProxy proxy = proxy(DeviceProfile.load("paper"));
    BestKnown.Result searched = BestKnown.search(proxy, 500, 3);

    BestKnownCache.Lookup first = BestKnownCache.search(proxy, 500, 3, dir);
    assertFalse(first.remembered());
    assertTrue(Files.isRegularFile(first.file()), "written: " + first.file());
    assertEquals(searched, first.result());

    BestKnownCache.Lookup second = BestKnownCache.search(proxy, 500, 3, dir);
    assertTrue(second.remembered());
    assertEquals(first.file(), second.file());
    assertEquals(searched.placement(), second.result().placement());
    assertEquals(searched.proxyMillis(), second.result().proxyMillis(), 0);
    assertEquals(searched.source(), second.result().source());

    assertNotEquals(first.file(), BestKnownCache.search(proxy, 500, 4, dir).file(), "another seed, another file");
    PlacementProxy other = proxy(ProfileMismatch.named(0.3, 1).apply(DeviceProfile.load("paper")));
    assertFalse(BestKnownCache.search(other, 500, 3, dir).remembered(), "another cost model is searched");
  }

  @Test
  void aFileThatNoLongerMatchesTheCostModelIsSearchedAgain(@TempDir Path dir) throws Exception {
    PlacementProxy proxy = proxy(DeviceProfile.load("paper"));
    BestKnownCache.Lookup first = BestKnownCache.search(proxy, 500, 3, dir);
    String text = Files.readString(first.file());
    Files.writeString(first.file(), text.replaceFirst("\"proxy_ms\":[0-9.Ee-]+", "\"proxy_ms\":0.001"));
    BestKnownCache.Lookup again = BestKnownCache.search(proxy, 500, 3, dir);
    assertFalse(again.remembered(), "the remembered latency is not the cost model's");
    assertEquals(first.result().proxyMillis(), again.result().proxyMillis(), 0);
    assertTrue(BestKnownCache.search(proxy, 500, 3, dir).remembered(), "rewritten");

    Files.writeString(first.file(), "{not json");
    assertFalse(BestKnownCache.search(proxy, 500, 3, dir).remembered(), "a damaged file is searched again");
  }
}
