package org.hsdag.ir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads OpenVINO IR v10/v11 XML into an {@link OpGraph} with a streaming parser (constant memory
 * beyond the graph itself). Unknown attributes, per-layer and model-level rt_info, and bodies are
 * kept verbatim so {@link IrWriter} can round-trip them.
 *
 * <p>When a {@code .bin} with the XML's base name sits beside it (or one is given), every Const
 * region is checked to lie inside it. Every error is an {@link IrException} whose one-line
 * message names the file and the line or layer.
 */
public final class IrReader {
  private final XMLInputFactory factory;

  public IrReader() {
    factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
  }

  /** The {@code .bin} path OpenVINO would pair with {@code xml}: same base name, extension .bin. */
  public static Path defaultBinPath(Path xml) {
    String file = xml.getFileName().toString();
    int dot = file.lastIndexOf('.');
    String base = dot > 0 ? file.substring(0, dot) : file;
    return xml.resolveSibling(base + ".bin");
  }

  /** Reads {@code xml}; checks Const regions against the sibling {@code .bin} if it exists. */
  public OpGraph read(Path xml) {
    Path bin = defaultBinPath(xml);
    return read(xml, Files.isRegularFile(bin) ? bin : null);
  }

  /**
   * Reads {@code xml}; when {@code bin} is non-null it must exist and hold every Const region.
   */
  public OpGraph read(Path xml, Path bin) {
    OpGraph graph;
    try (InputStream in = Files.newInputStream(xml)) {
      graph = read(in, xml.toString());
    } catch (NoSuchFileException e) {
      throw new IrException(xml + ": model file not found");
    } catch (IOException e) {
      throw new IrException(xml + ": cannot read (" + e.getMessage() + ")", e);
    }
    if (bin != null) {
      Weights.checkRegions(graph, bin, xml.toString());
    }
    return graph;
  }

  /** Reads IR XML from a stream; {@code source} names it in error messages. */
  public OpGraph read(InputStream in, String source) {
    XMLStreamReader r;
    try {
      r = factory.createXMLStreamReader(in);
    } catch (XMLStreamException e) {
      throw new IrException(source + ": malformed XML (" + oneLine(e.getMessage()) + ")", e);
    }
    Parse p = new Parse(r, source);
    try {
      return p.net();
    } catch (XMLStreamException e) {
      int line = e.getLocation() == null ? r.getLocation().getLineNumber() : e.getLocation().getLineNumber();
      throw new IrException(source + ":" + line + ": malformed XML (" + oneLine(stripLocation(e.getMessage())) + ")", e);
    } finally {
      try {
        r.close();
      } catch (XMLStreamException ignored) {
        // nothing left to release
      }
    }
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ").trim();
  }

  private static String stripLocation(String s) {
    if (s == null) {
      return "";
    }
    int i = s.indexOf("Message:");
    return i >= 0 ? s.substring(i + "Message:".length()) : s;
  }

  /** State of one parse. */
  private static final class Parse {
    private final XMLStreamReader r;
    private final String source;
    private final OpGraph.Builder builder = OpGraph.builder();
    private final Map<String, Integer> indexById = new HashMap<>();
    // Per node: port id -> position in inputs / outputs.
    private final List<Map<Integer, Integer>> inputPos = new ArrayList<>();
    private final List<Map<Integer, Integer>> outputPos = new ArrayList<>();
    private final List<Integer> layerLines = new ArrayList<>();

    Parse(XMLStreamReader r, String source) {
      this.r = r;
      this.source = source;
    }

    private IrException error(String message) {
      return new IrException(source + ":" + r.getLocation().getLineNumber() + ": " + message);
    }

    OpGraph net() throws XMLStreamException {
      r.nextTag();
      if (!"net".equals(r.getLocalName())) {
        throw error("expected <net> as the root element (got <" + r.getLocalName() + ">)");
      }
      builder.setName(attr("name", ""));
      String version = attr("version", "11");
      try {
        builder.setIrVersion(Integer.parseInt(version.trim()));
      } catch (NumberFormatException e) {
        throw error("<net version> is not a number: '" + version + "'");
      }
      boolean sawLayers = false;
      List<int[]> edgeLines = new ArrayList<>();
      List<String[]> rawEdges = new ArrayList<>();
      while (nextChild()) {
        switch (r.getLocalName()) {
          case "layers" -> {
            layers();
            sawLayers = true;
          }
          case "edges" -> edges(rawEdges, edgeLines);
          default -> builder.addModelInfoXml(XmlCapture.element(r));
        }
      }
      if (!sawLayers) {
        throw error("no <layers> block");
      }
      resolveEdges(rawEdges, edgeLines);
      try {
        return builder.build();
      } catch (IrException e) {
        throw new IrException(source + ": " + e.getMessage(), e);
      }
    }

    /** Advances to the next child start element; false at the parent's end element. */
    private boolean nextChild() throws XMLStreamException {
      while (r.hasNext()) {
        int ev = r.next();
        if (ev == XMLStreamConstants.START_ELEMENT) {
          return true;
        }
        if (ev == XMLStreamConstants.END_ELEMENT) {
          return false;
        }
      }
      return false;
    }

    private String attr(String name, String fallback) {
      String v = r.getAttributeValue(null, name);
      return v == null ? fallback : v;
    }

    private void layers() throws XMLStreamException {
      while (nextChild()) {
        if (!"layer".equals(r.getLocalName())) {
          throw error("unexpected <" + r.getLocalName() + "> in <layers>");
        }
        layer();
      }
    }

    private void layer() throws XMLStreamException {
      int line = r.getLocation().getLineNumber();
      String id = r.getAttributeValue(null, "id");
      if (id == null || id.isBlank()) {
        throw error("<layer> without an id");
      }
      id = id.trim();
      String type = r.getAttributeValue(null, "type");
      if (type == null || type.isBlank()) {
        throw error("layer id=" + id + " has no type");
      }
      String name = attr("name", id);
      String version = attr("version", "");
      if (indexById.containsKey(id)) {
        throw error("duplicate layer id=" + id);
      }
      Map<String, String> data = new LinkedHashMap<>();
      List<Port> inputs = new ArrayList<>();
      List<Port> outputs = new ArrayList<>();
      String rtInfo = null;
      StringBuilder extra = null;
      while (nextChild()) {
        switch (r.getLocalName()) {
          case "data" -> {
            for (int i = 0; i < r.getAttributeCount(); i++) {
              data.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
            }
            skipElement();
          }
          case "rt_info" -> rtInfo = XmlCapture.element(r);
          case "input" -> ports(inputs, id, true);
          case "output" -> ports(outputs, id, false);
          default -> {
            if (extra == null) {
              extra = new StringBuilder();
            }
            extra.append(XmlCapture.element(r));
          }
        }
      }
      int index = builder.nodeCount();
      Map<Integer, Integer> in = new HashMap<>();
      Map<Integer, Integer> out = new HashMap<>();
      for (int i = 0; i < inputs.size(); i++) {
        if (in.put(inputs.get(i).id(), i) != null) {
          throw error("layer id=" + id + " has duplicate input port id=" + inputs.get(i).id());
        }
      }
      for (int i = 0; i < outputs.size(); i++) {
        if (out.put(outputs.get(i).id(), i) != null || in.containsKey(outputs.get(i).id())) {
          throw error("layer id=" + id + " has duplicate port id=" + outputs.get(i).id());
        }
      }
      checkTypes(id, data);
      OpNode node = new OpNode(index, id, name, type, version, data, inputs, outputs, rtInfo,
          extra == null ? null : extra.toString());
      checkConst(node, line);
      builder.addNode(node);
      indexById.put(id, index);
      inputPos.add(in);
      outputPos.add(out);
      layerLines.add(line);
    }

    private void checkTypes(String id, Map<String, String> data) {
      for (String key : new String[] {"element_type", "destination_type", "output_type"}) {
        String v = data.get(key);
        if (v != null) {
          try {
            ElementType.parse(v);
          } catch (IllegalArgumentException e) {
            throw error("layer id=" + id + ": " + e.getMessage() + " in " + key);
          }
        }
      }
    }

    private void checkConst(OpNode node, int line) {
      if (!node.isConstant()) {
        return;
      }
      String where = source + ":" + line + ": Const layer id=" + node.id() + " '" + node.name() + "'";
      String off = node.attribute("offset");
      String size = node.attribute("size");
      if (off == null || size == null) {
        throw new IrException(where + " has no offset/size");
      }
      long o;
      long s;
      try {
        o = Long.parseLong(off.trim());
        s = Long.parseLong(size.trim());
      } catch (NumberFormatException e) {
        throw new IrException(where + " has a non-numeric offset/size ('" + off + "', '" + size + "')");
      }
      if (o < 0 || s < 0) {
        throw new IrException(where + " has a negative offset/size");
      }
      String et = node.attribute("element_type");
      String shape = node.attribute("shape");
      if (et != null && shape != null && !"string".equals(et.trim())) {
        long[] dims;
        try {
          dims = Shapes.parseShape(shape);
        } catch (IrException e) {
          throw new IrException(where + ": " + e.getMessage());
        }
        if (dims != null) {
          long count = 1;
          for (long d : dims) {
            count = d < 0 ? count : count * d;
          }
          long needed = ElementType.parse(et).byteSize(count);
          if (s < needed) {
            throw new IrException(where + " holds " + s + " bytes but its shape needs " + needed);
          }
        }
      }
    }

    private void ports(List<Port> into, String layerId, boolean input) throws XMLStreamException {
      while (nextChild()) {
        if (!"port".equals(r.getLocalName())) {
          throw error("unexpected <" + r.getLocalName() + "> in the ports of layer id=" + layerId);
        }
        String pid = r.getAttributeValue(null, "id");
        int portId;
        try {
          portId = Integer.parseInt(pid == null ? "" : pid.trim());
        } catch (NumberFormatException e) {
          throw error("layer id=" + layerId + " has a port with a bad id '" + pid + "'");
        }
        String precision = r.getAttributeValue(null, "precision");
        ElementType type = null;
        if (precision != null) {
          try {
            type = ElementType.parse(precision);
          } catch (IllegalArgumentException e) {
            throw error("layer id=" + layerId + " port " + portId + ": " + e.getMessage());
          }
        } else if (!input) {
          type = null;
        }
        String names = r.getAttributeValue(null, "names");
        List<Long> dims = new ArrayList<>();
        String rt = null;
        while (nextChild()) {
          switch (r.getLocalName()) {
            case "dim" -> dims.add(parseDim(r.getElementText(), layerId));
            case "rt_info" -> rt = XmlCapture.element(r);
            default -> skipElement();
          }
        }
        long[] d = new long[dims.size()];
        for (int i = 0; i < d.length; i++) {
          d[i] = dims.get(i);
        }
        into.add(new Port(portId, type, d, names, rt));
      }
    }

    private long parseDim(String text, String layerId) {
      String t = text.trim();
      if (t.equals("?") || t.equals("-1") || t.contains("..")) {
        return -1;
      }
      try {
        long v = Long.parseLong(t);
        if (v < -1) {
          throw error("layer id=" + layerId + " has a negative dimension " + t);
        }
        return v;
      } catch (NumberFormatException e) {
        throw error("layer id=" + layerId + " has a bad dimension '" + t + "'");
      }
    }

    private void edges(List<String[]> rawEdges, List<int[]> lines) throws XMLStreamException {
      while (nextChild()) {
        if (!"edge".equals(r.getLocalName())) {
          throw error("unexpected <" + r.getLocalName() + "> in <edges>");
        }
        String[] e = {
          r.getAttributeValue(null, "from-layer"),
          r.getAttributeValue(null, "from-port"),
          r.getAttributeValue(null, "to-layer"),
          r.getAttributeValue(null, "to-port")
        };
        for (String s : e) {
          if (s == null) {
            throw error("<edge> needs from-layer, from-port, to-layer and to-port");
          }
        }
        rawEdges.add(e);
        lines.add(new int[] {r.getLocation().getLineNumber()});
        skipElement();
      }
    }

    private void resolveEdges(List<String[]> rawEdges, List<int[]> lines) {
      List<boolean[]> fed = new ArrayList<>();
      for (int i = 0; i < builder.nodeCount(); i++) {
        fed.add(new boolean[inputPos.get(i).size()]);
      }
      for (int k = 0; k < rawEdges.size(); k++) {
        String[] e = rawEdges.get(k);
        String at = source + ":" + lines.get(k)[0] + ": edge " + e[0] + ":" + e[1] + " -> " + e[2] + ":" + e[3];
        Integer from = indexById.get(e[0].trim());
        Integer to = indexById.get(e[2].trim());
        if (from == null) {
          throw new IrException(at + " starts at a missing layer id=" + e[0]);
        }
        if (to == null) {
          throw new IrException(at + " ends at a missing layer id=" + e[2]);
        }
        Integer out = portPos(outputPos.get(from), e[1]);
        Integer in = portPos(inputPos.get(to), e[3]);
        if (out == null) {
          throw new IrException(at + ": layer id=" + e[0] + " has no output port " + e[1]);
        }
        if (in == null) {
          throw new IrException(at + ": layer id=" + e[2] + " has no input port " + e[3]);
        }
        if (fed.get(to)[in]) {
          throw new IrException(at + ": input port " + e[3] + " of layer id=" + e[2] + " has two incoming edges");
        }
        fed.get(to)[in] = true;
        builder.addEdge(new Edge(from, out, to, in));
      }
    }

    private static Integer portPos(Map<Integer, Integer> positions, String portId) {
      try {
        return positions.get(Integer.parseInt(portId.trim()));
      } catch (NumberFormatException e) {
        return null;
      }
    }

    private void skipElement() throws XMLStreamException {
      int depth = 1;
      while (depth > 0) {
        int ev = r.next();
        if (ev == XMLStreamConstants.START_ELEMENT) {
          depth++;
        } else if (ev == XMLStreamConstants.END_ELEMENT) {
          depth--;
        }
      }
    }
  }
}
