package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.Placement;
import org.hsdag.strategy.RandomSearchStrategy;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's failed measurements grouped by reason, and the run in which no split placement ever ran. */
class RunFailuresTest {
  @TempDir
  Path tmp;

  private static boolean split(Placement p) {
    int first = p.deviceOf(0);
    for (int v = 1; v < p.size(); v++) {
      if (p.deviceOf(v) != first) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aRunWhereEverySplitFailsSaysNoSplitRanWithTheReasons() throws IOException {
    OpGraph graph = TestModels.read(TestModels.twoBranch(tmp));
    Map<String, double[]> cost = new HashMap<>();
    for (OpNode n : graph.nodes()) {
      cost.put(n.type(), new double[] {1.0, 0.5});
    }
    FakeBackend refusesSplits = FakeBackend.byOpType(cost, 0.1, RunFailuresTest::split, null);
    TuneConfig c = new TuneConfig(org.hsdag.placement.DeviceSet.of("CPU", "GPU"), "random", new StrategyConfig.Random(),
        6, 0, 1,
        MeasurementProtocol.PAPER, 1, 1, 100, 0);
    Path dir = tmp.resolve("run");
    TuneResult r = new Tuner(new TuneJob(refusesSplits, graph, c, new RandomSearchStrategy(), dir, null, null, null))
        .run(false);
    assertTrue(r.best().baseline());
    RunFailures f = RunFailures.read(dir);
    assertTrue(f.noSplitRan());
    assertEquals(r.failures(), f.byReason().get("fake failure"));
    assertEquals("no split placement ran: every split proposed failed (fake failure: " + r.failures() + ")",
        f.noSplitRanLine());
  }

  @Test
  void reasonsAreGroupedInAFewWords() {
    assertEquals(HeteroRefusal.PREFIX + " (infer request)",
        RunFailures.group("infer request on HETERO:CPU,CPU2 (compiled, then refused): Exception ..."));
    assertEquals(HeteroRefusal.PREFIX + " (compiling)", RunFailures.group("compiling on HETERO:CPU,CPU2: boom"));
    assertEquals("predicted refused by HETERO, not run",
        RunFailures.group(HeteroRefusal.PREFIX + " (infer request): 'a' feeds 'b' ... (predicted, not run)"));
    assertEquals("refused earlier in this run, not run",
        RunFailures.group("refused earlier in this run: 'b' on CPU feeds 'c' on CPU2 (not run; ...)"));
    assertEquals("timed out", RunFailures.group("timed out after 1000 ms (compile + 10 runs)"));
    assertFalse(RunFailures.NONE.noSplitRan());
  }
}
