package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.hsdag.ir.Half;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Weights;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The generated {@code .bin}: deterministic per seed, atomic, and holding what the XML says. */
class WeightsFileTest {
  static Stream<String> tinyModels() {
    return ModelCatalog.all().stream().filter(ModelSpec::tiny).map(ModelSpec::name);
  }

  @ParameterizedTest
  @MethodSource("tinyModels")
  void tinyBinIsByteIdenticalPerSeedAndDiffersAcrossSeeds(String name, @TempDir Path dir) throws IOException {
    GeneratedModel m = ModelCatalog.get(name).build();
    Path a = ModelCatalog.xmlPath(dir.resolve("a"), name);
    Path b = ModelCatalog.xmlPath(dir.resolve("b"), name);
    Path c = ModelCatalog.xmlPath(dir.resolve("c"), name);
    String shaA = m.writeTo(a, 7);
    String shaB = ModelCatalog.get(name).build().writeTo(b, 7);
    m.writeTo(c, 8);
    Path binA = IrReader.defaultBinPath(a);
    assertEquals(-1, Files.mismatch(binA, IrReader.defaultBinPath(b)));
    assertEquals(shaA, shaB);
    assertEquals(shaA, m.binSha256(7));
    assertTrue(Files.mismatch(binA, IrReader.defaultBinPath(c)) >= 0, "another seed must give other weights");
    assertEquals(-1, Files.mismatch(a, c), "the XML does not depend on the seed");
    assertEquals(m.binSize(), Files.size(binA));
    try (Stream<Path> files = Files.list(a.getParent())) {
      assertEquals(2, files.count(), "only the .xml and .bin remain (no temp files)");
    }
  }

  @ParameterizedTest
  @MethodSource("tinyModels")
  void tinyBinHoldsEveryConstAndTheShapesCheckOutFromTheFile(String name, @TempDir Path dir) throws IOException {
    GeneratedModel m = ModelCatalog.get(name).build();
    Path xml = ModelCatalog.xmlPath(dir, name);
    m.writeTo(xml, ModelCatalog.DEFAULT_SEED);
    OpGraph g = new IrReader().read(xml);
    Map<Integer, long[]> fromFile = new HashMap<>();
    try (Weights w = Weights.open(g, xml)) {
      for (OpNode n : g.nodes()) {
        if (n.isConstant()) {
          byte[] bytes = w.read(n);
          assertArrayEquals(m.constBytes(n.index(), ModelCatalog.DEFAULT_SEED), bytes, n.name());
          long[] ints = ModelChecks.decodeIntegers(n, bytes);
          if (ints != null) {
            assertArrayEquals(m.integerValues(n.index()), ints, n.name());
            fromFile.put(n.index(), ints);
          }
        }
      }
    }
    // Shape inference driven by the values read back from the file, not by the builder's record.
    ModelChecks.assertConsistent(g, Files.size(IrReader.defaultBinPath(xml)), fromFile::get);
  }

  @Test
  void weightsFollowTheirInitialisation() {
    GeneratedModel m = ResNet50.build();
    OpGraph g = m.graph();
    OpNode stem = g.node(g.indexOf("conv1.weight_compressed"));
    byte[] bytes = m.constBytes(stem.index(), ModelCatalog.DEFAULT_SEED);
    double bound = Math.sqrt(6.0 / (3 * 7 * 7)) * 1.001;
    double sum = 0;
    int distinct = 0;
    short prev = 0;
    for (int i = 0; i < bytes.length; i += 2) {
      short h = (short) ((bytes[i] & 0xff) | (bytes[i + 1] << 8));
      float v = Half.toFloat(h);
      assertTrue(Math.abs(v) <= bound, "weight " + v + " outside He-uniform bound " + bound);
      sum += v;
      distinct += h != prev ? 1 : 0;
      prev = h;
    }
    assertTrue(distinct > bytes.length / 4, "weights look constant");
    assertTrue(Math.abs(sum / (bytes.length / 2.0)) < 0.02, "mean far from zero: " + sum);
  }

  @Test
  void resnetBinStreamsDeterministically() {
    GeneratedModel m = ResNet50.build();
    String first = m.binSha256(ModelCatalog.DEFAULT_SEED);
    assertEquals(first, ResNet50.build().binSha256(ModelCatalog.DEFAULT_SEED));
    assertNotEquals(first, m.binSha256(ModelCatalog.DEFAULT_SEED + 1));
    // 25,530,472 f16 weights plus the two i64[2] shape constants.
    assertEquals(2L * 25_530_472L + 32, m.binSize());
  }

  @Test
  void bigModelBinSizesFollowFromTheirTensors() {
    for (String name : new String[] {"inception_v3", "bert_base"}) {
      GeneratedModel m = ModelCatalog.get(name).build();
      long f16 = 2 * GeneratedModelsTest.learnedParameters(m);
      long literals = m.blobs().stream().filter(b -> b.data() instanceof ConstData.Literal)
          .mapToLong(b -> b.data().size()).sum();
      assertEquals(f16 + literals, m.binSize(), name);
      assertTrue(literals < 4096, name + ": literal constants should be tiny, got " + literals);
    }
  }
}
