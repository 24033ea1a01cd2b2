package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class CachingLatencyBackendTest {
  /** Counts the measurements that reach the real backend. */
  private static final class Counting implements LatencyBackend {
    final LatencyBackend inner = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT.withSeed(1));
    int calls;

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public String profile() {
      return inner.profile();
    }

    @Override
    public boolean simulated() {
      return true;
    }

    @Override
    public List<DeviceInfo> devices() {
      return inner.devices();
    }

    @Override
    public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
      return inner.supports(graph, devices);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      calls++;
      return inner.measure(graph, placement, protocol);
    }
  }

  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void samePlacementIsMeasuredOnceUnlessAskedAgain() {
    Counting counting = new Counting();
    CachingLatencyBackend cache = new CachingLatencyBackend(counting);
    OpGraph g = TinyGraphs.randomDag(50, 32, 3);
    Placement cpu = Placement.allOn(DEVICES, g.nodeCount(), "CPU");
    Measurement first = cache.measure(g, cpu, MeasurementProtocol.PAPER);
    // An equal placement built separately hits the cache.
    Measurement again = cache.measure(g, new Placement(DEVICES, cpu.deviceOf()), MeasurementProtocol.PAPER);
    assertSame(first, again);
    assertEquals(1, counting.calls);
    assertEquals(1, cache.hits());
    assertEquals(1, cache.misses());
    // Another protocol, another placement, another graph instance: new measurements.
    cache.measure(g, cpu, MeasurementProtocol.PAPER.scaled(2));
    cache.measure(g, Placement.allOn(DEVICES, g.nodeCount(), "GPU.1"), MeasurementProtocol.PAPER);
    cache.measure(TinyGraphs.randomDag(50, 32, 3), cpu, MeasurementProtocol.PAPER);
    assertEquals(4, counting.calls);
    // Forced re-measurement replaces the stored value.
    Measurement fresh = cache.remeasure(g, cpu, MeasurementProtocol.PAPER);
    assertEquals(5, counting.calls);
    assertNotSame(first, fresh);
    assertSame(fresh, cache.measure(g, cpu, MeasurementProtocol.PAPER));
    assertEquals(5, counting.calls);
    assertEquals("sim", cache.name());
    assertEquals("paper", cache.profile());
  }

  @Test
  void failedPlacementsAreCachedToo() {
    Counting counting = new Counting();
    CachingLatencyBackend cache = new CachingLatencyBackend(counting);
    OpGraph g = TinyGraphs.randomDag(20, 8, 1);
    Placement onMissingDevice = Placement.allOn(DeviceSet.of("CPU", "TPU"), g.nodeCount(), "TPU");
    assertFalse(cache.measure(g, onMissingDevice, MeasurementProtocol.PAPER).ok());
    assertFalse(cache.measure(g, onMissingDevice, MeasurementProtocol.PAPER).ok());
    assertEquals(1, counting.calls);
  }

  @Test
  void capacityEvictsLeastRecentlyUsedAndInvalidateForgets() {
    Counting counting = new Counting();
    CachingLatencyBackend cache = new CachingLatencyBackend(counting, 2);
    OpGraph g = TinyGraphs.randomDag(20, 8, 2);
    Placement a = Placement.allOn(DEVICES, g.nodeCount(), "CPU");
    Placement b = Placement.allOn(DEVICES, g.nodeCount(), "GPU.1");
    int[] mixed = a.deviceOf();
    mixed[mixed.length - 2] = 1;
    Placement c = new Placement(DEVICES, mixed);
    cache.measure(g, a, MeasurementProtocol.PAPER);
    cache.measure(g, b, MeasurementProtocol.PAPER);
    cache.measure(g, a, MeasurementProtocol.PAPER);
    cache.measure(g, c, MeasurementProtocol.PAPER);
    assertEquals(2, cache.size());
    assertNull(cache.cached(g, b, MeasurementProtocol.PAPER), "b was least recently used");
    cache.invalidate(g);
    assertEquals(0, cache.size());
  }
}
