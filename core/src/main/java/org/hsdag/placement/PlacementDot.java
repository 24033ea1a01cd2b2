package org.hsdag.placement;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * Graphviz DOT of a placement: one box per operation, filled with its device's colour, edges as in
 * the model. Constants are left out (HETERO keeps them with their consumer), which keeps large
 * models readable. Render with {@code dot -Tsvg placement.dot -o placement.svg}.
 */
public final class PlacementDot {
  /** Fill colours by device index, light enough for black labels. */
  static final String[] COLORS = {"#9ecae1", "#a1d99b", "#fdae6b", "#bcbddc", "#fc9272", "#d9d9d9"};

  private PlacementDot() {}

  /** Fill colour of device index {@code d}. */
  public static String color(int d) {
    return COLORS[d % COLORS.length];
  }

  public static String toDot(OpGraph g, Placement p, String backend, String profile) {
    StringBuilder sb = new StringBuilder();
    sb.append("digraph placement {\n");
    sb.append("  graph [rankdir=TB, fontname=\"Helvetica\", label=").append(quote(
        "placement of " + (g.name().isEmpty() ? "model" : g.name()) + " (" + backend + "/" + profile
            + "; constants omitted, they run with their consumer)"))
        .append(", labelloc=t];\n");
    sb.append("  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=10];\n");
    sb.append("  subgraph cluster_legend {\n    label=\"devices\";\n");
    for (int d = 0; d < p.devices().size(); d++) {
      sb.append("    legend_").append(d).append(" [label=").append(quote(p.devices().name(d)))
          .append(", fillcolor=\"").append(color(d)).append("\"];\n");
    }
    sb.append("  }\n");
    for (int v = 0; v < g.nodeCount(); v++) {
      OpNode n = g.node(v);
      if (n.isConstant()) {
        continue;
      }
      sb.append("  n").append(v).append(" [label=").append(quote(n.type() + "\\n" + shorten(n.name())))
          .append(", fillcolor=\"").append(color(p.deviceOf(v))).append("\", tooltip=")
          .append(quote(n.name() + " on " + p.deviceName(v))).append("];\n");
    }
    for (int k = 0; k < g.edgeCount(); k++) {
      int s = g.edge(k).source();
      int t = g.edge(k).target();
      if (g.node(s).isConstant() || g.node(t).isConstant()) {
        continue;
      }
      sb.append("  n").append(s).append(" -> n").append(t);
      if (p.deviceOf(s) != p.deviceOf(t)) {
        sb.append(" [color=\"red\", penwidth=2]");
      }
      sb.append(";\n");
    }
    sb.append("}\n");
    return sb.toString();
  }

  public static void write(Path file, OpGraph g, Placement p, String backend, String profile) throws IOException {
    AtomicFiles.writeString(file, toDot(g, p, backend, profile));
  }

  private static String shorten(String name) {
    return name.length() <= 40 ? name : "…" + name.substring(name.length() - 39);
  }

  private static String quote(String s) {
    // \\n is kept as DOT's line break; other backslashes and quotes are escaped.
    return "\"" + s.replace("\\n", "\u0000").replace("\\", "\\\\").replace("\"", "\\\"").replace("\u0000", "\\n")
        + "\"";
  }
}
