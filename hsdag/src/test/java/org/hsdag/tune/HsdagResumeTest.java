package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.hsdag.search.SearchStrategy;
import org.hsdag.strategy.Strategies;
import org.hsdag.strategy.StrategyConfig;

/** The learned strategy through the tuner: a stopped and resumed run ends where an uninterrupted one does. */
class HsdagResumeTest {
  @TempDir Path tmp;

  @Test
  void hsdagRunStoppedAndResumedEqualsTheUninterruptedRun() throws IOException {
    OpGraph graph = TestModels.read(TestModels.twoBranch(tmp));
    StrategyConfig options = Strategies.configure("hsdag", Map.of("steps", "4", "torch-threads", "1"));
    TuneConfig c = new TuneConfig(DeviceSet.of("CPU", "GPU.1").names(), "hsdag", options, 16, 0, 3,
        MeasurementProtocol.PAPER, 2, 2, 5, 0);

    Path refDir = tmp.resolve("ref");
    SearchStrategy strategy = c.newStrategy();
    TuneResult reference = new Tuner(new FakeBackend(), graph, c, strategy, refDir, null).run(false);
    close(strategy);

    Path dir = tmp.resolve("resumed");
    AtomicReference<Tuner> ref = new AtomicReference<>();
    SearchStrategy first = c.newStrategy();
    Tuner t = new Tuner(new FakeBackend(), graph, c, first, dir, new TuneListener() {
      @Override
      public void searchStep(TuneProgress p) {
        if (p.step() == 9) {
          ref.get().requestStop();
        }
      }
    });
    ref.set(t);
    assertEquals(RunStatus.INTERRUPTED, t.run(false).status());
    close(first);

    SearchStrategy second = c.newStrategy();
    TuneResult resumed = new Tuner(new FakeBackend(), graph, c, second, dir, null).run(true);
    close(second);
    TunerTest.assertSameOutcome(reference, resumed, refDir, dir);
  }

  private static void close(SearchStrategy s) {
    if (s instanceof AutoCloseable a) {
      try {
        a.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
