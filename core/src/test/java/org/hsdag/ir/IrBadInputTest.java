package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.testkit.SystemErr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IrBadInputTest {
  private static final String LAYERS_OK = """
      <layer id="0" name="in" type="Parameter" version="opset1">
        <data shape="1,4" element_type="f32"/>
        <output><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></output>
      </layer>
      <layer id="1" name="w" type="Const" version="opset1">
        <data element_type="f32" shape="1,4" offset="0" size="16"/>
        <output><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></output>
      </layer>
      <layer id="2" name="add" type="Add" version="opset1">
        <input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port><port id="1" precision="FP32"><dim>1</dim><dim>4</dim></port></input>
        <output><port id="2" precision="FP32"><dim>1</dim><dim>4</dim></port></output>
      </layer>
      <layer id="3" name="out" type="Result" version="opset1">
        <input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></input>
      </layer>
      """;
  private static final String EDGES_OK = """
      <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
      <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
      <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
      """;

  static String net(String layers, String edges) {
    return "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n" + layers + "</layers>\n<edges>\n"
        + edges + "</edges>\n</net>\n";
  }

  private static IrException reject(String xml) {
    IrException e = assertThrows(IrException.class, () -> IrRoundTripTest.read(xml));
    assertFalse(e.getMessage().contains("\n"), "one-line message: " + e.getMessage());
    assertTrue(e.getMessage().startsWith("test.xml"), "names the file: " + e.getMessage());
    return e;
  }

  @Test
  void acceptsTheWellFormedBaseCase() {
    OpGraph g = IrRoundTripTest.read(net(LAYERS_OK, EDGES_OK));
    assertEquals(4, g.nodeCount());
    assertEquals(3, g.edgeCount());
  }

  @Test
  void rejectsMalformedXmlWithALineNumber() {
    IrException e = reject(net(LAYERS_OK, EDGES_OK).replace("</layers>", "</layer>"));
    assertTrue(e.getMessage().matches("test\\.xml:\\d+: malformed XML.*"), e.getMessage());
  }

  @Test
  void rejectsDuplicateLayerIds() {
    IrException e = reject(net(LAYERS_OK.replace("id=\"3\" name=\"out\"", "id=\"2\" name=\"out\""), EDGES_OK));
    assertTrue(e.getMessage().contains("duplicate layer id=2"), e.getMessage());
  }

  @Test
  void rejectsAnEdgeToAMissingLayer() {
    IrException e = reject(net(LAYERS_OK, EDGES_OK.replace("to-layer=\"3\"", "to-layer=\"9\"")));
    assertTrue(e.getMessage().contains("missing layer id=9"), e.getMessage());
  }

  @Test
  void rejectsAnEdgeToAMissingPort() {
    IrException e = reject(
        net(LAYERS_OK, EDGES_OK.replace("to-layer=\"2\" to-port=\"1\"", "to-layer=\"2\" to-port=\"7\"")));
    assertTrue(e.getMessage().contains("has no input port 7"), e.getMessage());
  }

  @Test
  void rejectsACycle() {
    String layers = LAYERS_OK + """
        <layer id="4" name="loop_a" type="ReLU" version="opset1">
          <input><port id="0" precision="FP32"/></input><output><port id="1" precision="FP32"/></output>
        </layer>
        <layer id="5" name="loop_b" type="ReLU" version="opset1">
          <input><port id="0" precision="FP32"/></input><output><port id="1" precision="FP32"/></output>
        </layer>
        """;
    String edges = EDGES_OK + """
        <edge from-layer="4" from-port="1" to-layer="5" to-port="0"/>
        <edge from-layer="5" from-port="1" to-layer="4" to-port="0"/>
        """;
    IrException e = reject(net(layers, edges));
    assertTrue(e.getMessage().contains("cycle through layer id=4"), e.getMessage());
  }

  @Test
  void rejectsAnUnknownElementType() {
    IrException e = reject(net(LAYERS_OK
        .replace("precision=\"FP32\"><dim>1</dim><dim>4</dim></port></output>\n  </layer>\n  <layer id=\"1\"",
            "precision=\"FP33\"><dim>1</dim><dim>4</dim></port></output>\n  </layer>\n  <layer id=\"1\"")
        .replace("element_type=\"f32\"/>", "element_type=\"q7\"/>"), EDGES_OK));
    assertTrue(e.getMessage().contains("unknown element type"), e.getMessage());
  }

  @Test
  void rejectsAConstOutsideTheBin(@TempDir Path dir) throws IOException {
    Path xml = dir.resolve("m.xml");
    Files.writeString(xml, net(LAYERS_OK, EDGES_OK));
    Files.write(dir.resolve("m.bin"), new byte[10]);
    IrException e = assertThrows(IrException.class, () -> new IrReader().read(xml));
    assertTrue(e.getMessage().contains("Const layer id=1 'w' needs bytes 0..16 but m.bin has only 10"), e.getMessage());
  }

  @Test
  void missingWeightsAreReportedWhenNeeded(@TempDir Path dir) throws IOException {
    Path xml = dir.resolve("m.xml");
    Files.writeString(xml, net(LAYERS_OK, EDGES_OK));
    OpGraph g = new IrReader().read(xml); // the graph itself reads without the .bin
    IrException e = assertThrows(IrException.class, () -> Weights.open(g, xml));
    assertTrue(e.getMessage().contains("weights file m.bin not found; the model needs 16 bytes"), e.getMessage());
    Files.write(dir.resolve("m.bin"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    try (Weights w = Weights.open(g, xml)) {
      assertEquals(16, w.read(g.node(1)).length);
      assertEquals(16, w.read(g.node(1))[15]);
    }
  }

  @Test
  void rejectsAConstSmallerThanItsShape() {
    IrException e = reject(net(LAYERS_OK.replace("size=\"16\"", "size=\"8\""), EDGES_OK));
    assertTrue(e.getMessage().contains("holds 8 bytes but its shape needs 16"), e.getMessage());
  }

  @Test
  void rejectsTwoEdgesIntoOneInput() {
    IrException e = reject(
        net(LAYERS_OK, EDGES_OK.replace("from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"1\"",
            "from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"0\"")));
    assertTrue(e.getMessage().contains("two incoming edges"), e.getMessage());
  }

  @Test
  void missingFileIsOneLine(@TempDir Path dir) {
    IrException e = assertThrows(IrException.class, () -> new IrReader().read(dir.resolve("nope.xml")));
    assertTrue(e.getMessage().endsWith("nope.xml: model file not found"), e.getMessage());
  }

  // --- graphs OpenVINO would not build as written ------------------------------------------------

  @Test
  void rejectsAnInputPortWithoutAnEdge() {
    IrException e = reject(net(LAYERS_OK,
        EDGES_OK.replace("<edge from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"1\"/>\n", "")));
    assertTrue(
        e.getMessage().matches("test\\.xml:\\d+: input port 1 of layer id=2 'add' \\(Add\\) has no incoming edge"),
        e.getMessage());
  }

  @Test
  void rejectsATensorAboveTheElementBound() {
    // Consistent on both ends of every edge, so only the bound can catch it.
    String huge = "<dim>1</dim><dim>1000000000000</dim>";
    String layers = LAYERS_OK.replace("<dim>1</dim><dim>4</dim>", huge).replace("shape=\"1,4\" element_type",
        "shape=\"1,1000000000000\" element_type");
    IrException e = reject(net(layers, EDGES_OK));
    assertTrue(e.getMessage().contains("has more than 2^36 elements (1, 1000000000000)"), e.getMessage());
    assertTrue(e.getMessage().contains("layer id=0 'in' (Parameter)"), e.getMessage());
  }

  @Test
  void acceptsTheLargestRealTensorsUnderTheBound() {
    // A 256k-token by 16k embedding table (4.3e9 elements) is a real weight; 2^36 is above it.
    String layers = LAYERS_OK.replace("<dim>1</dim><dim>4</dim>", "<dim>262144</dim><dim>16384</dim>")
        .replace("shape=\"1,4\" element_type", "shape=\"262144,16384\" element_type")
        .replace("shape=\"1,4\" offset=\"0\" size=\"16\"", "shape=\"262144,16384\" offset=\"0\" size=\"17179869184\"");
    assertEquals(4, IrRoundTripTest.read(net(layers, EDGES_OK)).nodeCount());
  }

  @Test
  void rejectsAConstRegionWhoseEndOverflows() {
    // offset + size past 2^63 - 1 wrapped to a negative end and passed every bound check.
    IrException e = reject(
        net(LAYERS_OK.replace("offset=\"0\" size=\"16\"", "offset=\"9223372036854775807\" size=\"16\""),
            EDGES_OK));
    assertTrue(e.getMessage().contains("has offset 9223372036854775807 and size 16, past the end of any weights file"),
        e.getMessage());
  }

  @Test
  void rejectsADimensionBelowMinusOne() {
    IrException e = reject(net(LAYERS_OK.replaceFirst("<dim>4</dim>", "<dim>-2</dim>"), EDGES_OK));
    assertTrue(e.getMessage().contains("layer id=0 'in' (Parameter) has a dimension below -1: -2"), e.getMessage());
  }

  @Test
  void rejectsAnEdgeWhoseEndsDisagreeOnTheShape() {
    String layers = LAYERS_OK.replace(
        "<input><port id=\"0\" precision=\"FP32\"><dim>1</dim><dim>4</dim></port></input>",
        "<input><port id=\"0\" precision=\"FP32\"><dim>1</dim><dim>8</dim></port></input>");
    IrException e = reject(net(layers, EDGES_OK));
    assertTrue(
        e.getMessage().contains(
            "edge 2:2 -> 3:0: layer id=2 'add' outputs [1, 4] but input port 0 of layer id=3 'out' takes [1, 8]"),
        e.getMessage());
  }

  @Test
  void rejectsAnEdgeWhoseEndsDisagreeOnTheElementType() {
    String layers = LAYERS_OK.replace(
        "<input><port id=\"0\" precision=\"FP32\"><dim>1</dim><dim>4</dim></port></input>",
        "<input><port id=\"0\" precision=\"FP16\"><dim>1</dim><dim>4</dim></port></input>");
    IrException e = reject(net(layers, EDGES_OK));
    assertTrue(e.getMessage().contains("layer id=2 'add' outputs FP32 but input port 0 of layer id=3 'out' takes FP16"),
        e.getMessage());
  }

  @Test
  void aDynamicDimensionMatchesAnySize() {
    String layers = LAYERS_OK.replace(
        "<input><port id=\"0\" precision=\"FP32\"><dim>1</dim><dim>4</dim></port></input>",
        "<input><port id=\"0\" precision=\"FP32\"><dim>-1</dim><dim>4</dim></port></input>");
    assertEquals(3, IrRoundTripTest.read(net(layers, EDGES_OK)).edgeCount());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Const shape          | shape=\"1,4\" offset  | offset   | layer id=1 'w' (Const): attribute 'shape' is missing",
      "Const element_type   | element_type=\"f32\" shape=\"1,4\" offset | shape=\"1,4\" offset | layer id=1 'w' (Const): attribute 'element_type' is missing",
      "Const offset         | offset=\"0\"          | ''       | layer id=1 'w' (Const): attribute 'offset' is missing",
      "Const size           | size=\"16\"           | ''       | layer id=1 'w' (Const): attribute 'size' is missing",
      "Const negative size  | size=\"16\"           | size=\"-16\" | layer id=1 'w' (Const): attribute size=\"-16\" is negative",
      "Const bad shape      | shape=\"1,4\" offset  | shape=\"1,x\" offset | layer id=1 'w' (Const): attribute shape=\"1,x\" is not a shape",
      "Const dynamic shape  | shape=\"1,4\" offset  | shape=\"1,?\" offset | layer id=1 'w' (Const): attribute shape=\"1,?\" is not a static shape",
      "Const shape vs port  | shape=\"1,4\" offset  | shape=\"4,1\" offset | layer id=1 'w' (Const): attribute shape=\"4,1\" does not match its output port [1, 4]",
      "Parameter shape      | shape=\"1,4\" element | element | layer id=0 'in' (Parameter): attribute 'shape' is missing",
      "Parameter type vs port | shape=\"1,4\" element_type=\"f32\" | shape=\"1,4\" element_type=\"i32\" | layer id=0 'in' (Parameter): attribute element_type=\"i32\" does not match its output port's precision FP32",
  })
  void rejectsAMissingOrMalformedRequiredAttribute(String what, String from, String to, String message) {
    IrException e = reject(
        net(LAYERS_OK.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to)),
            EDGES_OK));
    assertTrue(e.getMessage().matches("test\\.xml:\\d+: .*"), e.getMessage());
    assertTrue(e.getMessage().endsWith(message), what + ": " + e.getMessage());
  }

  /** Parameter → Convert → Convolution(+weights) → MaxPool → MatMul-free tail → Result. */
  private static String convNet(String convertData, String convData, String poolData) {
    String layers = """
        <layer id="0" name="in" type="Parameter" version="opset1">
          <data shape="1,3,8,8" element_type="f16"/>
          <output><port id="0" precision="FP16"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port></output>
        </layer>
        <layer id="1" name="cvt" type="Convert" version="opset1">
          <data %s/>
          <input><port id="0" precision="FP16"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port></input>
          <output><port id="1" precision="FP32"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port></output>
        </layer>
        <layer id="2" name="w" type="Const" version="opset1">
          <data element_type="f32" shape="4,3,3,3" offset="0" size="432"/>
          <output><port id="0" precision="FP32"><dim>4</dim><dim>3</dim><dim>3</dim><dim>3</dim></port></output>
        </layer>
        <layer id="3" name="conv" type="Convolution" version="opset1">
          <data %s/>
          <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port>
            <port id="1" precision="FP32"><dim>4</dim><dim>3</dim><dim>3</dim><dim>3</dim></port></input>
          <output><port id="2" precision="FP32"><dim>1</dim><dim>4</dim><dim>8</dim><dim>8</dim></port></output>
        </layer>
        <layer id="4" name="pool" type="MaxPool" version="opset1">
          <data %s/>
          <input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim><dim>8</dim><dim>8</dim></port></input>
          <output><port id="1" precision="FP32"><dim>1</dim><dim>4</dim><dim>4</dim><dim>4</dim></port></output>
        </layer>
        <layer id="5" name="out" type="Result" version="opset1">
          <input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim><dim>4</dim><dim>4</dim></port></input>
        </layer>
        """.formatted(convertData, convData, poolData);
    String edges = """
        <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
        <edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>
        <edge from-layer="2" from-port="0" to-layer="3" to-port="1"/>
        <edge from-layer="3" from-port="2" to-layer="4" to-port="0"/>
        <edge from-layer="4" from-port="1" to-layer="5" to-port="0"/>
        """;
    return net(layers, edges);
  }

  private static final String CVT = "destination_type=\"f32\"";
  private static final String CONV = "strides=\"1, 1\" dilations=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" auto_pad=\"explicit\"";
  private static final String POOL = "strides=\"2, 2\" kernel=\"2, 2\" pads_begin=\"0, 0\" pads_end=\"0, 0\" rounding_type=\"floor\"";

  @Test
  void acceptsTheConvolutionBaseCase() {
    assertEquals(6, IrRoundTripTest.read(convNet(CVT, CONV, POOL)).nodeCount());
    // Paddings are ignored, so not needed, when auto_pad is valid or same_*.
    assertEquals(6, IrRoundTripTest
        .read(convNet(CVT, "strides=\"1,1\" dilations=\"1,1\" auto_pad=\"same_upper\"", POOL)).nodeCount());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Convert destination_type | cvt  | ''                    | layer id=1 'cvt' (Convert): attribute 'destination_type' is missing",
      "Convert bad type         | cvt  | destination_type=\"q9\" | layer id=1: unknown element type 'q9' in destination_type",
      "Convert type vs port     | cvt  | destination_type=\"f16\" | layer id=1 'cvt' (Convert): attribute destination_type=\"f16\" does not match its output port's precision FP32",
      "Convolution pads_end     | conv | strides=\"1, 1\" dilations=\"1, 1\" pads_begin=\"1, 1\" auto_pad=\"explicit\" | layer id=3 'conv' (Convolution): attribute 'pads_end' is missing",
      "Convolution strides      | conv | dilations=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute 'strides' is missing",
      "Convolution dilations    | conv | strides=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute 'dilations' is missing",
      "Convolution bad strides  | conv | strides=\"1, x\" dilations=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute strides=\"1, x\" is not a list of integers",
      "Convolution zero stride  | conv | strides=\"0, 1\" dilations=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute strides=\"0, 1\" has a value below 1",
      "Convolution axes         | conv | strides=\"1, 1, 1\" dilations=\"1, 1\" pads_begin=\"1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute strides=\"1, 1, 1\" has 3 values for 2 spatial axes",
      "Convolution negative pad | conv | strides=\"1, 1\" dilations=\"1, 1\" pads_begin=\"-1, 1\" pads_end=\"1, 1\" | layer id=3 'conv' (Convolution): attribute pads_begin=\"-1, 1\" has a negative value",
      "MaxPool kernel           | pool | strides=\"2, 2\" pads_begin=\"0, 0\" pads_end=\"0, 0\" | layer id=4 'pool' (MaxPool): attribute 'kernel' is missing",
  })
  void rejectsAMissingOrMalformedConvolutionAttribute(String what, String layer, String data, String message) {
    String xml = switch (layer) {
      case "cvt" -> convNet(data, CONV, POOL);
      case "conv" -> convNet(CVT, data, POOL);
      default -> convNet(CVT, CONV, data);
    };
    IrException e = reject(xml);
    assertTrue(e.getMessage().endsWith(message), what + ": " + e.getMessage());
  }

  @Test
  void booleansTakeOpenVinosSpellingsOnly() {
    String matmul = """
        <layer id="0" name="a" type="Parameter" version="opset1">
          <data shape="2,3" element_type="f32"/>
          <output><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></output>
        </layer>
        <layer id="1" name="mm" type="MatMul" version="opset1">
          <data transpose_a="%s" transpose_b="false"/>
          <input><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port><port id="1" precision="FP32"><dim>2</dim><dim>3</dim></port></input>
          <output><port id="2" precision="FP32"><dim>3</dim><dim>3</dim></port></output>
        </layer>
        <layer id="2" name="out" type="Result" version="opset1">
          <input><port id="0" precision="FP32"><dim>3</dim><dim>3</dim></port></input>
        </layer>
        """;
    String edges = """
        <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
        <edge from-layer="0" from-port="0" to-layer="1" to-port="1"/>
        <edge from-layer="1" from-port="2" to-layer="2" to-port="0"/>
        """;
    for (String ok : new String[] {"true", "False", "1", "0"}) {
      assertEquals(3, IrRoundTripTest.read(net(matmul.formatted(ok), edges)).nodeCount(), ok);
    }
    IrException e = reject(net(matmul.formatted("yes"), edges));
    assertTrue(e.getMessage().endsWith("layer id=1 'mm' (MatMul): attribute transpose_a=\"yes\" is not true or false"),
        e.getMessage());
  }

  // --- encodings --------------------------------------------------------------------------------

  private static final byte[] LATIN1_NAME = net(LAYERS_OK.replace("name=\"add\"", "name=\"caf\u00e9\""), EDGES_OK)
      .getBytes(StandardCharsets.ISO_8859_1);

  @Test
  void nonUtf8InputIsOneLineOfOursAndNothingFromTheParser() {
    String stderr = SystemErr.capture(() -> {
      IrException e = assertThrows(IrException.class,
          () -> new IrReader().read(new ByteArrayInputStream(LATIN1_NAME), "test.xml"));
      assertTrue(e.getMessage().matches("test\\.xml:\\d+: invalid UTF-8 byte 0xE9; an OpenVINO IR is UTF-8 text"),
          e.getMessage());
      int line = Integer.parseInt(e.getMessage().split(":", -1)[1]);
      String text = new String(LATIN1_NAME, StandardCharsets.ISO_8859_1);
      assertTrue(text.split("\n", -1)[line - 1].contains("caf\u00e9"),
          "names the line of the bad byte: " + e.getMessage());
    });
    assertEquals("", stderr, "the XML parser printed its own line");
  }

  @Test
  void aDeclaredEncodingIsHonoured() {
    byte[] latin1 = new String(LATIN1_NAME, StandardCharsets.ISO_8859_1)
        .replace("<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>")
        .getBytes(StandardCharsets.ISO_8859_1);
    OpGraph g = new IrReader().read(new ByteArrayInputStream(latin1), "test.xml");
    assertEquals("caf\u00e9", g.node(2).name());
    byte[] bom = ("\uFEFF" + net(LAYERS_OK, EDGES_OK)).getBytes(StandardCharsets.UTF_8);
    assertEquals(4, new IrReader().read(new ByteArrayInputStream(bom), "test.xml").nodeCount());
  }

  @Test
  void randomBytesAreOneLine(@TempDir Path dir) throws IOException {
    byte[] noise = new byte[4096];
    new java.util.SplittableRandom(16).nextBytes(noise);
    Path f = dir.resolve("noise.xml");
    Files.write(f, noise);
    String stderr = SystemErr.capture(() -> {
      IrException e = assertThrows(IrException.class, () -> new IrReader().read(f));
      assertEquals(f + ": is a binary file, not an OpenVINO IR model (.xml)", e.getMessage());
    });
    assertEquals("", stderr);
  }

  // --- shared weights ----------------------------------------------------------------------------

  @Test
  void usedBytesCountASharedRegionOnce() {
    String shared = LAYERS_OK.replace("<layer id=\"2\" name=\"add\"", """
        <layer id="5" name="w2" type="Const" version="opset1">
          <data element_type="f32" shape="1,4" offset="0" size="16"/>
          <output><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></output>
        </layer>
        <layer id="6" name="w3" type="Const" version="opset1">
          <data element_type="f32" shape="1,2" offset="8" size="8"/>
          <output><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></output>
        </layer>
        <layer id="7" name="w4" type="Const" version="opset1">
          <data element_type="f32" shape="1,1" offset="20" size="4"/>
          <output><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port></output>
        </layer>
        <layer id="2" name="add\"""");
    OpGraph g = IrRoundTripTest.read(net(shared, EDGES_OK));
    // Regions [0,16) twice, [8,16) inside them, [20,24): 20 bytes, not 16+16+8+4.
    assertEquals(20, Weights.usedBytes(g));
    assertEquals(24, Weights.requiredBytes(g));
  }
}
