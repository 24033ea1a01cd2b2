package org.hsdag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

class LatencyChartTest {
  private static LatencyChart.Data data(Map<String, Double> baselines, double finalBest, double... latencies) {
    List<Double> steps = new ArrayList<>();
    for (int i = 0; i < latencies.length; i++) {
      steps.add((double) i);
    }
    return new LatencyChart.Data(steps, Arrays.stream(latencies).boxed().toList(), baselines, finalBest, "ms", "t");
  }

  @Test
  void farAwayValuesAreLeftAboveThePlotAndNamedInTheLegend() {
    LatencyChart.Data d = data(Map.of("CPU-only", 25.0, "GPU.1-only", 4.0), 4.0, 4.5, 4.2, 30.0, 40.0);
    assertEquals(10.0, LatencyChart.plotTop(d), 1e-12, "2.5 x the lowest value, 4 ms");
    List<String> names = new ArrayList<>(LatencyChart.build(d).getSeriesMap().keySet());
    assertTrue(names.contains("measured placement (2 above the plot)"), names.toString());
    assertTrue(names.contains("CPU-only (25.000 ms, above the plot)"), names.toString());
    assertTrue(names.contains("GPU.1-only"), names.toString());
  }

  @Test
  void latencyTicksBelowOneMillisecondKeepTheirLeadingZero() {
    // A sub-millisecond real run's axis read ".1 .095 ... .04" with XChart's own pattern.
    XYChart chart = LatencyChart.build(data(Map.of("CPU-only", 0.223), 0.041, 0.045, 0.043, 0.1));
    java.text.DecimalFormat ticks = new java.text.DecimalFormat(chart.getStyler().getYAxisDecimalPattern(),
        java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
    assertEquals(List.of("0.04", "0.045", "0.1", "6", "1200", "0.0005"),
        java.util.stream.DoubleStream.of(0.04, 0.045, 0.1, 6.0, 1200.0, 0.0005).mapToObj(ticks::format).toList());
  }

  @Test
  void valuesThatFitKeepTheWholeRange() {
    LatencyChart.Data d = data(Map.of("CPU-only", 8.0), 6.0, 7.0, 6.0);
    assertTrue(Double.isInfinite(LatencyChart.plotTop(d)));
    assertTrue(LatencyChart.build(d).getSeriesMap().containsKey("measured placement"));
  }

  @Test
  void singleDeviceLinesAreDrawnAfterTheFinalBestSoAWinningDeviceStaysVisible() {
    XYChart chart = LatencyChart.build(data(Map.of("GPU.1-only", 4.0), 4.0, 4.5, 4.0));
    List<String> order = new ArrayList<>(chart.getSeriesMap().keySet());
    assertTrue(order.indexOf("GPU.1-only") > order.indexOf("final best (re-measured)"), order.toString());
  }
}
