package org.hsdag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The two renderings of one document say the same thing in their own syntax. */
class ReportDocTest {
  private static ReportDoc doc() {
    return new ReportDoc("bench <x>")
        .note("Backend `sim`, **SIMULATED**")
        .numberTable(List.of("Method", "a latency (ms)"),
            List.of(List.of("hsdag", "**1.5000**"), List.of("cpu", "2.0000")))
        .table(List.of("device", "ops"), List.of(List.of("CPU", "3")))
        .image("best-so-far a", "bestsofar-a.svg", "image/png", new byte[] {1, 2, 3});
  }

  @Test
  void markdownAlignsNumberColumnsRightAndItalicisesNotes() {
    List<String> md = doc().toMarkdown().lines().toList();
    assertEquals("# bench <x>", md.get(0));
    assertTrue(md.contains("_Backend `sim`, **SIMULATED**_"), md.toString());
    assertTrue(md.contains("| Method | a latency (ms) |"));
    assertTrue(md.contains("|---|---:|"), "numbers right-aligned: " + md);
    assertTrue(md.contains("|---|---|"), "a plain table stays left-aligned: " + md);
    assertTrue(md.contains("![best-so-far a](bestsofar-a.svg)"));
  }

  @Test
  void htmlEscapesTextEmbedsImagesAndMarksNumberTables() {
    String html = doc().toHtml();
    assertTrue(html.contains("<h1>bench &lt;x&gt;</h1>"), html);
    assertTrue(html.contains("<p class=\"note\">Backend <code>sim</code>, <strong>SIMULATED</strong></p>"), html);
    assertTrue(html.contains("<table class=\"numbers\">"));
    assertTrue(html.contains("<td><strong>1.5000</strong></td>"));
    assertTrue(html.contains("src=\"data:image/png;base64,AQID\""), "the image is inlined");
    assertFalse(html.contains("src=\"bestsofar"), "self-contained");
  }

  @Test
  void singleAsterisksAreEmphasisInHtmlButProductsAndBoldAreNot() {
    assertEquals("<em>latency</em> is the median; <strong>bold</strong>; 2*3*4; a * b",
        ReportDoc.inline("*latency* is the median; **bold**; 2*3*4; a * b"));
  }
}
