package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** What OpenVINO's reader merges (runs on the 2026.4.1 wheel: {@code docs/hetero-rules.md}). */
class ReadMergesTest {
  private static final long[] X = {1, 3, 8, 8};

  /** Two identical ShapeOf(img) → StridedSlice chains, each read by a PriorBoxClustered, and two identical ReLUs. */
  private static OpGraph twinChains(int irVersion) {
    TinyGraphs.Builder b = TinyGraphs.builder("twins").irVersion(irVersion);
    int img = b.parameter("img", X);
    int[] pb = new int[2];
    for (int k = 0; k < 2; k++) {
      int s = b.op("s" + k, "ShapeOf", Map.of("output_type", "i64"), ElementType.I64, new long[] {4}, img);
      int ss = b.op("ss" + k, "StridedSlice", Map.of("end_mask", "1"), ElementType.I64, new long[] {2}, s,
          b.constant("begin" + k, ElementType.I64, 1), b.constant("end" + k, ElementType.I64, 1),
          b.constant("stride" + k, ElementType.I64, 1));
      pb[k] = b.op("pb" + k, "PriorBoxClustered", Map.of("width", Integer.toString(k + 1)), ElementType.F32,
          new long[] {2, 256}, ss, ss);
      b.result("out" + k, pb[k]);
    }
    b.result("relu0", b.op("r0", "ReLU", X, img));
    b.result("relu1", b.op("r1", "ReLU", X, img));
    return b.build();
  }

  @Test
  void anIrV10FileReadsIdenticalShapeChainsAsOneAndDropsTheirOrphanedConstants() {
    OpGraph g = twinChains(10);
    ReadMerges m = ReadMerges.of(g);
    assertEquals(g.indexOf("s0"), m.survivor(g.indexOf("s1")));
    assertEquals(g.indexOf("ss0"), m.survivor(g.indexOf("ss1")));
    for (String c : new String[] {"begin1", "end1", "stride1"}) {
      assertFalse(m.kept(g.indexOf(c)), c);
      assertEquals(-1, m.survivor(g.indexOf(c)), c);
    }
    // The consumers differ in their attributes, and identical ReLUs on data are never merged.
    for (String kept : new String[] {"s0", "ss0", "begin0", "pb0", "pb1", "r0", "r1"}) {
      assertTrue(m.kept(g.indexOf(kept)), kept);
    }
    assertEquals(5, m.absentCount());
  }

  @Test
  void anIrV11FileReadsNodeForNode() {
    OpGraph g = twinChains(11);
    ReadMerges m = ReadMerges.of(g);
    assertEquals(0, m.absentCount());
    for (int v = 0; v < g.nodeCount(); v++) {
      assertTrue(m.kept(v));
      assertEquals(v, m.survivor(v));
    }
  }
}
