package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.testkit.Samples;
import org.hsdag.testkit.SystemErr;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mutates real IRs. Random edits must parse or fail with the reader's own one-line
 * {@link IrException}; targeted mutations that make a graph invalid (the kinds IrBadInputTest lists: a
 * dropped edge, an absurd dimension, a deleted required attribute, a layer-id swap, a non-UTF-8
 * byte) must never be accepted. Nothing may reach {@code System.err} besides the exception.
 */
class IrFuzzTest {
  private static final String[] TOKENS = {
      "\"", "<", ">", "/>", "</port>", "<dim>", "-7", "?", "1..3", "FP99", "id=\"0\"", "offset=\"-1\"",
      "from-layer=\"999999\"", "to-port=\"x\"", "&", "&amp;", "<layer>", "version=\"x\"", "size=\"99999999999\"", ""
  };
  private static final Pattern EDGE = Pattern.compile("[ \\t]*<edge [^>]*/>\\r?\\n?");
  private static final Pattern DIM = Pattern.compile("<dim>(\\d+)</dim>");
  private static final Pattern LAYER_ID = Pattern.compile("<layer id=\"(\\d+)\"");
  /**
   * Attributes the opset specifications mark "Required: yes" for op types hsdag's cost model and
   * shape inference read (paddings only when auto_pad is explicit), listed here independently of
   * {@link OpAttributes}.
   */
  private static final Map<String, List<String>> REQUIRED = Map.of(
      "Const", List.of("element_type", "shape", "offset", "size"),
      "Parameter", List.of("element_type", "shape"),
      "Convert", List.of("destination_type"),
      "Convolution", List.of("strides", "dilations", "pads_begin", "pads_end"),
      "GroupConvolution", List.of("strides", "dilations", "pads_begin", "pads_end"),
      "MaxPool", List.of("kernel", "strides", "pads_begin", "pads_end"),
      "AvgPool", List.of("kernel", "strides", "pads_begin", "pads_end"),
      "Concat", List.of("axis"),
      "Reshape", List.of("special_zero"));

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"alexnet.xml", "resnet-50.xml", "distilbert-base-uncased-sst2.xml", "inception-v3.xml"})
  void randomEditsParseOrFailWithOneLineOfOurs(String file) throws IOException {
    String original = Files.readString(Samples.irSample(file));
    SplittableRandom rnd = new SplittableRandom(file.hashCode());
    int[] parsed = {0};
    String stderr = SystemErr.capture(() -> {
      for (int trial = 0; trial < 150; trial++) {
        if (outcome(mutate(original, rnd).getBytes(StandardCharsets.UTF_8), file, "trial " + trial) == null) {
          parsed[0]++;
        }
      }
    });
    assertEquals("", stderr, "something besides our exception was printed");
    // Sanity: some mutations are harmless, so the loop exercised the success path too.
    assertFalse(parsed[0] == 150, "every mutation parsed: the mutator is not mutating");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"alexnet.xml", "resnet-50.xml", "distilbert-base-uncased-sst2.xml", "mobilenet-v2.xml"})
  void invalidatingMutationsAreNeverAccepted(String file) throws IOException {
    String original = Files.readString(Samples.irSample(file));
    OpGraph graph = new IrReader().read(new ByteArrayInputStream(original.getBytes(StandardCharsets.UTF_8)), file);
    SplittableRandom rnd = new SplittableRandom(file.hashCode() * 31L + 16);
    List<String> accepted = new ArrayList<>();
    int[] counts = new int[5];
    List<int[]> edges = spans(EDGE.matcher(original));
    List<int[]> dims = spans(DIM.matcher(original));
    List<int[]> attributes = requiredAttributes(original);
    byte[] bytes = utf8(original);
    String stderr = SystemErr.capture(() -> {
      for (int trial = 0; trial < 8; trial++) {
        check(file, "dropped edge", cut(original, edges.get(rnd.nextInt(edges.size())), ""), accepted, counts, 0);
        check(file, "absurd dim", cut(original, dims.get(rnd.nextInt(dims.size())), "<dim>1000000000000</dim>"),
            accepted,
            counts, 1);
        if (!attributes.isEmpty()) {
          check(file, "deleted attribute", cut(original, attributes.get(rnd.nextInt(attributes.size())), ""), accepted,
              counts, 2);
        }
        check(file, "non-UTF-8 byte", nonUtf8(bytes, rnd), accepted, counts, 4);
      }
    });
    assertEquals("", stderr, "something besides our exception was printed");
    assertEquals(List.of(), accepted, "invalid graphs accepted");
    assertTrue(counts[2] > 0, "no required attribute found to delete");

    // Layer-id swaps: an invalid result must be refused, a valid one (two layers with the same
    // interface, so every edge still joins equal tensors) must still read.
    List<String> ids = new ArrayList<>();
    Matcher m = LAYER_ID.matcher(original);
    while (m.find()) {
      ids.add(m.group(1));
    }
    int refused = 0;
    for (int trial = 0; trial < 16; trial++) {
      String a = ids.get(rnd.nextInt(ids.size()));
      String b = ids.get(rnd.nextInt(ids.size()));
      if (a.equals(b)) {
        continue;
      }
      String swapped = original.replace("<layer id=\"" + a + "\"", "<layer id=\"@\"")
          .replace("<layer id=\"" + b + "\"", "<layer id=\"" + a + "\"")
          .replace("<layer id=\"@\"", "<layer id=\"" + b + "\"");
      boolean valid = swapKeepsEveryEdge(graph, index(graph, a), index(graph, b));
      String failure = outcome(swapped.getBytes(StandardCharsets.UTF_8), file, "swap " + a + "<->" + b);
      if (valid) {
        assertEquals(null, failure, "swap of layers " + a + " and " + b + " with the same interface was refused");
      } else {
        assertTrue(failure != null, "swap of layers " + a + " and " + b + " was accepted but breaks an edge");
        refused++;
      }
    }
    assertTrue(refused > 0, "no swap tested the refusing path");
  }

  private static void check(String file, String kind, byte[] mutant, List<String> accepted, int[] counts, int k) {
    if (mutant == null) {
      return;
    }
    counts[k]++;
    if (outcome(mutant, file, kind) == null) {
      accepted.add(kind);
    }
  }

  /** Null when {@code xml} parsed, else the reader's one-line message; anything else fails the test. */
  private static String outcome(byte[] xml, String file, String what) {
    try {
      new IrReader().read(new ByteArrayInputStream(xml), file);
      return null;
    } catch (IrException e) {
      assertFalse(e.getMessage().contains("\n"), what + ": one-line message: " + e.getMessage());
      assertTrue(e.getMessage().startsWith(file), what + ": names the file: " + e.getMessage());
      return e.getMessage();
    } catch (RuntimeException e) {
      fail(what + " threw " + e + " instead of IrException", e);
      return null;
    }
  }

  /** {@code s} with the span {@code at} replaced by {@code with}. */
  private static byte[] cut(String s, int[] at, String with) {
    return utf8(s.substring(0, at[0]) + with + s.substring(at[1]));
  }

  /** Spans of the required attributes (listed in {@link #REQUIRED}) present in {@code s}. */
  private static List<int[]> requiredAttributes(String s) {
    List<int[]> candidates = new ArrayList<>();
    Matcher layer = Pattern.compile("<layer [^>]*type=\"(\\w+)\"[^>]*>\\s*<data ([^>]*)/>").matcher(s);
    while (layer.find()) {
      List<String> required = REQUIRED.get(layer.group(1));
      if (required == null) {
        continue;
      }
      String data = layer.group(2);
      boolean padsIgnored = data.matches(".*auto_pad=\"(same_upper|same_lower|valid)\".*");
      for (String name : required) {
        if (padsIgnored && name.startsWith("pads_")) {
          continue;
        }
        Matcher attr = Pattern.compile("\\b" + name + "=\"[^\"]*\"").matcher(data);
        if (attr.find()) {
          candidates.add(new int[] {layer.start(2) + attr.start(), layer.start(2) + attr.end()});
        }
      }
    }
    return candidates;
  }

  /** Inserts a byte that is never valid at that place in UTF-8 (the text around it is ASCII). */
  private static byte[] nonUtf8(byte[] b, SplittableRandom rnd) {
    int pos;
    do {
      pos = 1 + rnd.nextInt(b.length - 1);
    } while (b[pos - 1] < 0 || b[pos] < 0);
    byte[] bad = {(byte) 0xE9, (byte) 0xFF, (byte) 0xC0, (byte) 0x80};
    byte[] out = new byte[b.length + 1];
    System.arraycopy(b, 0, out, 0, pos);
    out[pos] = bad[rnd.nextInt(bad.length)];
    System.arraycopy(b, pos, out, pos + 1, b.length - pos);
    return out;
  }

  /**
   * Whether swapping the ids of layers {@code a} and {@code b} (node indices) leaves a valid graph:
   * the edges keep their layer and port ids, so each id's new layer must have the ports the edges
   * name, every input port fed, and equal tensors at both ends (compatible shapes, equal element types).
   */
  private static boolean swapKeepsEveryEdge(OpGraph g, int a, int b) {
    if (!inputIds(g.node(a)).equals(inputIds(g.node(b)))) {
      return false;
    }
    for (Edge e : g.edges()) {
      Port out = port(content(g, e.source(), a, b).outputs(), g.node(e.source()).outputs().get(e.sourceOutput()).id());
      Port in = port(content(g, e.target(), a, b).inputs(), g.node(e.target()).inputs().get(e.targetInput()).id());
      if (out == null || in == null || !out.shapeCompatible(in)) {
        return false;
      }
      ElementType x = out.elementType();
      ElementType y = in.elementType();
      if (x != null && y != null && x.bitWidth() > 0 && y.bitWidth() > 0 && x != y) {
        return false;
      }
    }
    return true;
  }

  private static OpNode content(OpGraph g, int v, int a, int b) {
    return g.node(v == a ? b : v == b ? a : v);
  }

  private static Set<Integer> inputIds(OpNode n) {
    Set<Integer> ids = new HashSet<>();
    n.inputs().forEach(p -> ids.add(p.id()));
    return ids;
  }

  private static Port port(List<Port> ports, int id) {
    return ports.stream().filter(p -> p.id() == id).findFirst().orElse(null);
  }

  private static int index(OpGraph g, String id) {
    for (OpNode n : g.nodes()) {
      if (n.id().equals(id)) {
        return n.index();
      }
    }
    throw new IllegalArgumentException(id);
  }

  private static List<int[]> spans(Matcher m) {
    List<int[]> out = new ArrayList<>();
    while (m.find()) {
      out.add(new int[] {m.start(), m.end()});
    }
    return out;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String mutate(String s, SplittableRandom rnd) {
    StringBuilder sb = new StringBuilder(s);
    int edits = 1 + rnd.nextInt(3);
    for (int i = 0; i < edits; i++) {
      int pos = rnd.nextInt(sb.length());
      switch (rnd.nextInt(5)) {
        case 0 -> sb.delete(pos, Math.min(sb.length(), pos + 1 + rnd.nextInt(40)));
        case 1 -> sb.insert(pos, TOKENS[rnd.nextInt(TOKENS.length)]);
        case 2 -> {
          // Replace a digit: renumbers ids, ports, dims and offsets.
          int d = sb.indexOf("\"", pos);
          if (d > 0 && d + 1 < sb.length() && Character.isDigit(sb.charAt(d + 1))) {
            sb.setCharAt(d + 1, (char) ('0' + rnd.nextInt(10)));
          }
        }
        case 3 -> {
          int len = Math.min(200, sb.length() - pos);
          sb.insert(rnd.nextInt(sb.length()), sb.substring(pos, pos + len));
        }
        default -> sb.setLength(Math.max(1, pos));
      }
    }
    return sb.toString();
  }
}
