package org.hsdag.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;
import org.hsdag.io.AtomicFiles;
import org.hsdag.report.OkabeIto;
import org.hsdag.report.ReportDoc;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes a {@link BenchResults} as {@code results.json}, {@code report.md}, a self-contained
 * {@code report.html} (plots inlined) and best-so-far plots per model ({@code bestsofar-<model>.png}
 * and {@code .svg}). Every table states backend and profile and says when numbers are simulated.
 */
public final class BenchReport {
  private final BenchResults results;

  public BenchReport(BenchResults results) {
    this.results = results;
  }

  /** The results file every bench folder holds. */
  public static final String RESULTS_FILE = "results.json";

  /** Writes every output into {@code dir}; returns the files written. */
  public List<Path> writeAll(Path dir) throws IOException {
    List<Path> written = new ArrayList<>();
    Path json = dir.resolve(RESULTS_FILE);
    byte[] jsonBytes = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(jsonView());
    AtomicFiles.writeBytes(json, jsonBytes);
    written.add(json);
    Map<String, byte[]> png = new LinkedHashMap<>();
    for (ModelResult m : results.models()) {
      XYChart chart = bestSoFarChart(m);
      byte[] bytes = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
      Path p = dir.resolve("bestsofar-" + m.model() + ".png");
      AtomicFiles.writeBytes(p, bytes);
      png.put(m.model(), bytes);
      Path s = dir.resolve("bestsofar-" + m.model() + ".svg");
      AtomicFiles.write(s,
          out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
      written.add(p);
      written.add(s);
    }
    ReportDoc doc = document(png);
    Path md = dir.resolve("report.md");
    AtomicFiles.writeString(md, doc.toMarkdown());
    written.add(md);
    Path html = dir.resolve("report.html");
    AtomicFiles.writeString(html, doc.toHtml());
    written.add(html);
    return written;
  }

  // Jackson writes NaN as a JSON number it cannot read back; null is the honest "no value".
  private Object jsonView() {
    ObjectMapper m = new ObjectMapper();
    Map<?, ?> tree = m.convertValue(results, Map.class);
    return nanToNull(tree);
  }

  private static Object nanToNull(Object o) {
    if (o instanceof Double d && (d.isNaN() || d.isInfinite())) {
      return null;
    }
    if (o instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(k, nanToNull(v)));
      return out;
    }
    if (o instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object v : list) {
        out.add(nanToNull(v));
      }
      return out;
    }
    return o;
  }

  /** Header line naming backend, profile and whether numbers are simulated. */
  public String provenance() {
    String kind = results.simulated() ? "**SIMULATED** (not hardware measurements)" : "measured on hardware";
    return String.format(Locale.ROOT,
        "Backend `%s`, profile `%s` — %s. Devices %s. Budget %d measurements per run, %s; search protocol %s; "
            + "each run's best placement re-measured with %s. Methods that plan use %s.",
        results.backend(), results.profile(), kind,
        String.join(", ", results.devices()), results.budget(),
        results.seeds().size() == 1 ? "1 seed" : results.seeds().size() + " seeds",
        results.protocol(), results.finalProtocol(), results.costModel()) + load();
  }

  /** Real figures come with the load they were measured under; empty when simulated. */
  private String load() {
    if (results.simulated()) {
      return "";
    }
    List<String> per = new ArrayList<>();
    for (ModelResult m : results.models()) {
      per.add(m.model() + " " + LoadAverage.format(m.loadStart()) + " at the start, " + LoadAverage.format(m.loadEnd())
          + " at the end");
    }
    return " Machine load (1-minute load average): " + String.join("; ", per) + ".";
  }

  /** Caption of every table that puts the paper's figures beside ours. */
  static final String PAPER_CAPTION = "Paper columns: the paper's own figures, measured on different hardware (i9-12900K + UHD 770 + "
      + "Flex 170, OpenVINO 2023.3) with its own inputs (its public code runs 299x299 images and 8-token BERT; only `bench --paper` "
      + "uses those here) - a reference beside this run, not a result of it.";

  /** The report (report.md and report.html) with the best-so-far plots of {@code png} (model name to PNG bytes). */
  ReportDoc document(Map<String, byte[]> png) {
    ReportDoc doc = new ReportDoc("hsdag bench");
    // The provenance opens the methods table's note, the first thing under its heading: said there once, not twice.
    doc.para((oneSeed()
        ? "Latency in milliseconds of each run's best placement (re-measured); speedup % vs CPU-only (higher is "
            + "better). One seed: every figure is a single run, so no interval is possible (--seeds 3 or more gives "
            + "one)"
        : "Latency in milliseconds, mean ± std over seeds of each run's best placement (re-measured); speedup % vs "
            + "CPU-only (higher is better), mean and [min–max] over the seeds")
        + "; best method per model in bold.");
    doc.heading(2, "Table 2 layout: methods");
    methodTable(doc, r -> !r.kind().equals("ABLATION") && !r.kind().equals("REFERENCE"));
    // The ablation table only when an ablation ran: HSDAG alone is already in the methods table.
    boolean ablations = !results.models().isEmpty()
        && results.models().get(0).methods().stream().anyMatch(r -> r.kind().equals("ABLATION"));
    if (ablations) {
      doc.heading(2, "Table 3 layout: ablations");
      methodTable(doc, r -> r.method().equals("cpu") || r.kind().equals("HSDAG") || r.kind().equals("ABLATION"));
    }
    doc.heading(2, "Gap to the best known placement");
    doc.para(
        "Best known per model = the lowest re-measured latency of any run here and of a separate best-known search: the best "
            + "placement on the backend's cost model (planner, then annealing) when the backend has one, else a BRKGA reference run "
            + "with a longer budget. The table below says which found it.");
    doc.numberTable(perModelHeader(oneSeed() ? " gap % (one seed)" : " gap % [min–max over seeds]"),
        perModel((m, r) -> Double.isNaN(r.gapToBestPercent()) ? "–"
            : withRange(fmt(r.gapToBestPercent(), 2), SeedSpread.gaps(m, r), 2)));
    List<List<String>> known = new ArrayList<>();
    for (ModelResult m : results.models()) {
      known.add(List.of(m.model(), String.valueOf(m.nodes()), String.valueOf(m.edges()), fmt(m.bestKnownMillis(), 4),
          m.bestKnownSource()));
    }
    doc.numberTable(List.of("Model", "nodes", "edges", "best known (ms)", "found by"), known);
    doc.heading(2, "Run cost");
    doc.numberTable(perModelHeader(" s/run"), perMethodRows(r -> r.runs().isEmpty() ? "–"
        : fmt(r.runs().stream().mapToLong(Run::wallMillis).average().orElse(Double.NaN) / 1000.0, 1)));
    BenchMemorySection.add(doc, results);
    List<String> skipped = new ArrayList<>();
    for (ModelResult m : results.models()) {
      for (MethodResult r : m.methods()) {
        if (r.skipped() != null && !skipped.contains(r.label() + ": " + r.skipped())) {
          skipped.add(r.label() + ": " + r.skipped());
        }
      }
    }
    if (!skipped.isEmpty()) {
      doc.heading(2, "Not run");
      doc.bullets(skipped);
    }
    doc.heading(2, "Plots");
    doc.para(
        "Best latency so far ÷ best known, mean over seeds; flat grey lines are one-shot methods. A curve can dip below 1: "
            + "the search keeps the minimum of noisy measurements, while the best known is a re-measured median.");
    for (ModelResult m : results.models()) {
      if (png.containsKey(m.model())) {
        doc.image("best-so-far " + m.model(), "bestsofar-" + m.model() + ".svg", "image/png", png.get(m.model()));
      }
    }
    return doc;
  }

  private List<String> perModelHeader(String suffix) {
    List<String> header = new ArrayList<>(List.of("Method"));
    results.models().forEach(m -> header.add(m.model() + suffix));
    return header;
  }

  /** One row per method (registry order), one cell per model. */
  private List<List<String>> perMethodRows(Function<MethodResult, String> cell) {
    return perModel((m, r) -> cell.apply(r));
  }

  /** One row per method (registry order), one cell per model, the cell given the model too. */
  private List<List<String>> perModel(java.util.function.BiFunction<ModelResult, MethodResult, String> cell) {
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < rowCount(); i++) {
      List<String> row = new ArrayList<>(List.of(results.models().get(0).methods().get(i).label()));
      for (ModelResult m : results.models()) {
        row.add(cell.apply(m, m.methods().get(i)));
      }
      rows.add(row);
    }
    return rows;
  }

  /** {@code figure} followed by the range of the per-seed {@code values} when there are several seeds. */
  private static String withRange(String figure, double[] values, int decimals) {
    String range = SeedSpread.range(values, decimals);
    return range.isEmpty() ? figure : figure + " " + range;
  }

  private int rowCount() {
    return results.models().isEmpty() ? 0 : results.models().get(0).methods().size();
  }

  private boolean oneSeed() {
    return results.seeds().size() <= 1;
  }

  /** Whether the paper has figures for model {@code m} (its columns are left out when not). */
  private static boolean hasPaper(ModelResult m) {
    return m.methods().stream().anyMatch(r -> r.paperMillis() != null || r.paperSpeedupPercent() != null);
  }

  /**
   * Model columns per methods table: a laptop-wide page (1366 px) holds the method names and six
   * columns (one model with paper figures and one without, or three without); more models get
   * further tables, so that no column is hidden behind a scroll bar.
   */
  static final int MAX_MODEL_COLUMNS = 6;

  private void methodTable(ReportDoc doc, Predicate<MethodResult> rowFilter) {
    boolean anyPaper = results.models().stream().anyMatch(BenchReport::hasPaper);
    doc.note(provenance() + (anyPaper ? " " + PAPER_CAPTION : ""));
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < rowCount(); i++) {
      if (rowFilter.test(results.models().get(0).methods().get(i))) {
        rows.add(i);
      }
    }
    List<ModelResult> group = new ArrayList<>();
    int columns = 0;
    for (ModelResult m : results.models()) {
      int own = hasPaper(m) ? 4 : 2;
      if (!group.isEmpty() && columns + own > MAX_MODEL_COLUMNS) {
        methodTable(doc, rows, group);
        group.clear();
        columns = 0;
      }
      group.add(m);
      columns += own;
    }
    methodTable(doc, rows, group);
  }

  /** The methods table of {@code models} with these rows (indices of methods). */
  private void methodTable(ReportDoc doc, List<Integer> rows, List<ModelResult> models) {
    List<String> header = new ArrayList<>(List.of("Method"));
    for (ModelResult m : models) {
      header.addAll(List.of(m.model() + " latency (ms)", "speedup %"));
      if (hasPaper(m)) {
        header.addAll(List.of("paper (ms)", "paper speedup %"));
      }
    }
    List<List<String>> cells = new ArrayList<>();
    for (int i : rows) {
      List<String> row = new ArrayList<>(List.of(results.models().get(0).methods().get(i).label()));
      for (ModelResult m : models) {
        MethodResult r = m.methods().get(i);
        double best = Double.POSITIVE_INFINITY;
        for (int j : rows) {
          double v = m.methods().get(j).meanMillis();
          if (!Double.isNaN(v)) {
            best = Math.min(best, v);
          }
        }
        boolean bold = !Double.isNaN(r.meanMillis()) && r.meanMillis() == best;
        String lat = r.skipped() != null ? "n/a" : oneSeed() ? fmt(r.meanMillis(), 4)
            : fmt(r.meanMillis(), 4) + " ± " + fmt(r.stdMillis(), 4);
        String sp = r.skipped() != null ? "n/a"
            : Double.isNaN(r.speedupPercent()) ? "–"
            : withRange(fmt(r.speedupPercent(), 1), SeedSpread.speedups(m, r), 1);
        row.addAll(List.of(bold ? "**" + lat + "**" : lat, bold ? "**" + sp + "**" : sp));
        if (hasPaper(m)) {
          row.addAll(List.of(paper(r.paperMillis(), 2), paper(r.paperSpeedupPercent(), 2)));
        }
      }
      cells.add(row);
    }
    doc.numberTable(header, cells);
  }

  private static String paper(Double v, int digits) {
    if (v == null) {
      return "–";
    }
    return v.isNaN() ? "OOM" : fmt(v, digits);
  }

  private static String fmt(double v, int digits) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  // Okabe–Ito: distinguishable under the common colour-vision deficiencies; dashes and markers
  // tell apart series that share a colour or lie on top of each other.
  private static final Color[] PALETTE = {OkabeIto.BLUE, OkabeIto.ORANGE, OkabeIto.BLUISH_GREEN, OkabeIto.VERMILLION,
      OkabeIto.REDDISH_PURPLE, OkabeIto.SKY_BLUE, OkabeIto.YELLOW};
  // HSDAG itself, the method this tool is about: black, solid and widest, drawn last.
  private static final Color HSDAG_COLOUR = Color.BLACK;
  private static final float[][] DASHES = {null, {8f, 4f}, {2f, 3f}, {8f, 3f, 2f, 3f}};
  // One-shot methods (a single device, OpenVINO's own modes) are flat reference lines: greys, so
  // the colours go to the methods that search.
  private static final Color[] GREYS = {new Color(0x333333), new Color(0x888888), new Color(0x555555),
      new Color(0xAAAAAA),
      new Color(0x666666)};
  private static final org.knowm.xchart.style.markers.Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE,
      SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS,
      SeriesMarkers.OVAL,
      SeriesMarkers.RECTANGLE};
  /** Best-so-far curves are drawn relative to the best known and clipped here, so the region near 1 stays readable. */
  static final double RATIO_CAP = 2.0;

  /**
   * Best-so-far latency ÷ best known vs measurements, mean over seeds, one series per method in
   * registry order, except HSDAG itself, added last: XChart draws series in order, so its black
   * line is on top of the ablations that follow it in the registry (reference run left out).
   */
  XYChart bestSoFarChart(ModelResult m) {
    XYChart chart = new XYChartBuilder().width(1000).height(560)
        .title("best-so-far, " + m.model() + " — " + results.backend() + "/" + results.profile()
            + (results.simulated() ? " (simulated)" : ""))
        .xAxisTitle("measurements")
        .yAxisTitle(String.format(Locale.ROOT, "best latency ÷ best known (%.4f ms); above %.0f× drawn at %.0f×",
            m.bestKnownMillis(), RATIO_CAP,
            RATIO_CAP))
        .build();
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setPlotBackgroundColor(Color.WHITE);
    chart.getStyler().setPlotGridLinesColor(new Color(225, 225, 225));
    chart.getStyler().setMarkerSize(7);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    double lowest = Double.POSITIVE_INFINITY;
    int searching = 0;
    int oneShot = 0;
    List<MethodResult> drawOrder = new ArrayList<>(m.methods());
    drawOrder.sort(java.util.Comparator.comparing(r -> r.kind().equals("HSDAG"))); // stable: false first
    double[] top = drawOrder.isEmpty() || !drawOrder.get(drawOrder.size() - 1).kind().equals("HSDAG") ? new double[0]
        : meanBestSoFar(drawOrder.get(drawOrder.size() - 1).runs(), results.budget());
    for (MethodResult r : drawOrder) {
      // The reference run's 10x budget would squash every other curve into the left tenth.
      if (r.runs().isEmpty() || r.kind().equals("REFERENCE")) {
        continue;
      }
      double[] curve = meanBestSoFar(r.runs(), results.budget());
      if (curve.length == 0) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      double previous = Double.NaN;
      double finalRatio = Double.NaN;
      for (int i = 0; i < curve.length; i++) {
        if (Double.isNaN(curve[i])) {
          continue;
        }
        finalRatio = curve[i] / m.bestKnownMillis();
        double y = Math.min(RATIO_CAP, curve[i] / m.bestKnownMillis());
        lowest = Math.min(lowest, y);
        // Steps only: a point where the best improves (drawn as a corner) and the last one.
        if (Double.isNaN(previous) || y != previous || i == curve.length - 1) {
          if (!Double.isNaN(previous) && y != previous) {
            xs.add((double) (i + 1));
            ys.add(previous);
          }
          xs.add((double) (i + 1));
          ys.add(y);
          previous = y;
        }
      }
      if (xs.isEmpty()) {
        continue;
      }
      XYSeries series = chart.addSeries(legend(r, finalRatio,
          !r.kind().equals("HSDAG") && hiddenUnder(curve, top)), xs, ys);
      series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      boolean flat = r.runs().stream().allMatch(run -> run.bestSoFarMillis().size() <= 1);
      boolean hsdag = r.kind().equals("HSDAG");
      int k = flat ? oneShot++ : hsdag ? 0 : searching++;
      Color colour = flat ? GREYS[k % GREYS.length] : hsdag ? HSDAG_COLOUR : PALETTE[k % PALETTE.length];
      float[] dash = flat ? DASHES[1 + k % (DASHES.length - 1)] : hsdag ? null
          : DASHES[(k / PALETTE.length + k) % DASHES.length];
      float width = flat ? 1.5f : hsdag ? 3f : 2.2f;
      series.setLineColor(colour);
      series.setMarkerColor(colour);
      series.setMarker(MARKERS[(flat ? MARKERS.length - 1 - k : hsdag ? 0 : k + 1) % MARKERS.length]);
      series.setLineStyle(dash == null ? new BasicStroke(width)
          : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f));
    }
    if (Double.isFinite(lowest)) {
      chart.getStyler().setYAxisMin(Math.min(0.99, lowest - 0.01));
      chart.getStyler().setYAxisMax(RATIO_CAP + 0.02);
    }
    return chart;
  }

  /**
   * A method's legend entry. A curve that ends above the cap lies on the cap line with others, and one
   * that HSDAG's line, drawn last, covers entirely cannot be seen: the entry says where each really is.
   */
  private static String legend(MethodResult r, double finalRatio, boolean hiddenUnderHsdag) {
    String label = finalRatio > RATIO_CAP
        ? String.format(Locale.ROOT, "%s (ends at %.2f×, drawn at %.0f×)", r.label(), finalRatio, RATIO_CAP)
        : r.label();
    return hiddenUnderHsdag ? label + " (under HSDAG)" : label;
  }

  /** Whether {@code curve} equals {@code top} wherever it is drawn, so that {@code top}, drawn after it, covers it. */
  static boolean hiddenUnder(double[] curve, double[] top) {
    boolean drawn = false;
    for (int i = 0; i < curve.length; i++) {
      if (Double.isNaN(curve[i])) {
        continue;
      }
      if (i >= top.length || Double.isNaN(top[i]) || Math.abs(curve[i] - top[i]) > 1e-9 * Math.abs(top[i])) {
        return false;
      }
      drawn = true;
    }
    return drawn;
  }

  /**
   * Mean over seeds of the best-so-far at each measurement (NaN before any success); a one-shot
   * method keeps its value up to the budget.
   */
  static double[] meanBestSoFar(List<Run> runs, int budget) {
    int len = runs.stream().mapToInt(x -> x.bestSoFarMillis().size()).max().orElse(0);
    if (len == 0) {
      return new double[0];
    }
    int out = len == 1 && budget > 1 ? budget : len;
    double[] mean = new double[out];
    for (int i = 0; i < out; i++) {
      double s = 0;
      int n = 0;
      for (Run run : runs) {
        List<Double> c = run.bestSoFarMillis();
        double v = c.isEmpty() ? Double.NaN : c.get(Math.min(i, c.size() - 1));
        if (Double.isFinite(v)) {
          s += v;
          n++;
        }
      }
      // NaN until some run has a successful measurement: nothing to average yet.
      mean[i] = n == 0 ? Double.NaN : s / n;
    }
    return mean;
  }
}
