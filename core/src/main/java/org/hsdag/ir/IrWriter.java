package org.hsdag.ir;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.IoErrors;

/**
 * Writes an {@link OpGraph} as IR XML in the layout OpenVINO's serializer uses (tab indentation). Verbatim blocks captured by {@link IrReader} are written back
 * unchanged, so read → write → read is the identity.
 */
public final class IrWriter {

  /** Writes {@code graph} to {@code xml} atomically. */
  public void write(OpGraph graph, Path xml) {
    try {
      AtomicFiles.write(xml, out -> {
        Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
        write(graph, w);
        w.flush();
      });
    } catch (IOException e) {
      throw new IrException(xml + ": cannot write (" + IoErrors.reason(e) + ")", e);
    }
  }

  /** The IR XML text of {@code graph}. */
  public String toXml(OpGraph graph) {
    java.io.StringWriter sw = new java.io.StringWriter();
    try {
      write(graph, sw);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return sw.toString();
  }

  public void write(OpGraph graph, Writer w) throws IOException {
    w.write("<?xml version=\"1.0\"?>\n");
    w.write("<net name=\"" + XmlCapture.escape(graph.name()) + "\" version=\"" + graph.irVersion() + "\">\n");
    w.write("\t<layers>\n");
    for (OpNode n : graph.nodes()) {
      layer(n, w);
    }
    w.write("\t</layers>\n");
    w.write("\t<edges>\n");
    // Document order, so read → write → read keeps edge indices (OpenVINO reads edges in any order).
    for (int k = 0; k < graph.edgeCount(); k++) {
      Edge e = graph.edge(k);
      OpNode from = graph.node(e.source());
      OpNode to = graph.node(e.target());
      w.write("\t\t<edge from-layer=\"" + XmlCapture.escape(from.id()) + "\" from-port=\""
          + from.outputs().get(e.sourceOutput()).id() + "\" to-layer=\"" + XmlCapture.escape(to.id())
          + "\" to-port=\"" + to.inputs().get(e.targetInput()).id() + "\"/>\n");
    }
    w.write("\t</edges>\n");
    for (String block : graph.modelInfoXml()) {
      w.write("\t" + block + "\n");
    }
    w.write("</net>\n");
  }

  private static void layer(OpNode n, Writer w) throws IOException {
    w.write("\t\t<layer id=\"" + XmlCapture.escape(n.id()) + "\" name=\"" + XmlCapture.escape(n.name())
        + "\" type=\"" + XmlCapture.escape(n.type()) + "\"");
    if (!n.version().isEmpty()) {
      w.write(" version=\"" + XmlCapture.escape(n.version()) + "\"");
    }
    w.write(">\n");
    if (!n.attributes().isEmpty()) {
      w.write("\t\t\t<data");
      for (Map.Entry<String, String> a : n.attributes().entrySet()) {
        w.write(" " + a.getKey() + "=\"" + XmlCapture.escape(a.getValue()) + "\"");
      }
      w.write("/>\n");
    }
    if (n.rtInfoXml() != null) {
      w.write("\t\t\t" + n.rtInfoXml() + "\n");
    }
    ports("input", n.inputs(), w);
    ports("output", n.outputs(), w);
    if (n.extraXml() != null) {
      w.write("\t\t\t" + n.extraXml() + "\n");
    }
    w.write("\t\t</layer>\n");
  }

  private static void ports(String tag, java.util.List<Port> ports, Writer w) throws IOException {
    if (ports.isEmpty()) {
      return;
    }
    w.write("\t\t\t<" + tag + ">\n");
    for (Port p : ports) {
      w.write("\t\t\t\t<port id=\"" + p.id() + "\"");
      if (p.elementType() != null) {
        w.write(" precision=\"" + p.elementType().precision() + "\"");
      }
      if (p.names() != null) {
        w.write(" names=\"" + XmlCapture.escape(p.names()) + "\"");
      }
      long[] dims = p.dims();
      if (dims.length == 0 && p.rtInfoXml() == null) {
        w.write("/>\n");
        continue;
      }
      w.write(">\n");
      if (p.rtInfoXml() != null) {
        w.write("\t\t\t\t\t" + p.rtInfoXml() + "\n");
      }
      for (long d : dims) {
        w.write("\t\t\t\t\t<dim>" + d + "</dim>\n");
      }
      w.write("\t\t\t\t</port>\n");
    }
    w.write("\t\t\t</" + tag + ">\n");
  }
}
