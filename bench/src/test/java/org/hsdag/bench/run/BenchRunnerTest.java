package org.hsdag.bench.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.bench.report.BenchResults;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class BenchRunnerTest {
  private static BenchResults.MethodResult run(List<String> methods, String wanted) {
    OpGraph graph = TinyGraphs.randomDag(40, 4, 3);
    try (SimBackend sim = SimBackend.open("paper", SimOptions.DEFAULT.withSeed(11))) {
      BenchRunner runner = new BenchRunner(sim, line -> {});
      BenchRunner.Plan plan = new BenchRunner.Plan(methods, 30, List.of(1L, 2L), DeviceSet.of("CPU", "GPU.1"),
          MeasurementProtocol.PAPER, 3, 0);
      BenchResults.ModelResult model = runner.run(plan, List.of(new BenchRunner.NamedGraph("dag", graph))).models().get(0);
      return model.methods().stream().filter(m -> m.method().equals(wanted)).findFirst().orElseThrow();
    }
  }

  @Test
  void aMethodsResultsDoNotDependOnWhichOtherMethodsRanBeforeIt() {
    BenchResults.MethodResult alone = run(List.of("brkga"), "brkga");
    BenchResults.MethodResult afterOthers = run(List.of("random", "gpu1", "brkga"), "brkga");
    assertEquals(alone.runs().size(), afterOthers.runs().size());
    for (int i = 0; i < alone.runs().size(); i++) {
      BenchResults.Run a = alone.runs().get(i);
      BenchResults.Run b = afterOthers.runs().get(i);
      assertEquals(a.finalMillis(), b.finalMillis(), "seed " + a.seed());
      assertArrayEquals(a.bestSoFarMillis(), b.bestSoFarMillis(), "seed " + a.seed());
    }
  }
}
