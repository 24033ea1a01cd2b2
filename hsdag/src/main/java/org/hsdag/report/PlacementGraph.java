package org.hsdag.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.hsdag.io.Pasteable;
import org.hsdag.io.AtomicFiles;
import org.hsdag.tune.Tuner;

/**
 * The placement graph of a run's report: {@code placement.dot} drawn by Graphviz when it is
 * installed, else a note on how to draw it.
 *
 * @param rendered whether the SVG was drawn
 * @param svg the drawing, or null
 * @param note what happened, for the report and the console
 */
record PlacementGraph(boolean rendered, String svg, String note) {
  /** Renders the run's {@code placement.dot} with {@code dotCommand} into {@link ReportWriter#GRAPH_SVG}, when it can. */
  static PlacementGraph render(Path runDir, String dotCommand) {
    Path dot = runDir.resolve(Tuner.DOT_FILE);
    if (!Files.isRegularFile(dot)) {
      return new PlacementGraph(false, null, "No `placement.dot` yet (the run has not completed).");
    }
    String hint = "Render it with `" + Pasteable.shellLine("dot", "-Tsvg", dot, "-o", "placement.svg") + "`.";
    try {
      Path tmp = Files.createTempFile(runDir, ".placement", ".svg");
      try {
        Process p = new ProcessBuilder(dotCommand, "-Tsvg", dot.toString(), "-o", tmp.toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return new PlacementGraph(false, null, "Graphviz `dot` took too long on this graph. " + hint);
        }
        if (p.exitValue() != 0) {
          return new PlacementGraph(false, null, "Graphviz `dot` failed (exit " + p.exitValue() + "). " + hint);
        }
        String svg = Files.readString(tmp, StandardCharsets.UTF_8);
        AtomicFiles.writeString(runDir.resolve(ReportWriter.GRAPH_SVG), svg);
        return new PlacementGraph(true, svg, "rendered " + ReportWriter.GRAPH_SVG + " with Graphviz");
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      return new PlacementGraph(false, null,
          "Graphviz (`dot`) is not installed, so the placement graph is not drawn here "
              + "(install it with `apt-get install graphviz`). " + hint);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new PlacementGraph(false, null, "Rendering was interrupted. " + hint);
    }
  }

  /** The report's placement-graph section: the drawing inline, or why there is none. */
  void section(ReportDoc doc) {
    doc.heading(2, "Placement graph");
    if (rendered) {
      doc.para("Operations coloured by device (constants omitted); red edges cross devices and cost a copy. Source: `"
          + Tuner.DOT_FILE + "`.");
      int start = svg.indexOf("<svg");
      doc.rawHtml("<div class=\"graph\">" + (start >= 0 ? svg.substring(start) : svg) + "</div>",
          "![placement graph](" + ReportWriter.GRAPH_SVG + ")");
    } else {
      doc.para(note);
    }
  }
}
