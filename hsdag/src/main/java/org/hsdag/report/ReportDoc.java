package org.hsdag.report;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small document model rendered both as Markdown and as one self-contained HTML page (images
 * embedded), so {@code report.md} and {@code report.html} always say the same thing; the tune
 * report and the bench report are both built with it. Paragraph text may use {@code `code`} and
 * {@code **bold**}.
 */
public final class ReportDoc {
  private final String title;
  private final List<Block> blocks = new ArrayList<>();

  private sealed interface Block permits Heading, Para, Note, Table, Image, Code, Bullets, RawHtml {}

  private record Heading(int level, String text) implements Block {}

  private record Para(String text) implements Block {}

  /** A paragraph set apart (provenance, captions): italic in Markdown, highlighted in HTML. */
  private record Note(String text) implements Block {}

  /** {@code numeric}: every column after the first holds numbers, aligned right. */
  private record Table(List<String> header, List<List<String>> rows, boolean numeric) implements Block {}

  private static final class Image implements Block {
    private final String alt;
    private final String file;
    private final String mime;
    private final byte[] bytes;

    Image(String alt, String file, String mime, byte[] bytes) {
      this.alt = alt;
      this.file = file;
      this.mime = mime;
      this.bytes = bytes;
    }
  }

  private record Code(String text) implements Block {}

  private record Bullets(List<String> items) implements Block {}

  /** HTML-only content (an inline SVG); {@code markdown} stands in for it in report.md. */
  private record RawHtml(String html, String markdown) implements Block {}

  public ReportDoc(String title) {
    this.title = title;
  }

  public ReportDoc heading(int level, String text) {
    blocks.add(new Heading(level, text));
    return this;
  }

  public ReportDoc para(String text) {
    blocks.add(new Para(text));
    return this;
  }

  /** A paragraph set apart from the text around it, such as the provenance of a table's numbers. */
  public ReportDoc note(String text) {
    blocks.add(new Note(text));
    return this;
  }

  public ReportDoc table(List<String> header, List<List<String>> rows) {
    blocks.add(new Table(List.copyOf(header), rows.stream().map(List::copyOf).toList(), false));
    return this;
  }

  /** A table whose columns after the first hold numbers (aligned right). */
  public ReportDoc numberTable(List<String> header, List<List<String>> rows) {
    blocks.add(new Table(List.copyOf(header), rows.stream().map(List::copyOf).toList(), true));
    return this;
  }

  /** An image stored beside the report as {@code file} and embedded in the HTML. */
  public ReportDoc image(String alt, String file, String mime, byte[] bytes) {
    blocks.add(new Image(alt, file, mime, bytes.clone()));
    return this;
  }

  public ReportDoc code(String text) {
    blocks.add(new Code(text));
    return this;
  }

  public ReportDoc bullets(List<String> items) {
    blocks.add(new Bullets(List.copyOf(items)));
    return this;
  }

  public ReportDoc rawHtml(String html, String markdown) {
    blocks.add(new RawHtml(html, markdown));
    return this;
  }

  public String toMarkdown() {
    StringBuilder sb = new StringBuilder("# ").append(title).append("\n\n");
    for (Block b : blocks) {
      if (b instanceof Heading h) {
        sb.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
      } else if (b instanceof Para p) {
        sb.append(p.text()).append("\n\n");
      } else if (b instanceof Note n) {
        sb.append('_').append(n.text()).append("_\n\n");
      } else if (b instanceof Table t) {
        sb.append("| ").append(String.join(" | ", t.header().stream().map(ReportDoc::mdCell).toList())).append(" |\n");
        sb.append(
            t.numeric() ? "|---|" + "---:|".repeat(t.header().size() - 1) : "|" + "---|".repeat(t.header().size()))
            .append('\n');
        for (List<String> r : t.rows()) {
          sb.append("| ").append(String.join(" | ", r.stream().map(ReportDoc::mdCell).toList())).append(" |\n");
        }
        sb.append('\n');
      } else if (b instanceof Image i) {
        sb.append("![").append(i.alt).append("](").append(i.file).append(")\n\n");
      } else if (b instanceof Code c) {
        sb.append("```\n").append(c.text()).append(c.text().endsWith("\n") ? "" : "\n").append("```\n\n");
      } else if (b instanceof Bullets l) {
        for (String item : l.items()) {
          sb.append("- ").append(item).append('\n');
        }
        sb.append('\n');
      } else if (b instanceof RawHtml r) {
        sb.append(r.markdown()).append("\n\n");
      }
    }
    return sb.toString();
  }

  public String toHtml() {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>").append(esc(title))
        .append("</title>\n<style>\n")
        .append("body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1200px;")
        .append("margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\n")
        .append(
            "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}")
        .append("th{background:#f3f3f3}td{font-variant-numeric:tabular-nums;white-space:nowrap}\n")
        // Text after the numbers (e.g. "found by") wraps rather than widening the table past the page.
        .append("table.numbers td:last-child{white-space:normal}\n")
        .append(
            "code,pre{background:#f6f8fa;border-radius:4px}code{padding:1px 4px}pre{padding:10px;white-space:pre-wrap;overflow-wrap:anywhere}\n")
        .append("img,svg{max-width:100%;height:auto}.graph{overflow:auto;max-height:900px;border:1px solid #ddd}\n")
        .append(
            "table.numbers td,table.numbers th{text-align:right}table.numbers td:first-child,table.numbers th:first-child")
        .append("{text-align:left}.note{background:#fff3cd;padding:8px}\n")
        // A table wider than the page scrolls inside its own box instead of running off the page.
        .append(".wide{overflow-x:auto;max-width:100%}\n")
        .append("</style></head><body>\n<h1>").append(esc(title)).append("</h1>\n");
    for (Block b : blocks) {
      if (b instanceof Heading h) {
        sb.append("<h").append(h.level()).append('>').append(inline(h.text())).append("</h").append(h.level())
            .append(">\n");
      } else if (b instanceof Para p) {
        sb.append("<p>").append(inline(p.text())).append("</p>\n");
      } else if (b instanceof Note n) {
        sb.append("<p class=\"note\">").append(inline(n.text())).append("</p>\n");
      } else if (b instanceof Table t) {
        sb.append("<div class=\"wide\">").append(t.numeric() ? "<table class=\"numbers\">\n<tr>" : "<table>\n<tr>");
        for (String h : t.header()) {
          sb.append("<th>").append(inline(h)).append("</th>");
        }
        sb.append("</tr>\n");
        for (List<String> r : t.rows()) {
          sb.append("<tr>");
          for (String c : r) {
            sb.append("<td>").append(inline(c)).append("</td>");
          }
          sb.append("</tr>\n");
        }
        sb.append("</table></div>\n");
      } else if (b instanceof Image i) {
        sb.append("<p><img alt=\"").append(esc(i.alt)).append("\" src=\"data:").append(i.mime).append(";base64,")
            .append(Base64.getEncoder().encodeToString(i.bytes)).append("\"></p>\n");
      } else if (b instanceof Code c) {
        sb.append("<pre><code>").append(esc(c.text())).append("</code></pre>\n");
      } else if (b instanceof Bullets l) {
        sb.append("<ul>\n");
        for (String item : l.items()) {
          sb.append("<li>").append(inline(item)).append("</li>\n");
        }
        sb.append("</ul>\n");
      } else if (b instanceof RawHtml r) {
        sb.append(r.html()).append('\n');
      }
    }
    sb.append("</body></html>\n");
    return sb.toString();
  }

  private static String mdCell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
  /** {@code *emphasis*}: single asterisks around text that does not start or end with a space. */
  private static final Pattern EMPHASIS = Pattern.compile("(?<![*\\w])\\*(?![\\s*])([^*]+?)(?<!\\s)\\*(?![*\\w])");

  /** Escapes text, then turns `code`, **bold** and *emphasis* into HTML. */
  static String inline(String text) {
    String s = esc(text);
    Matcher m = CODE.matcher(s);
    s = m.replaceAll(r -> "<code>" + Matcher.quoteReplacement(r.group(1)) + "</code>");
    s = BOLD.matcher(s).replaceAll(r -> "<strong>" + Matcher.quoteReplacement(r.group(1)) + "</strong>");
    s = EMPHASIS.matcher(s).replaceAll(r -> "<em>" + Matcher.quoteReplacement(r.group(1)) + "</em>");
    return s;
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
