package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class IrRoundTripTest {
  static Stream<String> sampleFiles() throws IOException {
    Path dir = Samples.sharedDir().resolve("ir-samples");
    if (!Files.isDirectory(dir)) {
      return Stream.of("resnet-50.xml"); // irSample() then skips with the reason
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".xml")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampleFiles")
  void parseWriteParseIsTheIdentity(String file) {
    OpGraph first = new IrReader().read(Samples.irSample(file));
    String xml = new IrWriter().toXml(first);
    OpGraph second = read(xml);
    assertEquals(first, second);
    // And writing again is byte-identical: the writer is deterministic.
    assertEquals(xml, new IrWriter().toXml(second));
  }

  @Test
  void unknownAttributesAndRtInfoSurvive() {
    String xml = """
        <?xml version="1.0"?>
        <net name="m" version="11">
          <layers>
            <layer id="0" name="in" type="Parameter" version="opset1">
              <data shape="1,4" element_type="f32" custom_flag="keep me"/>
              <rt_info><attribute name="my_custom" version="0" value="x &amp; y"/></rt_info>
              <output><port id="0" precision="FP32" names="in"><rt_info><attribute name="layout" version="0" layout="[N,C]"/></rt_info><dim>1</dim><dim>4</dim></port></output>
            </layer>
            <layer id="1" name="out" type="Result" version="opset1">
              <input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></input>
            </layer>
          </layers>
          <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
          <rt_info><Runtime_version value="2026.0"/><conversion_parameters><framework value="onnx"/></conversion_parameters></rt_info>
        </net>
        """;
    OpGraph g = read(xml);
    OpGraph back = read(new IrWriter().toXml(g));
    assertEquals(g, back);
    assertEquals("keep me", back.node(0).attribute("custom_flag"));
    assertTrue(back.node(0).rtInfoXml().contains("value=\"x &amp; y\""));
    assertTrue(back.node(0).outputs().get(0).rtInfoXml().contains("[N,C]"));
    assertTrue(back.modelInfoXml().get(0).contains("<framework value=\"onnx\"/>"));
  }

  @Test
  void writesAtomicallyToAFile(@TempDir Path dir) {
    OpGraph g = new IrReader().read(Samples.irSample("alexnet.xml"));
    Path out = dir.resolve("alexnet.xml");
    new IrWriter().write(g, out);
    assertEquals(g, new IrReader().read(out));
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temp file left behind");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static OpGraph read(String xml) {
    return new IrReader().read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "test.xml");
  }
}
