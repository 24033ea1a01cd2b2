package org.hsdag.coarsen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

/** Invariants of every coarsening over random DAGs and every real IR sample. */
class CoarseningPropertyTest {

  /** Checks the invariants and returns a one-line summary. */
  static void assertValid(OpGraph g, Coarsening c, String what) {
    assertEquals(g.nodeCount(), c.nodeCount(), what);
    IntGraph q = c.quotient();
    assertNotNull(Quotients.topologicalOrder(q), what + ": quotient must be acyclic");
    assertEquals(Quotients.of(IntGraph.of(g), c.clusterOf(), c.clusterCount()), q, what + ": quotient = XᵀAX");
    for (int e = 0; e < q.edgeCount(); e++) {
      assertTrue(q.src(e) != q.dst(e), what + ": self-loop");
      assertTrue(e == 0 || q.src(e - 1) < q.src(e) || q.dst(e - 1) < q.dst(e), what + ": duplicate edge");
    }
    // Followers follow: a cluster made only of constants/Parameters has no consumer cluster, unless it holds
    // a follower nobody consumes (which may have absorbed a shared constant).
    boolean[] follower = ColocationCoarsener.followers(g);
    int[][] members = c.allMembers();
    int[] outDeg = new int[c.clusterCount()];
    for (int e = 0; e < q.edgeCount(); e++) {
      outDeg[q.src(e)]++;
    }
    for (int k = 0; k < c.clusterCount(); k++) {
      boolean allFollowers = true;
      boolean hasSink = false;
      for (int v : members[k]) {
        allFollowers &= follower[v];
        hasSink |= g.outDegree(v) == 0;
      }
      assertFalse(allFollowers && outDeg[k] > 0 && !hasSink, what + ": follower cluster " + k + " did not follow");
    }
  }

  @Test
  void randomDagsGiveValidCoarsenings() {
    SplittableRandom rnd = new SplittableRandom(20261121L);
    for (int i = 0; i < 300; i++) {
      int n = 2 + rnd.nextInt(i < 200 ? 40 : 400);
      long seed = rnd.nextLong();
      OpGraph g = TestGraphs.randomDag(n, seed);
      for (CoarseningMode mode : CoarseningMode.values()) {
        Coarsening c = new ColocationCoarsener(mode).coarsen(g);
        assertValid(g, c, mode + " on randomDag(" + n + ", " + seed + ")");
        assertEquals(c, new ColocationCoarsener(mode).coarsen(g), "deterministic");
      }
    }
  }

  @Test
  void modesOrderAsExpectedOnResidualNetwork() {
    OpGraph g = TestGraphs.residualNetwork(2000);
    int none = new ColocationCoarsener(CoarseningMode.NONE).coarsen(g).clusterCount();
    int hsdag = new ColocationCoarsener(CoarseningMode.HSDAG).coarsen(g).clusterCount();
    int mirhoseini = new ColocationCoarsener(CoarseningMode.MIRHOSEINI).coarsen(g).clusterCount();
    assertTrue(mirhoseini < hsdag && hsdag < none, mirhoseini + " < " + hsdag + " < " + none);
  }

  @Test
  void everyRealSampleGivesValidCoarsenings() throws IOException {
    Path dir = Samples.irSamples();
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.xml")) {
      s.forEach(files::add);
    }
    files.sort(null);
    assertFalse(files.isEmpty(), "no .xml in " + dir);
    StringBuilder report = new StringBuilder("co-location groups per sample (nodes: mirhoseini / hsdag / none)\n");
    for (Path f : files) {
      OpGraph g = new IrReader().read(f);
      report.append(String.format("  %-36s %5d:", f.getFileName(), g.nodeCount()));
      for (CoarseningMode mode : CoarseningMode.values()) {
        Coarsening c = new ColocationCoarsener(mode).coarsen(g);
        assertValid(g, c, mode + " on " + f.getFileName());
        assertTrue(c.clusterCount() < g.nodeCount(), "constants always fold, so some merge happens");
        report.append(String.format(" %5d", c.clusterCount()));
      }
      report.append('\n');
    }
    System.out.print(report);
  }
}
