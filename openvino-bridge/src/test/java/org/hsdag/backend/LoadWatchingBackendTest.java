package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.SelfTestModel;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;

/** The re-take and flag policy, on a fake backend and a scripted probe. */
class LoadWatchingBackendTest {
  private final OpGraph graph = SelfTestModel.graph();
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
  private final Placement cpu = Placement.allOn(devices, graph.nodeCount(), "CPU");

  /** A probe on a 2-core machine; each measurement lasts 100 ticks of wall and uses 100 ticks of own CPU time. */
  static final class Script implements LoadProbe {
    private final Deque<Double> foreignCores = new ArrayDeque<>();
    private long busy;
    private long total;
    private long own;
    private boolean start = true;

    Script(double... perMeasurement) {
      for (double f : perMeasurement) {
        foreignCores.add(f);
      }
    }

    @Override
    public Optional<LoadSample> sample() {
      if (!start) {
        double f = foreignCores.isEmpty() ? 0 : foreignCores.poll();
        total += 200;
        own += 100;
        busy += 100 + Math.round(f * 100);
      }
      start = !start;
      return Optional.of(new LoadSample(busy, total, 3, own, 2));
    }
  }

  @Test
  void aQuietMeasurementCarriesItsLoadAndIsTakenOnce() {
    FakeBackend fake = FakeBackend.cpuGpu();
    LoadWatchingBackend b = new LoadWatchingBackend(fake, new Script(0.2), LoadPolicy.DEFAULT);
    Measurement m = b.measure(graph, cpu, MeasurementProtocol.PAPER);
    assertEquals(1, fake.calls());
    assertEquals(0.2, m.load().foreignCores(), 1e-12);
    assertEquals(0, m.load().retakes());
    assertFalse(m.load().flagged());
    assertEquals(m.load(), b.lastLoad().orElseThrow());
    assertEquals(1, b.tally().measured());
  }

  @Test
  void aLoadedMeasurementIsTakenAgainAndTheQuietAttemptKept() {
    FakeBackend fake = FakeBackend.cpuGpu();
    fake.luckyFirst(cpu, 99);
    // 1.2 of 2 cores = 60 % of the machine: over the 25 % limit; then 0.1 cores.
    LoadWatchingBackend b = new LoadWatchingBackend(fake, new Script(1.2, 0.1), LoadPolicy.DEFAULT);
    Measurement m = b.measure(graph, cpu, MeasurementProtocol.PAPER);
    assertEquals(2, fake.calls());
    assertTrue(m.latencyMillis() < 99, "the second attempt's latency");
    assertEquals(1, m.load().retakes());
    assertFalse(m.load().flagged());
    assertEquals(new LoadTally(1, 1, 1, 0, 0.1, 0.1, 2), b.tally());
  }

  @Test
  void whenEveryAttemptIsLoadedTheLeastLoadedIsKeptFlagged() {
    FakeBackend fake = FakeBackend.cpuGpu();
    fake.luckyFirst(cpu, 99);
    LoadWatchingBackend b = new LoadWatchingBackend(fake, new Script(1.0, 1.8, 1.5), new LoadPolicy(0.25, 2));
    Measurement m = b.measure(graph, cpu, MeasurementProtocol.PAPER);
    assertEquals(3, fake.calls(), "the first attempt and two re-takes");
    assertEquals(99, m.latencyMillis(), "the first attempt was the least loaded");
    assertEquals(1.0, m.load().foreignCores(), 1e-12);
    assertEquals(2, m.load().retakes());
    assertTrue(m.load().flagged());
    assertTrue(m.load().describe().contains("re-taken 2x, FLAGGED"), m.load().describe());
    assertEquals(1, b.tally().flagged());
  }

  @Test
  void underPersistentLoadTheNextMeasurementsAreFlaggedWithoutReTakesUntilAQuietOne() {
    FakeBackend fake = FakeBackend.cpuGpu();
    LoadWatchingBackend b = new LoadWatchingBackend(fake, new Script(1.5, 1.5, 1.5, 1.6, 0.2, 1.4, 0.1),
        LoadPolicy.DEFAULT);
    assertTrue(b.measure(graph, cpu, MeasurementProtocol.PAPER).load().flagged());
    assertEquals(3, fake.calls());
    MeasurementLoad second = b.measure(graph, cpu, MeasurementProtocol.PAPER).load();
    assertEquals(4, fake.calls(), "no re-takes while the load persists");
    assertTrue(second.flagged());
    assertEquals(0, second.retakes());
    assertFalse(b.measure(graph, cpu, MeasurementProtocol.PAPER).load().flagged(), "a quiet one");
    MeasurementLoad fourth = b.measure(graph, cpu, MeasurementProtocol.PAPER).load();
    assertEquals(7, fake.calls(), "after a quiet measurement a loaded one is taken again");
    assertEquals(1, fourth.retakes());
    assertFalse(fourth.flagged());
  }

  @Test
  void aFailedMeasurementIsNotTakenAgain() {
    FakeBackend fake = FakeBackend.byOpType(java.util.Map.of(), 0, p -> true, null);
    Placement p = Placement.allOn(DeviceSet.of("CPU", "GPU"), graph.nodeCount(), "GPU");
    LoadWatchingBackend b = new LoadWatchingBackend(fake, new Script(1.9, 1.9, 1.9), LoadPolicy.DEFAULT);
    Measurement m = b.measure(graph, p, MeasurementProtocol.PAPER);
    assertFalse(m.ok());
    assertEquals(1, fake.calls(), "the placement's failure, not the machine's");
    assertEquals(0, m.load().retakes());
    assertFalse(m.load().flagged());
  }

  @Test
  void withoutProcTheMeasurementHasNoLoadAndASimulatorIsNotWatched() {
    FakeBackend fake = FakeBackend.cpuGpu();
    LoadWatchingBackend b = new LoadWatchingBackend(fake, LoadProbe.NONE, LoadPolicy.DEFAULT);
    assertNull(b.measure(graph, cpu, MeasurementProtocol.PAPER).load());
    assertTrue(b.lastLoad().isEmpty());
    assertTrue(fake.simulated());
    assertSame(fake, LoadWatchingBackend.wrap(fake, LoadPolicy.DEFAULT), "the simulator reports no load");
  }
}
