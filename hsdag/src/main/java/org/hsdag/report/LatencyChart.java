package org.hsdag.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The search-progress plot of a run: latency of every measured placement (dots), the best so far
 * (a step line), each single-device baseline (a horizontal line) and, when known, the final
 * winner's re-measured latency. Rendered to PNG and SVG with XChart.
 */
public final class LatencyChart {
  private LatencyChart() {}

  /**
   * The data to plot.
   *
   * @param steps search step of each measured placement
   * @param latencies its latency in ms (failed ones are left out by the caller)
   * @param baselines label → latency in ms of each single-device baseline that ran
   * @param finalBestMs the winner's final latency, or NaN
   * @param yLabel axis label naming backend and profile
   * @param title chart title
   */
  public record Data(List<Double> steps, List<Double> latencies, Map<String, Double> baselines, double finalBestMs,
      String yLabel, String title) {
    public Data {
      steps = List.copyOf(steps);
      latencies = List.copyOf(latencies);
      baselines = Map.copyOf(baselines);
    }
  }

  /** Values above this multiple of the lowest one are left above the plot, so the region near the best stays readable. */
  static final double RANGE_FACTOR = 2.5;

  /**
   * Tick labels of the latency axis: a leading zero below 1 ms (XChart's own pattern prints ".04") and
   * up to five decimals, trailing zeros dropped, so a sub-millisecond model's ticks stay distinct.
   */
  static final String Y_TICKS = "0.#####";

  static XYChart build(Data d) {
    XYChart chart = new XYChartBuilder().width(1000).height(480).title(d.title())
        .xAxisTitle("search step").yAxisTitle(d.yLabel()).build();
    org.knowm.xchart.style.XYStyler s = chart.getStyler();
    s.setLegendPosition(Styler.LegendPosition.OutsideE);
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotGridLinesColor(new Color(230, 230, 230));
    chart.getStyler().setMarkerSize(4);
    s.setYAxisDecimalPattern(Y_TICKS);
    double[] steps = d.steps().stream().mapToDouble(Double::doubleValue).toArray();
    double[] latencies = d.latencies().stream().mapToDouble(Double::doubleValue).toArray();
    double xMin = 0;
    double xMax = 1;
    for (double x : steps) {
      xMax = Math.max(xMax, x);
    }
    double top = plotTop(d);
    if (Double.isFinite(top)) {
      s.setYAxisMax(top);
    }
    if (steps.length > 0) {
      long above = java.util.Arrays.stream(latencies).filter(v -> v > top).count();
      XYSeries pts = chart.addSeries("measured placement" + (above > 0 ? " (" + above + " above the plot)" : ""), steps,
          latencies);
      pts.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      pts.setMarker(SeriesMarkers.CIRCLE);
      pts.setMarkerColor(new Color(120, 120, 120, 140));
    }
    // Solid lines first, dashed single-device lines last: a single device that wins stays visible
    // on top of the final-best line it equals.
    if (!Double.isNaN(d.finalBestMs())) {
      XYSeries line = chart.addSeries("final best (re-measured)", new double[] {xMin, xMax},
          new double[] {d.finalBestMs(), d.finalBestMs()});
      line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      line.setMarker(SeriesMarkers.NONE);
      line.setLineColor(Color.BLACK);
      line.setLineWidth(3f);
    }
    if (steps.length > 0) {
      double[] best = new double[latencies.length];
      double b = Double.POSITIVE_INFINITY;
      for (int i = 0; i < best.length; i++) {
        b = Math.min(b, latencies[i]);
        best[i] = b;
      }
      XYSeries bestLine = chart.addSeries("best search placement so far", steps, best);
      bestLine.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
      bestLine.setMarker(SeriesMarkers.NONE);
      bestLine.setLineColor(OkabeIto.BLUE);
      bestLine.setLineWidth(2f);
    }
    Color[] baseColors = {OkabeIto.VERMILLION, OkabeIto.BLUISH_GREEN, OkabeIto.ORANGE, OkabeIto.REDDISH_PURPLE};
    List<String> labels = new ArrayList<>(d.baselines().keySet());
    java.util.Collections.sort(labels);
    int k = 0;
    for (String label : labels) {
      double y = d.baselines().get(label);
      String shown = y > top ? String.format(java.util.Locale.ROOT, "%s (%.3f ms, above the plot)", label, y) : label;
      XYSeries line = chart.addSeries(shown, new double[] {xMin, xMax}, new double[] {y, y});
      line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      line.setMarker(SeriesMarkers.NONE);
      line.setLineColor(baseColors[k++ % baseColors.length]);
      line.setLineStyle(
          new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f));
    }
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("no successful measurement", new double[] {0}, new double[] {0});
    }
    return chart;
  }

  /** Top of the y axis: every value when they all fit within {@link #RANGE_FACTOR} of the lowest, else that bound. */
  static double plotTop(Data d) {
    double lowest = Double.POSITIVE_INFINITY;
    double highest = Double.NEGATIVE_INFINITY;
    List<Double> values = new ArrayList<>(d.baselines().values());
    values.addAll(d.latencies());
    values.add(d.finalBestMs());
    for (double v : values) {
      if (Double.isFinite(v)) {
        lowest = Math.min(lowest, v);
        highest = Math.max(highest, v);
      }
    }
    if (!Double.isFinite(lowest) || highest <= RANGE_FACTOR * lowest) {
      return Double.POSITIVE_INFINITY;
    }
    return RANGE_FACTOR * lowest;
  }

  /** PNG bytes of the chart. */
  public static byte[] png(Data d) throws IOException {
    return BitmapEncoder.getBitmapBytes(build(d), BitmapEncoder.BitmapFormat.PNG);
  }

  /** SVG bytes of the chart. */
  public static byte[] svg(Data d) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    VectorGraphicsEncoder.saveVectorGraphic(build(d), out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return out.toByteArray();
  }
}
