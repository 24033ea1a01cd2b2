package org.hsdag.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.coarsen.ColocationCoarsener;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.coarsen.TestGraphs;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

class FeatureExtractorTest {
  private static final float EPS = 1e-5f;

  /** p(1x3x8x8) -> conv(1x4x?x8) <- w ; conv -> relu -> res; relu -> add(res... ) */
  private static OpGraph small() {
    TestGraphs.Builder b = TestGraphs.builder();
    int p = b.node("Parameter", 1, 3, 8, 8);
    int w = b.node("Const", 4, 3, 3, 3);
    int conv = b.node("Convolution", 1, 4, -1, 8);
    int relu = b.node("Relu", 1, 4, -1, 8);
    int odd = b.node("MyCustomOp", 2, 3, 4, 5, 6, 7, 8);
    int res = b.node("Result");
    b.edge(p, conv).edge(w, conv).edge(conv, relu).edge(relu, odd).edge(relu, res);
    return b.build();
  }

  private static float at(FeatureMatrix m, int row, String column) {
    int c = m.columnIndex(column);
    assertTrue(c >= 0, "no column " + column);
    return m.get(row, c);
  }

  @Test
  void perNodeOneHotsAndDegrees() {
    OpGraph g = small();
    FeatureMatrix m = new FeatureExtractor(FeatureConfig.DEFAULT).extractNodes(g);
    assertEquals(g.nodeCount(), m.rows());
    assertEquals(1f, at(m, 2, "op:Convolution"));
    assertEquals(1f, at(m, 3, "op:ReLU"), "lookup ignores case");
    assertEquals(1f, at(m, 4, "op:other"));
    assertEquals(1f, at(m, 2, "in:2"));
    assertEquals(1f, at(m, 3, "out:2"));
    assertEquals(1f, at(m, 5, "out:0"));
    for (int row = 0; row < m.rows(); row++) {
      float ops = 0;
      for (String t : OpTypeVocabulary.TYPES) {
        ops += at(m, row, "op:" + t);
      }
      assertEquals(1f, ops, EPS, "exactly one op type per node");
      assertEquals(0f, at(m, row, "cluster:log_size"), EPS);
    }
  }

  @Test
  void outputShapeIsPaddedLogScaledWithDynamicMarked() {
    FeatureMatrix m = new FeatureExtractor(FeatureConfig.DEFAULT).extractNodes(small());
    assertEquals((float) Math.log1p(1), at(m, 2, "shape:0"), EPS);
    assertEquals((float) Math.log1p(4), at(m, 2, "shape:1"), EPS);
    assertEquals(-1f, at(m, 2, "shape:2"), "dynamic dim");
    assertEquals((float) Math.log1p(8), at(m, 2, "shape:3"), EPS);
    assertEquals(0f, at(m, 2, "shape:4"), "padding");
    assertEquals(4f / FeatureExtractor.SHAPE_RANK, at(m, 2, "shape:rank"), EPS);
    assertEquals((float) Math.log1p(32), at(m, 2, "shape:log_elems"), EPS);
    // Rank 7 folds the two leading dims into slot 0: 2*3 = 6.
    assertEquals((float) Math.log1p(6), at(m, 4, "shape:0"), EPS);
    assertEquals((float) Math.log1p(8), at(m, 4, "shape:5"), EPS);
    // A Result has no output: its input shape is used (the test builder gives inputs shape [1]).
    assertEquals((float) Math.log1p(1), at(m, 5, "shape:0"), EPS);
  }

  @Test
  void positionalEncodingFollowsEquationFive() {
    OpGraph g = small();
    FeatureConfig cfg = new FeatureConfig(false, false, false, true, false, 6);
    FeatureMatrix m = new FeatureExtractor(cfg).extractNodes(g);
    assertEquals(List.of("pos:0", "pos:1", "pos:2", "pos:3", "pos:4", "pos:5", "cluster:log_size"), m.columns());
    for (int v = 0; v < g.nodeCount(); v++) {
      int pos = g.topologicalRank(v) + 1;
      for (int i = 0; i < 3; i++) {
        double angle = pos / Math.pow(10000, 2.0 * i / 6);
        assertEquals((float) Math.sin(angle), m.get(v, 2 * i), EPS);
        assertEquals((float) Math.cos(angle), m.get(v, 2 * i + 1), EPS);
      }
    }
  }

  @Test
  void fractalColumnMatchesFractalDimension() {
    OpGraph g = small();
    FeatureMatrix m = new FeatureExtractor(FeatureConfig.DEFAULT).extractNodes(g);
    double[] d = FractalDimension.withDefaults().compute(IntGraph.of(g));
    for (int v = 0; v < g.nodeCount(); v++) {
      assertEquals((float) d[v], at(m, v, "fractal_dim"), EPS);
    }
  }

  @Test
  void ablationsRemoveTheirColumns() {
    List<String> all = new FeatureExtractor(FeatureConfig.DEFAULT).columns();
    List<String> noShape = new FeatureExtractor(FeatureConfig.DEFAULT.withoutOutputShape()).columns();
    List<String> noId = new FeatureExtractor(FeatureConfig.DEFAULT.withoutNodeId()).columns();
    List<String> noStruct = new FeatureExtractor(FeatureConfig.DEFAULT.withoutStructural()).columns();
    assertEquals(OpTypeVocabulary.size() + 8 + 18 + 1 + 16 + 1, all.size());
    assertEquals(all.size() - 8, noShape.size());
    assertFalse(noShape.stream().anyMatch(c -> c.startsWith("shape:")));
    assertEquals(all.size() - 16, noId.size());
    assertFalse(noId.stream().anyMatch(c -> c.startsWith("pos:")));
    assertEquals(all.size() - 19, noStruct.size());
    assertFalse(noStruct.contains("fractal_dim") || noStruct.contains("in:0") || noStruct.contains("out:8+"));
    assertEquals(all, new FeatureExtractor(FeatureConfig.DEFAULT).extractNodes(small()).columns());
  }

  @Test
  void clusterRowsAreMemberMeansPlusLogSize() {
    OpGraph g = TestGraphs.randomDag(120, 11);
    FeatureExtractor fx = new FeatureExtractor(FeatureConfig.DEFAULT);
    FeatureMatrix nodes = fx.extractNodes(g);
    Coarsening c = new ColocationCoarsener(CoarseningMode.HSDAG).coarsen(g);
    FeatureMatrix clusters = fx.extract(g, c);
    assertEquals(c.clusterCount(), clusters.rows());
    int[][] members = c.allMembers();
    int last = clusters.columnCount() - 1;
    for (int k = 0; k < c.clusterCount(); k++) {
      for (int col = 0; col < last; col++) {
        double mean = 0;
        for (int v : members[k]) {
          mean += nodes.get(v, col);
        }
        mean /= members[k].length;
        assertEquals(mean, clusters.get(k, col), 1e-4, "cluster " + k + " column " + clusters.columns().get(col));
      }
      assertEquals(Math.log(members[k].length), clusters.get(k, last), 1e-5);
    }
  }

  @Test
  void rejectsCoarseningOfAnotherGraph() {
    OpGraph g = small();
    Coarsening other = new ColocationCoarsener(CoarseningMode.NONE).coarsen(TestGraphs.randomDag(30, 1));
    assertThrows(IllegalArgumentException.class, () -> new FeatureExtractor(FeatureConfig.DEFAULT).extract(g, other));
  }

  @Test
  void everySampleOpTypeHasItsOwnSlot() {
    // SOURCES.md lists the types; the readers agree with it, so check them all straight from the IR.
    for (String file : List.of("resnet-50.xml", "inception-v3.xml", "distilbert-base-uncased-sst2.xml",
        "roberta-base-cola.xml", "mobilenet-v2.xml", "alexnet.xml", "ssd-inception-v2.xml", "yolo11n.xml",
        "yolo11n-int8.xml")) {
      Path f = Samples.irSample(file);
      OpGraph g = new IrReader().read(f);
      for (int v = 0; v < g.nodeCount(); v++) {
        String type = g.node(v).type();
        assertTrue(OpTypeVocabulary.isKnown(type), file + " uses " + type + ", which has no slot");
      }
      FeatureMatrix m = new FeatureExtractor(FeatureConfig.DEFAULT)
          .extract(g, new ColocationCoarsener(CoarseningMode.HSDAG).coarsen(g));
      for (float x : m.values()) {
        assertTrue(Float.isFinite(x), file + ": non-finite feature");
      }
      assertNotEquals(0, m.rows());
    }
  }
}
