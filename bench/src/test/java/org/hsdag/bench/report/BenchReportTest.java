package org.hsdag.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.junit.jupiter.api.Test;

/** The best-so-far plot as docs/bench.md describes it. */
class BenchReportTest {
  private static BenchResults.MethodResult method(String name, String label, String kind, double... curve) {
    BenchResults.Run run = new BenchResults.Run(1, curve.length, 0, curve[curve.length - 1], curve[curve.length - 1], 1,
        Arrays.stream(curve).boxed().toList(),
        Map.of("CPU", 1));
    return new BenchResults.MethodResult(name, label, null, kind, null, curve[curve.length - 1], 0, 0, 0, null, null,
        List.of(run));
  }

  @Test
  void theHsdagLineIsBlackAndDrawnOnTopOfTheAblations() {
    BenchResults.ModelResult model = new BenchResults.ModelResult("m", 3, 2, 1.0, "cost model", List.of(
        method("random", "Random", "BASELINE", 2.0, 1.5, 1.2),
        method("hsdag", "HSDAG", "HSDAG", 2.0, 1.1, 1.0),
        method("hsdag-no-shape", "w/o output shape", "ABLATION", 2.0, 1.3, 1.1),
        method("hsdag-no-id", "w/o node ID", "ABLATION", 2.0, 1.4, 1.2)));
    BenchResults results = new BenchResults("sim", "paper", true, List.of("CPU", "GPU.1"), 3, List.of(1L), "paper",
        "paper",
        "sim/paper", List.of(model));
    XYChart chart = new BenchReport(results).bestSoFarChart(model);
    List<XYSeries> drawn = new ArrayList<>(chart.getSeriesMap().values());
    XYSeries last = drawn.get(drawn.size() - 1);
    assertEquals("HSDAG", last.getName(), "XChart draws series in order: the last is on top");
    assertEquals(Color.BLACK, last.getLineColor());
  }

  private static BenchResults results(BenchResults.ModelResult model) {
    return new BenchResults("sim", "paper", true, List.of("CPU", "GPU.1"), 3, List.of(1L), "paper", "paper",
        "sim/paper", List.of(model));
  }

  @Test
  void aCurveHsdagsLineCoversEntirelySaysSoInTheLegend() {
    // The planner and HSDAG often find the same placements: the planner's curve was invisible under HSDAG's.
    BenchResults.ModelResult model = new BenchResults.ModelResult("m", 3, 2, 1.0, "cost model", List.of(
        method("random", "Random", "BASELINE", 2.0, 1.5, 1.2),
        method("planner", "Planner", "BASELINE", 1.0, 0.99),
        method("hsdag", "HSDAG", "HSDAG", 1.0, 0.99, 0.99)));
    List<String> names = new ArrayList<>(new BenchReport(results(model)).bestSoFarChart(model).getSeriesMap().keySet());
    assertEquals(List.of("Random", "Planner (under HSDAG)", "HSDAG"), names);
  }

  @Test
  void theProvenanceIsSaidOnceAboveTheMethodsTable() {
    BenchResults.ModelResult model = new BenchResults.ModelResult("m", 3, 2, 1.0, "cost model", List.of(
        method("cpu", "CPU-only", "BASELINE", 1.5), method("hsdag", "HSDAG", "HSDAG", 1.0, 0.99, 0.99)));
    BenchReport report = new BenchReport(results(model));
    String html = report.document(Map.of()).toHtml();
    String said = "Budget 3 measurements per run";
    assertTrue(report.provenance().contains(said), report.provenance());
    assertEquals(1, html.split(said, -1).length - 1, html);
  }

  @Test
  void manyModelsSplitTheMethodsTableSoNoColumnIsBehindAScrollBar() {
    // Four models made one 9-column table, 2013 px wide on a 1366 px page.
    List<BenchResults.ModelResult> models = new ArrayList<>();
    for (String name : List.of("a", "b", "c", "d")) {
      models.add(new BenchResults.ModelResult(name, 3, 2, 1.0, "cost model", List.of(
          method("cpu", "CPU-only", "BASELINE", 1.5), method("hsdag", "HSDAG", "HSDAG", 1.0, 0.99))));
    }
    BenchResults results = new BenchResults("sim", "paper", true, List.of("CPU", "GPU.1"), 3, List.of(1L), "paper",
        "paper", "sim/paper", models);
    String md = new BenchReport(results).document(Map.of()).toMarkdown();
    String table2 = md.substring(md.indexOf("Table 2 layout"), md.indexOf("Gap to the best known"));
    List<String> headers = table2.lines().filter(l -> l.startsWith("| Method")).toList();
    assertEquals(2, headers.size(), table2);
    assertTrue(headers.get(0).contains("a latency") && headers.get(0).contains("c latency"), headers.get(0));
    assertTrue(headers.get(1).contains("d latency"), headers.get(1));
  }

  private static BenchResults.MethodResult seeds(String name, String label, double reference, double best,
      double... finals) {
    List<BenchResults.Run> runs = new ArrayList<>();
    for (double f : finals) {
      runs.add(new BenchResults.Run(runs.size() + 1, 1, 0, f, f, 1, List.of(f), Map.of("CPU", 1)));
    }
    double mean = Arrays.stream(finals).average().orElseThrow();
    return new BenchResults.MethodResult(name, label, null, "BASELINE", null, mean, 0,
        (reference - mean) / reference * 100, (mean - best) / best * 100, null, null, runs);
  }

  private static String report(boolean simulated, List<Long> seeds, BenchResults.ModelResult model) {
    return new BenchReport(new BenchResults("openvino", "CPU,CPU2", simulated, List.of("CPU", "CPU2"), 3, seeds,
        "paper", "paper", "cost model", List.of(model))).document(Map.of()).toMarkdown();
  }

  @Test
  void oneSeedIsSaidToHaveNoIntervalAndARealRunGivesItsLoad() {
    BenchResults.ModelResult model = new BenchResults.ModelResult("m", 3, 2, 0.8, "planner", List.of(
        seeds("cpu", "CPU-only", 1.0, 0.8, 1.0), seeds("planner", "Planner", 1.0, 0.8, 0.881)), 1.0, 1.25, 2.5);
    String md = report(false, List.of(1L), model);
    assertTrue(md.contains("One seed: every figure is a single run, so no interval is possible"), md);
    assertTrue(md.contains("gap % (one seed)"), md);
    assertTrue(md.contains("| 11.9 |") || md.contains("**11.9**"), md);
    assertTrue(md.contains("Machine load (1-minute load average): m 1.25 at the start, 2.50 at the end"), md);
    assertFalse(report(true, List.of(1L), model).contains("Machine load"), "simulated figures have no load");
  }

  @Test
  void severalSeedsGiveTheSpeedupAndGapTheirRangeOverSeeds() {
    BenchResults.ModelResult model = new BenchResults.ModelResult("m", 3, 2, 0.75, "planner", List.of(
        seeds("cpu", "CPU-only", 1.0, 0.75, 1.0, 1.0), seeds("planner", "Planner", 1.0, 0.75, 0.84, 0.9)), 1.0, 1.0,
        1.0);
    String md = report(false, List.of(1L, 2L), model);
    assertFalse(md.contains("One seed"), md);
    assertTrue(md.contains("mean and [min–max] over the seeds"), md);
    // Planner: per seed 16.0 % and 10.0 % faster than CPU-only; gaps 12 % and 20 % to the best known.
    assertTrue(md.contains("13.0 [10.0–16.0]"), md);
    assertTrue(md.contains("16.00 [12.00–20.00]"), md);
  }
}
