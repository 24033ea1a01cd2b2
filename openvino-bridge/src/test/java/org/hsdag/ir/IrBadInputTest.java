package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    return "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n" + layers + "</layers>\n<edges>\n" + edges + "</edges>\n</net>\n";
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
    IrException e = reject(net(LAYERS_OK, EDGES_OK.replace("to-layer=\"2\" to-port=\"1\"", "to-layer=\"2\" to-port=\"7\"")));
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
    IrException e = reject(net(LAYERS_OK.replace("precision=\"FP32\"><dim>1</dim><dim>4</dim></port></output>\n  </layer>\n  <layer id=\"1\"",
        "precision=\"FP33\"><dim>1</dim><dim>4</dim></port></output>\n  </layer>\n  <layer id=\"1\"").replace("element_type=\"f32\"/>", "element_type=\"q7\"/>"), EDGES_OK));
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
    IrException e = reject(net(LAYERS_OK, EDGES_OK.replace("from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"1\"",
        "from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"0\"")));
    assertTrue(e.getMessage().contains("two incoming edges"), e.getMessage());
  }

  @Test
  void missingFileIsOneLine(@TempDir Path dir) {
    IrException e = assertThrows(IrException.class, () -> new IrReader().read(dir.resolve("nope.xml")));
    assertTrue(e.getMessage().endsWith("nope.xml: model file not found"), e.getMessage());
  }
}
