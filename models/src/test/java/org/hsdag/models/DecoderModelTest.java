package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecoderModelTest {
  @Test
  void theLargeDecoderHoldsMoreFp16WeightsThanA16GibDgpu() {
    GeneratedModel m = ModelCatalog.get("decoder_9b").build();
    // 2 x 128256 x 4096 embeddings + 4096 x 4096 positions + 32 x (4 x 4096^2 + 3 x 4096 x 14336 + 4 x 4096) + 2 x 4096
    assertEquals(8_852_611_072L, GeneratedModelsTest.learnedParameters(m));
    assertEquals(DecoderModel.DECODER_9B.parameters(), GeneratedModelsTest.learnedParameters(m));
    long f16Bytes = m.graph().nodes().stream().filter(n -> n.isConstant() && "f16".equals(n.attribute("element_type")))
        .mapToLong(OpNode::constSize).sum();
    assertTrue(f16Bytes > 16L << 30, "FP16 weights " + f16Bytes + " must exceed 16 GiB");
    assertTrue(ModelCatalog.get("decoder_9b").simulationOnly());
  }

  @Test
  void eachBlockHasSevenProjectionsTwoAttentionMatMulsAndACausalSoftmax() {
    OpGraph g = ModelCatalog.get("tiny_decoder").build().graph();
    Map<String, Integer> hist = GeneratedModelsTest.histogram(g);
    int layers = DecoderModel.TINY.layers();
    assertEquals(layers * 9 + 1, hist.get("MatMul"), "q, k, v, o, gate, up, down, two attention MatMuls; LM head");
    assertEquals(layers, hist.get("SoftMax"));
    assertEquals(layers, hist.get("Gelu"));
    assertEquals(2 * layers + 1, hist.get("MVN"));
    assertEquals(1, hist.get("Parameter"));
    int logits = g.indexOf("logits/sink_port_0");
    assertArrayEquals(new long[] {1, 16, 256}, g.node(logits).inputs().get(0).dims());
    assertFalse(ModelCatalog.get("tiny_decoder").simulationOnly());
  }

  @Test
  void weightsOfTheSimulationOnlyDecoderAreNeverGenerated(@TempDir Path dir) throws IOException {
    Path xml = ModelCatalog.xmlPath(dir, "decoder_9b");
    Files.createDirectories(xml.getParent());
    Files.writeString(xml, ModelCatalog.get("decoder_9b").build().xml());
    assertFalse(ModelCatalog.ensureWeights(xml, ModelCatalog.DEFAULT_SEED));
    assertFalse(Files.exists(org.hsdag.ir.IrReader.defaultBinPath(xml)));
  }
}
