package org.hsdag.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.hsdag.bench.report.BenchResults.MethodResult;
import org.hsdag.bench.report.BenchResults.ModelResult;
import org.hsdag.bench.report.BenchResults.Run;
import org.hsdag.io.AtomicFiles;
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

  /** Writes every output into {@code dir}; returns the files written. */
  /** The results file every bench folder holds. */
  public static final String RESULTS_FILE = "results.json";

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
      AtomicFiles.write(s, out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
      written.add(p);
      written.add(s);
    }
    Path md = dir.resolve("report.md");
    AtomicFiles.writeString(md, markdown());
    written.add(md);
    Path html = dir.resolve("report.html");
    AtomicFiles.writeString(html, html(png));
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
    return String.format(Locale.ROOT, "Backend `%s`, profile `%s` — %s. Devices %s. Budget %d measurements per run, %d seeds; search protocol %s; "
        + "each run's best placement re-measured with %s.", results.backend(), results.profile(), kind, String.join(", ", results.devices()),
        results.budget(), results.seeds().size(), results.protocol(), results.finalProtocol());
  }

  public String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("# hsdag bench\n\n").append(provenance()).append("\n\n");
    b.append("Latency in milliseconds, mean ± std over seeds of each run's best placement (re-measured); speedup % vs CPU-only "
        + "(higher is better); best method per model in bold. The paper's numbers (real i9-12900K + UHD 770 + Flex 170, OpenVINO "
        + "2023.3) are a separate reference column, not results of this run.\n\n");
    b.append("## Table 2 layout: methods\n\n");
    table(b, r -> !r.kind().equals("ABLATION") && !r.kind().equals("REFERENCE"));
    boolean ablations = !results.models().isEmpty()
        && results.models().get(0).methods().stream().anyMatch(r -> r.kind().equals("HSDAG") || r.kind().equals("ABLATION"));
    if (ablations) {
      b.append("\n## Table 3 layout: ablations\n\n");
      table(b, r -> r.method().equals("cpu") || r.kind().equals("HSDAG") || r.kind().equals("ABLATION"));
    }
    b.append("\n## Gap to the best known placement\n\n");
    b.append("Best known per model = the best re-measured latency of any run, including a BRKGA reference run with a longer budget.\n\n");
    b.append("| Method |");
    for (ModelResult m : results.models()) {
      b.append(' ').append(m.model()).append(" gap % |");
    }
    b.append("\n|---|");
    results.models().forEach(m -> b.append("---:|"));
    b.append('\n');
    for (int i = 0; i < rowCount(); i++) {
      b.append("| ").append(results.models().get(0).methods().get(i).label()).append(" |");
      for (ModelResult m : results.models()) {
        MethodResult r = m.methods().get(i);
        b.append(' ').append(Double.isNaN(r.gapToBestPercent()) ? "–" : fmt(r.gapToBestPercent(), 2)).append(" |");
      }
      b.append('\n');
    }
    b.append("\n| Model | nodes | edges | best known (ms) | found by |\n|---|---:|---:|---:|---|\n");
    for (ModelResult m : results.models()) {
      b.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s |%n", m.model(), m.nodes(), m.edges(), fmt(m.bestKnownMillis(), 4),
          m.bestKnownSource()));
    }
    b.append("\n## Run cost\n\n| Method |");
    for (ModelResult m : results.models()) {
      b.append(' ').append(m.model()).append(" s/run |");
    }
    b.append("\n|---|");
    results.models().forEach(m -> b.append("---:|"));
    b.append('\n');
    for (int i = 0; i < rowCount(); i++) {
      b.append("| ").append(results.models().get(0).methods().get(i).label()).append(" |");
      for (ModelResult m : results.models()) {
        List<Run> runs = m.methods().get(i).runs();
        double s = runs.stream().mapToLong(Run::wallMillis).average().orElse(Double.NaN) / 1000.0;
        b.append(' ').append(runs.isEmpty() ? "–" : fmt(s, 1)).append(" |");
      }
      b.append('\n');
    }
    List<String> skipped = new ArrayList<>();
    for (ModelResult m : results.models()) {
      for (MethodResult r : m.methods()) {
        if (r.skipped() != null && !skipped.contains(r.label() + ": " + r.skipped())) {
          skipped.add(r.label() + ": " + r.skipped());
        }
      }
    }
    if (!skipped.isEmpty()) {
      b.append("\n## Not run\n\n");
      skipped.forEach(s -> b.append("- ").append(s).append('\n'));
    }
    b.append("\n## Plots\n\n");
    for (ModelResult m : results.models()) {
      b.append("![best-so-far ").append(m.model()).append("](bestsofar-").append(m.model()).append(".svg)\n");
    }
    return b.toString();
  }

  private int rowCount() {
    return results.models().isEmpty() ? 0 : results.models().get(0).methods().size();
  }

  private void table(StringBuilder b, Predicate<MethodResult> rowFilter) {
    b.append("_").append(provenance()).append("_\n\n| Method |");
    for (ModelResult m : results.models()) {
      b.append(' ').append(m.model()).append(" latency (ms) | speedup % | paper (ms) | paper speedup % |");
    }
    b.append("\n|---|");
    results.models().forEach(m -> b.append("---:|---:|---:|---:|"));
    b.append('\n');
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < rowCount(); i++) {
      if (rowFilter.test(results.models().get(0).methods().get(i))) {
        rows.add(i);
      }
    }
    for (int i : rows) {
      b.append("| ").append(results.models().get(0).methods().get(i).label()).append(" |");
      for (ModelResult m : results.models()) {
        MethodResult r = m.methods().get(i);
        double best = Double.POSITIVE_INFINITY;
        for (int j : rows) {
          double v = m.methods().get(j).meanMillis();
          if (!Double.isNaN(v)) {
            best = Math.min(best, v);
          }
        }
        boolean bold = !Double.isNaN(r.meanMillis()) && r.meanMillis() == best;
        String lat = r.skipped() != null ? "n/a" : fmt(r.meanMillis(), 4) + " ± " + fmt(r.stdMillis(), 4);
        String sp = r.skipped() != null ? "n/a" : fmt(r.speedupPercent(), 1);
        b.append(' ').append(bold ? "**" + lat + "**" : lat).append(" | ").append(bold ? "**" + sp + "**" : sp).append(" | ")
            .append(paper(r.paperMillis(), 2)).append(" | ").append(paper(r.paperSpeedupPercent(), 2)).append(" |");
      }
      b.append('\n');
    }
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

  /** Best-so-far latency vs measurements, mean over seeds, one series per method (reference run left out). */
  XYChart bestSoFarChart(ModelResult m) {
    XYChart chart = new XYChartBuilder().width(900).height(520)
        .title("best-so-far, " + m.model() + " — " + results.backend() + "/" + results.profile() + (results.simulated() ? " (simulated)" : ""))
        .xAxisTitle("measurements").yAxisTitle("best latency (ms)").build();
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    for (MethodResult r : m.methods()) {
      // The reference run's 10x budget would squash every other curve into the left tenth.
      if (r.runs().isEmpty() || r.kind().equals("REFERENCE")) {
        continue;
      }
      int len = r.runs().stream().mapToInt(x -> x.bestSoFarMillis().length).max().orElse(0);
      if (len == 0) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int i = 0; i < len; i++) {
        double s = 0;
        int n = 0;
        for (Run run : r.runs()) {
          double[] c = run.bestSoFarMillis();
          // A one-shot method's single measurement stays its best for the whole budget.
          double v = c.length == 0 ? Double.NaN : c[Math.min(i, c.length - 1)];
          if (Double.isFinite(v)) {
            s += v;
            n++;
          }
        }
        if (n > 0) {
          xs.add((double) (i + 1));
          ys.add(s / n);
        }
      }
      if (len == 1 && results.budget() > 1 && !ys.isEmpty()) {
        xs.add((double) results.budget());
        ys.add(ys.get(0));
      }
      if (!xs.isEmpty()) {
        XYSeries series = chart.addSeries(r.label(), xs, ys);
        series.setMarker(SeriesMarkers.NONE);
      }
    }
    return chart;
  }

  String html(Map<String, byte[]> png) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>hsdag bench</title><style>")
        .append("body{font-family:sans-serif;max-width:1200px;margin:2em auto}table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}")
        .append(".prov{background:#fff3cd;padding:8px}</style></head><body>\n");
    for (String line : markdown().split("\n")) {
      // Images are inlined below; the rest is a small Markdown subset (headings, tables, lists).
      if (line.startsWith("![")) {
        continue;
      }
      b.append(mdLine(line)).append('\n');
    }
    for (Map.Entry<String, byte[]> e : png.entrySet()) {
      b.append("<p><img alt=\"best-so-far ").append(escape(e.getKey())).append("\" src=\"data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(e.getValue())).append("\"></p>\n");
    }
    b.append("</body></html>\n");
    return fixTables(b.toString());
  }

  private static String mdLine(String line) {
    if (line.startsWith("# ")) {
      return "<h1>" + inline(line.substring(2)) + "</h1>";
    }
    if (line.startsWith("## ")) {
      return "<h2>" + inline(line.substring(3)) + "</h2>";
    }
    if (line.startsWith("|---")) {
      return "";
    }
    if (line.startsWith("| ")) {
      String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
      StringBuilder r = new StringBuilder("<tr>");
      for (String c : cells) {
        r.append("<td>").append(inline(c.trim())).append("</td>");
      }
      return "<TR>" + r.substring(4) + "</tr>";
    }
    if (line.startsWith("- ")) {
      return "<li>" + inline(line.substring(2)) + "</li>";
    }
    if (line.startsWith("_") && line.endsWith("_")) {
      return "<p class=\"prov\">" + inline(line.substring(1, line.length() - 1)) + "</p>";
    }
    return line.isBlank() ? "<p></p>" : "<p>" + inline(line) + "</p>";
  }

  // Wraps consecutive rows in <table>, the first row of each as a header.
  private static String fixTables(String html) {
    StringBuilder out = new StringBuilder();
    boolean inTable = false;
    for (String line : html.split("\n", -1)) {
      if (line.startsWith("<TR>")) {
        if (!inTable) {
          out.append("<table>\n<tr>").append(line.substring(4).replace("<td>", "<th>").replace("</td>", "</th>")).append('\n');
          inTable = true;
          continue;
        }
        out.append("<tr>").append(line.substring(4)).append('\n');
        continue;
      }
      if (inTable && !line.isEmpty()) {
        out.append("</table>\n");
        inTable = false;
      }
      if (!line.isEmpty()) {
        out.append(line).append('\n');
      }
    }
    if (inTable) {
      out.append("</table>\n");
    }
    return out.toString();
  }

  private static String inline(String s) {
    String e = escape(s);
    e = e.replaceAll("\\*\\*(.+?)\\*\\*", "<b>$1</b>");
    e = e.replaceAll("`(.+?)`", "<code>$1</code>");
    return e;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
