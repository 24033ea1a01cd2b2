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
import org.hsdag.io.IoErrors;

/**
 * Reads OpenVINO IR v10/v11 XML into an {@link OpGraph} with a streaming parser (constant memory
 * beyond the graph itself). Unknown attributes, per-layer and model-level rt_info, and bodies are
 * kept verbatim so {@link IrWriter} can round-trip them.
 *
 * <p>When a {@code .bin} with the XML's base name sits beside it (or one is given), every Const
 * region is checked to lie inside it. Every error is an {@link IrException} whose one-line
 * message names the file and the line or layer.
 *
 * <p>Beyond well-formed XML, a graph must be one OpenVINO's reader would build as written: every
 * input port fed by exactly one edge (OpenVINO's {@code ir_deserializer.cpp} sizes a layer's
 * inputs by its incoming edges and rejects a port left without one), the two ends of an edge
 * describing one tensor (same shape, same element type: OpenVINO's serializer writes both from
 * that tensor), dimensions of at least -1 and at most {@link Shapes#MAX_ELEMENTS} elements per
 * tensor, the attributes {@link OpAttributes} lists present and well-formed, and a Const,
 * Parameter or Convert attribute agreeing with the port it describes.
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
   * Reads {@code xml}; when {@code bin} is non-null it must exist and hold every Const region. The
   * graph remembers {@code xml} as its {@link OpGraph#source()}.
   */
  public OpGraph read(Path xml, Path bin) {
    ModelFormat.requireIrXml(xml);
    OpGraph graph;
    try (InputStream in = Files.newInputStream(xml)) {
      graph = read(in, xml.toString());
    } catch (NoSuchFileException e) {
      throw new IrException(xml + ": model file not found");
    } catch (IOException e) {
      throw new IrException(xml + ": cannot read (" + IoErrors.reason(e) + ")", e);
    }
    if (bin != null) {
      Weights.checkRegions(graph, bin, xml.toString());
    }
    return graph.readFrom(xml);
  }

  /** Reads IR XML from a stream; {@code source} names it in error messages. */
  public OpGraph read(InputStream in, String source) {
    XMLStreamReader r;
    try {
      r = factory.createXMLStreamReader(XmlTextReader.open(in));
    } catch (IOException e) {
      throw IrErrors.readError(source, e, e);
    } catch (XMLStreamException e) {
      throw IrErrors.xmlError(source, e, e.getLocation());
    }
    Parse p = new Parse(r, source);
    try {
      return p.net();
    } catch (XMLStreamException e) {
      throw IrErrors.xmlError(source, e, e.getLocation() == null ? r.getLocation() : e.getLocation());
    } finally {
      try {
        r.close();
      } catch (XMLStreamException ignored) {
        // nothing left to release
      }
    }
  }

  /** Names a layer in messages; built per layer, formatted only for an error. */
  private record LayerName(String id, String name, String type) {
    @Override
    public String toString() {
      return "layer id=" + id + " '" + name + "' (" + type + ")";
    }
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
    private final List<OpNode> nodes = new ArrayList<>();

    Parse(XMLStreamReader r, String source) {
      this.r = r;
      this.source = source;
    }

    private IrException error(String message) {
      return new IrException(source + ":" + r.getLocation().getLineNumber() + ": " + message);
    }

    OpGraph net() throws XMLStreamException {
      rootElement();
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
      if (builder.nodeCount() == 0) {
        throw new IrException(source + ": model has no layers"); // nothing to place, inspect or time
      }
      resolveEdges(rawEdges, edgeLines);
      try {
        return builder.build();
      } catch (IrException e) {
        throw new IrException(source + ": " + e.getMessage(), e);
      }
    }

    /** Advances to the root element, refusing a DTD by name (nextTag would call it "found: DTD"). */
    private void rootElement() throws XMLStreamException {
      while (r.next() != XMLStreamConstants.START_ELEMENT) {
        switch (r.getEventType()) {
          case XMLStreamConstants.DTD ->
            throw error("has a document type declaration (<!DOCTYPE ...>), which an OpenVINO IR "
                + "never has");
          case XMLStreamConstants.SPACE, XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {
          }
          case XMLStreamConstants.CHARACTERS -> {
            if (!r.isWhiteSpace()) {
              throw error("text before the root element");
            }
          }
          default -> throw error("no root element");
        }
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
      LayerName who = new LayerName(id, name, type);
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
          case "input" -> ports(inputs, who, true);
          case "output" -> ports(outputs, who, false);
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
      String bad = OpAttributes.problem(node);
      long[] declared = bad == null && (node.isConstant() || node.isParameter())
          ? Shapes.parseShape(node.attribute("shape")) : null;
      if (bad == null) {
        bad = IrConsistency.disagreement(node, declared);
      }
      if (bad != null) {
        throw new IrException(source + ":" + line + ": " + who + ": " + bad);
      }
      checkConst(node, declared, line);
      builder.addNode(node);
      nodes.add(node);
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

    /** A Const region must hold its shape (OpenVINO checks the same when it loads the weights). */
    private void checkConst(OpNode node, long[] shape, int line) {
      if (!node.isConstant()) {
        return;
      }
      ElementType et = ElementType.parse(node.attribute("element_type"));
      long size = node.constSize();
      if (node.constOffset() > Long.MAX_VALUE - size) {
        // offset + size would overflow: no file holds such a region.
        throw new IrException(source + ":" + line + ": Const layer id=" + node.id() + " '" + node.name()
            + "' has offset " + node.constOffset() + " and size " + size + ", past the end of any weights file");
      }
      if (et != ElementType.STRING) {
        long needed = et.byteSize(Shapes.elementCount(shape));
        if (size < needed) {
          throw new IrException(
              source + ":" + line + ": Const layer id=" + node.id() + " '" + node.name() + "' holds " + size
                  + " bytes but its shape needs " + needed);
        }
      }
    }

    private void ports(List<Port> into, LayerName layerId, boolean input) throws XMLStreamException {
      while (nextChild()) {
        if (!"port".equals(r.getLocalName())) {
          throw error("unexpected <" + r.getLocalName() + "> in the ports of " + layerId);
        }
        String pid = r.getAttributeValue(null, "id");
        int portId;
        try {
          portId = Integer.parseInt(pid == null ? "" : pid.trim());
        } catch (NumberFormatException e) {
          throw error(layerId + " has a port with a bad id '" + pid + "'");
        }
        String precision = r.getAttributeValue(null, "precision");
        ElementType type = null;
        if (precision != null) {
          try {
            type = ElementType.parse(precision);
          } catch (IllegalArgumentException e) {
            throw error(layerId + " port " + portId + ": " + e.getMessage());
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
        String big = Shapes.boundProblem(d);
        if (big != null) {
          throw error(layerId + " port " + portId + " " + big);
        }
        into.add(new Port(portId, type, d, names, rt));
      }
    }

    private long parseDim(String text, LayerName layerId) {
      String t = text.trim();
      if (t.equals("?") || t.equals("-1") || t.contains("..")) {
        return -1;
      }
      try {
        long v = Long.parseLong(t);
        if (v < -1) {
          throw error(layerId + " has a dimension below -1: " + t);
        }
        return v;
      } catch (NumberFormatException e) {
        throw error(layerId + " has a bad dimension '" + t + "'");
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
        String mismatch = IrConsistency.tensorMismatch(nodes.get(from), out, nodes.get(to), in);
        if (mismatch != null) {
          throw new IrException(at + ": " + mismatch);
        }
        builder.addEdge(new Edge(from, out, to, in));
      }
      for (int v = 0; v < fed.size(); v++) {
        boolean[] f = fed.get(v);
        for (int i = 0; i < f.length; i++) {
          if (!f[i]) {
            OpNode n = nodes.get(v);
            throw new IrException(source + ":" + layerLines.get(v) + ": input port " + n.inputs().get(i).id() + " of "
                + new LayerName(n.id(), n.name(), n.type()) + " has no incoming edge");
          }
        }
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
