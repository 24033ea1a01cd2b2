package org.hsdag.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.bench.report.BenchResults;
import org.hsdag.bench.report.LoadAverage;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

/** The console's verdict on a model: one seed is said to be one seed, several get their range, real ones a load. */
class BenchRunnerTest {
  private static final OpGraph TINY = ModelCatalog.get("tiny_chain").build().graph();

  private static BenchResults run(LatencyBackend backend, List<Long> seeds, List<String> lines) {
    BenchRunner.Plan plan = new BenchRunner.Plan(List.of("random", "greedy"), 6, seeds, DeviceSet.of("CPU", "GPU.1"),
        MeasurementProtocol.PAPER, 1, 0);
    return new BenchRunner(backend, lines::add).run(plan, List.of(new BenchRunner.NamedGraph("tiny_chain", TINY)));
  }

  private static String line(List<String> lines, String what) {
    return lines.stream().filter(l -> l.startsWith("tiny_chain  " + what)).findFirst()
        .orElseThrow(() -> new AssertionError("no '" + what + "' line in " + lines));
  }

  @Test
  void oneSeedSaysNoIntervalIsPossibleAndARealBackendPrintsTheLoad() {
    List<String> lines = new ArrayList<>();
    BenchResults results;
    try (LatencyBackend real = new ClaimsHardware(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()))) {
      results = run(real, List.of(1L), lines);
    }
    String fastest = line(lines, "fastest");
    assertTrue(fastest.contains("vs CPU-only") && fastest.contains("one seed: a single run each, so no interval is "
        + "possible"), fastest);
    BenchResults.ModelResult m = results.models().get(0);
    String load = line(lines, "load");
    assertEquals(String.format("tiny_chain  %-20s %s at the start, %s at the end (1-minute load average)", "load",
        LoadAverage.format(m.loadStart()), LoadAverage.format(m.loadEnd())), load);
    assertEquals(Double.isNaN(LoadAverage.now()), Double.isNaN(m.loadStart()), "the load is read where there is one");
  }

  @Test
  void severalSeedsGiveEachFigureItsRangeAndTheSimulatorNoLoad() {
    List<String> lines = new ArrayList<>();
    BenchResults results;
    try (SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT)) {
      results = run(sim, List.of(1L, 2L, 3L), lines);
    }
    String fastest = line(lines, "fastest");
    assertTrue(fastest.contains("(mean and min–max over 3 seeds)"), fastest);
    assertFalse(fastest.contains("one seed"), fastest);
    assertTrue(fastest.matches(".* ms \\[[0-9.]+–[0-9.]+\\], [+-][0-9.]+ % \\[[-0-9.]+–[-0-9.]+\\] vs CPU-only.*"),
        fastest);
    assertTrue(lines.stream().noneMatch(l -> l.startsWith("tiny_chain  load")), lines.toString());
    BenchResults.ModelResult m = results.models().get(0);
    assertTrue(Double.isNaN(m.loadStart()) && Double.isNaN(m.loadEnd()), "the simulator's figures have no load");
    assertTrue(m.referenceMillis() > 0, "CPU-only ran: the speedups' reference");
  }

  /** The simulator, presented as real hardware (so the runner treats its figures as measured). */
  private static final class ClaimsHardware extends ForwardingBackend {
    ClaimsHardware(LatencyBackend delegate) {
      super(delegate);
    }

    @Override
    public boolean simulated() {
      return false;
    }
  }
}
