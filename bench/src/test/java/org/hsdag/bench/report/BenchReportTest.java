package org.hsdag.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    // The planner and HSDAG often find the same placements: the planner's curve was invisible (issue 37 item 7).
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
    // Four models made one 9-column table, 2013 px wide on a 1366 px page (issue 37 item 7).
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
}
