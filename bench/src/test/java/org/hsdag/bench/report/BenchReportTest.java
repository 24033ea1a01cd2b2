package org.hsdag.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

class BenchReportTest {
  private static Run run(long seed, double... curve) {
    return new Run(seed, curve.length, 0, curve[curve.length - 1], curve[curve.length - 1], 10, curve, Map.of("CPU", 1));
  }

  private static MethodResult method(String name, String kind, List<Run> runs) {
    double mean = runs.stream().mapToDouble(Run::finalMillis).average().orElse(Double.NaN);
    return new MethodResult(name, name + " label", null, kind, null, mean, 0.0, 0.0, 0.0, null, null, runs);
  }

  private static BenchResults results(List<Long> seeds, List<MethodResult> methods) {
    return new BenchResults("sim", "paper", true, List.of("CPU", "GPU.1"), 4, seeds, "0+1 mean", "median of 3", "the cost model of sim/paper",
        List.of(new ModelResult("m", 10, 9, 2.0, "planner", methods)));
  }

  @Test
  void oneSeedPrintsNoSpreadAndSaysSeedInTheSingular() {
    BenchReport report = new BenchReport(results(List.of(7L), List.of(method("cpu", "BASELINE", List.of(run(7, 5.0))),
        method("hsdag", "HSDAG", List.of(run(7, 3.0, 2.5, 2.0, 2.0))))));
    String md = report.markdown();
    assertFalse(md.contains("±"), "one seed has no spread to print");
    assertTrue(md.contains("1 seed;"), md);
    assertFalse(md.contains("1 seeds"));
  }

  @Test
  void severalSeedsPrintMeanAndSpread() {
    BenchReport report = new BenchReport(results(List.of(1L, 2L), List.of(method("cpu", "BASELINE", List.of(run(1, 5.0), run(2, 5.0))))));
    assertTrue(report.markdown().contains("5.0000 ± 0.0000"));
    assertTrue(report.markdown().contains("2 seeds"));
  }

  @Test
  void everyTableBesideThePaperSaysThePaperUsedOtherInputsAndHardware() {
    BenchReport report = new BenchReport(results(List.of(7L), List.of(method("cpu", "BASELINE", List.of(run(7, 5.0))),
        method("hsdag", "HSDAG", List.of(run(7, 3.0))))));
    String md = report.markdown();
    int tables = md.split("paper speedup %", -1).length - 1;
    int captions = md.split(java.util.regex.Pattern.quote(BenchReport.PAPER_CAPTION), -1).length - 1;
    assertEquals(2, tables, "Table 2 and Table 3 layouts");
    assertEquals(tables, captions);
    assertTrue(BenchReport.PAPER_CAPTION.contains("different hardware") && BenchReport.PAPER_CAPTION.contains("inputs"));
  }

  @Test
  void plotIsRelativeToTheBestKnownCappedAndDrawsHsdagLastInItsOwnStyle() {
    List<MethodResult> methods = new ArrayList<>();
    methods.add(method("cpu", "BASELINE", List.of(run(7, 5.0))));
    methods.add(method("random", "BASELINE", List.of(run(7, 9.0, 8.0, 8.0, 7.0))));
    methods.add(method("hsdag", "HSDAG", List.of(run(7, 3.0, 2.5, 2.0, 2.0))));
    methods.add(method("brkga-reference", "REFERENCE", List.of(run(7, 2.0))));
    BenchResults results = results(List.of(7L), methods);
    XYChart chart = new BenchReport(results).bestSoFarChart(results.models().get(0));
    List<String> names = new ArrayList<>(chart.getSeriesMap().keySet());
    assertEquals(List.of("cpu label", "random label", "hsdag label"), names, "reference left out, registry order kept");
    for (XYSeries s : chart.getSeriesMap().values()) {
      for (double y : s.getYData()) {
        assertTrue(y <= BenchReport.RATIO_CAP, s.getName() + " above the cap: " + y);
      }
    }
    XYSeries hsdag = chart.getSeriesMap().get("hsdag label");
    assertEquals(1.0, hsdag.getYData()[hsdag.getYData().length - 1], 1e-12, "2.0 ms over a best known of 2.0 ms");
    assertEquals(Color.BLACK, hsdag.getLineColor());
    // A one-shot method is a flat line over the whole budget.
    XYSeries cpu = chart.getSeriesMap().get("cpu label");
    assertEquals(4.0, cpu.getXData()[cpu.getXData().length - 1]);
    assertEquals(2.0, cpu.getYData()[0], 1e-12, "5 ms is 2.5x the best known, drawn at the cap");
    assertFalse(cpu.getLineColor().equals(chart.getSeriesMap().get("random label").getLineColor()));
  }

  @Test
  void meanBestSoFarSkipsMeasurementsBeforeAnySuccess() {
    double[] mean = BenchReport.meanBestSoFar(List.of(run(1, Double.NaN, 4.0, 2.0), run(2, Double.NaN, 6.0, 6.0)), 3);
    assertTrue(Double.isNaN(mean[0]));
    assertEquals(5.0, mean[1], 1e-12);
    assertEquals(4.0, mean[2], 1e-12);
  }
}
