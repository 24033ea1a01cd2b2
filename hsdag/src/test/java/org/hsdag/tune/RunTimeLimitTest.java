package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.StopReason;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.StrategyConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --time} bounds the whole run: the cost model built before the tuner ran counts, the search
 * leaves time for the final race, and the race starts no round that no longer fits; measured on a fake
 * clock that each simulated measurement advances, so the test asserts what the run does, not how fast.
 */
class RunTimeLimitTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");
  private static final long SECOND = 1_000_000_000L;

  @TempDir
  Path tmp;

  /** The simulator, each of whose measurements takes one second on {@code clock}. */
  private static final class OneSecondEach extends ForwardingBackend {
    private final AtomicLong clock;

    OneSecondEach(LatencyBackend sim, AtomicLong clock) {
      super(sim);
      this.clock = clock;
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      clock.addAndGet(SECOND);
      return delegate.measure(graph, placement, protocol);
    }

    /** None of the simulator's: its keyed measurements would go round {@link #measure}. */
    @Override
    public <T> Optional<T> capability(Class<T> type) {
      return Optional.empty();
    }
  }

  private TuneResult run(long buildSeconds, long limitSeconds, AtomicLong clock, long start) throws IOException {
    Path xml = tmp.resolve("resnet50.xml");
    ModelCatalog.get("resnet50").build().writeTo(xml, ModelCatalog.DEFAULT_SEED);
    OpGraph graph = TestModels.read(xml);
    clock.addAndGet(buildSeconds * SECOND); // the cost model, built before the tuner runs
    TuneConfig config = new TuneConfig(DEVICES, "random", new StrategyConfig.Random(), TuneProgress.UNLIMITED_BUDGET,
        limitSeconds, 1, MeasurementProtocol.PAPER, 3, 3, 25, 0);
    LatencyBackend backend = new OneSecondEach(new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT), clock);
    Path dir = tmp.resolve("run-" + buildSeconds);
    return new Tuner(new TuneJob(backend, graph, config, config.newStrategy(), dir, null, null, null))
        .clock(new RunClock(clock::get, start)).run(false);
  }

  @Test
  void theCostModelTheSearchAndTheFinalRaceFitTheTimeLimit() throws IOException {
    AtomicLong clock = new AtomicLong(1000 * SECOND);
    long start = clock.get();
    TuneResult r = run(20, 60, clock, start);
    double wall = (clock.get() - start) / 1e9;
    assertTrue(wall <= 60 + 1, "the whole run within --time plus one measurement: " + wall + " s, " + r.time());
    assertEquals(StopReason.TIME_LIMIT, r.stop(), r.stopReason());
    TimeSpent t = r.time();
    assertEquals(20, t.setupSeconds(), 1e-9, "the cost model's build is counted");
    assertEquals(2, t.baselineSeconds(), 1e-9, "one second per device");
    assertTrue(t.finalSeconds() >= 3, "the race got rounds: " + t);
    assertTrue(r.measurements() > 10, "the search got what remained: " + r.measurements());
    assertEquals(wall, t.totalSeconds(), 1e-9, "the parts are the wall");
    assertEquals(wall, r.elapsedSeconds(), 1e-9);
    assertTrue(t.text().contains("of --time 60 s") && t.text().contains("set-up and cost model 20.0 s"), t.text());
  }

  @Test
  void aCostModelBuildThatTookTheWholeTimeLeavesNoSearch() throws IOException {
    AtomicLong clock = new AtomicLong(0);
    TuneResult r = run(70, 60, clock, 0);
    assertEquals(0, r.measurements(), "nothing left to search with");
    assertEquals(0, r.time().finalSeconds(), 1e-9, "no race round fits: the baselines' own figures decide");
    assertTrue(r.best() != null && r.best().baseline(), "a single device, as measured");
  }
}
