package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.IrWriter;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every catalog model is structurally sound and survives the project's IR reader and writer. */
class GeneratedModelsTest {
  static Stream<String> models() {
    return ModelCatalog.names().stream();
  }

  @ParameterizedTest
  @MethodSource("models")
  void portsEdgesConstsAndShapesAreConsistent(String name) {
    GeneratedModel m = ModelCatalog.get(name).build();
    ModelChecks.assertConsistent(m.graph(), m.binSize(), m::integerValues);
  }

  @ParameterizedTest
  @MethodSource("models")
  void binRegionsTileTheFileInOrder(String name) {
    GeneratedModel m = ModelCatalog.get(name).build();
    long end = 0;
    for (ConstBlob b : m.blobs()) {
      assertEquals(end, b.offset(), "regions must be contiguous");
      end = b.end();
    }
    assertEquals(end, m.binSize());
    Set<Long> starts = new HashSet<>();
    m.blobs().forEach(b -> starts.add(b.offset()));
    for (OpNode n : m.graph().nodes()) {
      if (n.isConstant()) {
        assertTrue(starts.contains(n.constOffset()), n.name() + " does not start a region");
      }
    }
  }

  @ParameterizedTest
  @MethodSource("models")
  void readWriteRoundTrips(String name) {
    GeneratedModel m = ModelCatalog.get(name).build();
    String xml = m.xml();
    OpGraph read = new IrReader().read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), name);
    assertEquals(xml, new IrWriter().toXml(read));
    assertEquals(m.graph().nodes(), read.nodes());
    assertEquals(m.graph().edges(), read.edges());
    assertEquals(m.graph().modelInfoXml(), read.modelInfoXml());
    assertEquals(11, read.irVersion());
  }

  @ParameterizedTest
  @MethodSource("models")
  void buildingTwiceGivesTheSameXml(String name) {
    assertEquals(ModelCatalog.get(name).build().xml(), ModelCatalog.get(name).build().xml());
  }

  @ParameterizedTest
  @MethodSource("models")
  void learnedWeightsAreF16WithDecompressionConverts(String name) {
    OpGraph g = ModelCatalog.get(name).build().graph();
    for (OpNode n : g.nodes()) {
      if (n.isConstant() && "f16".equals(n.attribute("element_type"))) {
        assertEquals(1, g.outDegree(n.index()), n.name());
        OpNode convert = g.node(g.successor(n.index(), 0));
        assertEquals("Convert", convert.type());
        assertTrue(convert.isDecompression(), convert.name() + " lacks decompression rt_info");
        assertEquals("f32", convert.attribute("destination_type"));
      }
    }
  }

  @Test
  void resnet50HasTheRealIrCountsAndParameters() {
    GeneratedModel m = ResNet50.build();
    OpGraph g = m.graph();
    assertEquals(396, g.nodeCount());
    assertEquals(411, g.edgeCount());
    Map<String, Integer> hist = histogram(g);
    assertEquals(53, hist.get("Convolution"));
    assertEquals(49, hist.get("ReLU"));
    // torchvision resnet50 has 25,557,032 parameters; folding BatchNorm keeps one of its two
    // per-channel vectors (26,560 channels after the 53 convolutions), so 26,560 fewer remain.
    assertEquals(25_557_032L - 26_560L, learnedParameters(m));
    assertArrayEquals(new long[] {1, 1000}, inputDims(g, "output/sink_port_0"));
  }

  @Test
  void inceptionV3HasTheTorchvisionLayers() {
    OpGraph g = InceptionV3.build().graph();
    Map<String, Integer> hist = histogram(g);
    assertEquals(94, hist.get("Convolution"), "torchvision inception_v3 has 94 BasicConv2d");
    assertEquals(94, hist.get("ReLU"));
    assertEquals(4, hist.get("MaxPool"));
    assertEquals(9, hist.get("AvgPool"));
    assertEquals(3 + 1 + 4 + 1 + 2 * 3 + 1, hist.get("Concat"), "15 block concats plus the input re-normalisation");
    assertArrayEquals(new long[] {1, 288, 35, 35}, outputDims(g, "/Mixed_5d/Concat"));
    assertArrayEquals(new long[] {1, 768, 17, 17}, outputDims(g, "/Mixed_6e/Concat"));
    assertArrayEquals(new long[] {1, 2048, 8, 8}, outputDims(g, "/Mixed_7c/Concat_2"));
    assertArrayEquals(new long[] {1, 1000}, outputDims(g, "output"));
  }

  @Test
  void bertBaseHasTheHuggingFaceParameterCountAndLayers() {
    GeneratedModel m = BertBase.build();
    OpGraph g = m.graph();
    // bert-base-uncased BertModel (embeddings, 12 layers, pooler) has 109,482,240 parameters.
    assertEquals(109_482_240L, learnedParameters(m));
    Map<String, Integer> hist = histogram(g);
    // per layer: query, key, value, scores, context, attention output, two feed-forward; plus the pooler
    assertEquals(12 * 8 + 1, hist.get("MatMul"));
    assertEquals(12, hist.get("SoftMax"));
    assertEquals(12, hist.get("Gelu"));
    assertEquals(1 + 12 * 2, hist.get("MVN"));
    assertEquals(3, hist.get("Parameter"));
    assertArrayEquals(new long[] {1, 128, 768}, inputDims(g, "last_hidden_state/sink_port_0"));
    assertArrayEquals(new long[] {1, 768}, inputDims(g, "pooler_output/sink_port_0"));
    for (OpNode n : g.nodes()) {
      if (n.isParameter()) {
        assertEquals(ElementType.I64, n.outputs().get(0).elementType());
      }
    }
  }

  @Test
  void builderRejectsMiswiredOps() {
    IrBuilder b = new IrBuilder("bad");
    Tensor x = b.parameter("x", ElementType.F32, 1, 3, 8, 8);
    Tensor w = b.weight("w", new long[] {4, 5, 3, 3}, Init.he(45));
    Exception e = assertThrows(org.hsdag.ir.IrException.class,
        () -> b.conv("conv", x, w, new long[] {1, 1}, new long[] {1, 1}, new long[] {1, 1}));
    assertTrue(e.getMessage().contains("'conv'") && e.getMessage().contains("channels"), e.getMessage());
  }

  @Test
  void catalogRejectsUnknownNamesListingTheKnownOnes() {
    Exception e = assertThrows(IllegalArgumentException.class, () -> ModelCatalog.get("resnet51"));
    assertTrue(e.getMessage().contains("resnet50") && e.getMessage().contains("bert_base"), e.getMessage());
    assertNotNull(ModelCatalog.get("tiny_chain"));
  }

  static Map<String, Integer> histogram(OpGraph g) {
    Map<String, Integer> h = new TreeMap<>();
    for (OpNode n : g.nodes()) {
      h.merge(n.type(), 1, Integer::sum);
    }
    return h;
  }

  /** Number of pseudo-random weights: the model's learned parameters. */
  static long learnedParameters(GeneratedModel m) {
    return m.blobs().stream().map(ConstBlob::data).filter(d -> d instanceof ConstData.RandomHalf)
        .mapToLong(d -> ((ConstData.RandomHalf) d).count()).sum();
  }

  private static long[] outputDims(OpGraph g, String node) {
    int i = g.indexOf(node);
    assertTrue(i >= 0, "no node " + node);
    return g.node(i).outputs().get(0).dims();
  }

  private static long[] inputDims(OpGraph g, String node) {
    int i = g.indexOf(node);
    assertTrue(i >= 0, "no node " + node);
    List<Port> in = g.node(i).inputs();
    return in.get(0).dims();
  }

  @Test
  void edgesOfBuiltGraphsAreUnique() {
    for (ModelSpec m : ModelCatalog.all()) {
      Set<Edge> seen = new HashSet<>();
      for (Edge e : m.build().graph().edges()) {
        assertTrue(seen.add(e), m.name() + " has a duplicate edge " + e);
      }
    }
  }
}
