package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IrSamplesTest {
  /** Layer and edge counts from ../shared/ir-samples/SOURCES.md. */
  static Stream<Arguments> samples() {
    return Stream.of(
        Arguments.of("resnet-50.xml", 11, 396, 411),
        Arguments.of("inception-v3.xml", 10, 516, 550),
        Arguments.of("distilbert-base-uncased-sst2.xml", 11, 540, 617),
        Arguments.of("roberta-base-cola.xml", 11, 796, 859),
        Arguments.of("mobilenet-v2.xml", 10, 274, 284),
        Arguments.of("alexnet.xml", 10, 72, 74),
        Arguments.of("ssd-inception-v2.xml", 10, 600, 650),
        Arguments.of("yolo11n.xml", 11, 733, 791),
        Arguments.of("yolo11n-int8.xml", 11, 1315, 1373));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void parsesEverySampleWithItsDocumentedCounts(String file, int version, int layers, int edges) {
    OpGraph g = new IrReader().read(Samples.irSample(file));
    assertEquals(version, g.irVersion());
    assertEquals(layers, g.nodeCount());
    assertEquals(edges, g.edgeCount());
    int[] order = g.topologicalOrder();
    for (int k = 0; k < g.edgeCount(); k++) {
      Edge e = g.edge(k);
      assertTrue(g.topologicalRank(e.source()) < g.topologicalRank(e.target()),
          "edge " + e + " against topological order");
    }
    assertEquals(layers, order.length);
  }

  @Test
  void resnet50MatchesThePapersTable1() {
    OpGraph g = new IrReader().read(Samples.irSample("resnet-50.xml"));
    assertEquals(396, g.nodeCount());
    assertEquals(411, g.edgeCount());
  }

  @Test
  void readsPortsConstantsAndRtInfoOfResnet() {
    OpGraph g = new IrReader().read(Samples.irSample("resnet-50.xml"));
    OpNode input = g.nodes().stream().filter(OpNode::isParameter).findFirst().orElseThrow();
    assertEquals(ElementType.F32, input.outputs().get(0).elementType());
    assertEquals(4, input.outputs().get(0).rank());
    assertEquals(224, input.outputs().get(0).dim(3));
    long decompressions = g.nodes().stream().filter(OpNode::isDecompression).count();
    assertEquals(108, decompressions);
    long constBytes = g.nodes().stream().mapToLong(n -> n.constOffset() + n.constSize()).max().orElse(0);
    assertEquals(47085916L, constBytes);
    assertTrue(g.modelInfoXml().get(0).startsWith("<rt_info>"));
  }

  @Test
  void dynamicDimsReadAsMinusOne() {
    Path p = Samples.irSample("distilbert-base-uncased-sst2.xml");
    OpGraph g = new IrReader().read(p);
    OpNode ids = g.nodes().stream().filter(OpNode::isParameter).findFirst().orElseThrow();
    assertTrue(ids.outputs().get(0).isDynamic());
    assertEquals(-1, ids.outputs().get(0).dim(1));
    assertEquals(ElementType.I64, ids.outputs().get(0).elementType());
  }

  @Test
  void v10InputPortsWithoutPrecisionAreKept() {
    OpGraph g = new IrReader().read(Samples.irSample("inception-v3.xml"));
    assertTrue(g.nodes().stream().flatMap(n -> n.inputs().stream()).anyMatch(p -> p.elementType() == null));
    assertTrue(g.modelInfoXml().stream().anyMatch(x -> x.startsWith("<meta_data>")));
  }
}
