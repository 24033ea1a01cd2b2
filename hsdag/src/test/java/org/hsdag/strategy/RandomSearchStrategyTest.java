package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.hsdag.search.SearchContext;
import org.hsdag.tune.TestModels;

class RandomSearchStrategyTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.0", "GPU.1");

  @TempDir
  Path tmp;
  private OpGraph graph;

  @BeforeEach
  void model() throws IOException {
    graph = TestModels.read(TestModels.twoBranch(tmp));
  }

  private SearchContext context(SupportMatrix support, long seed) {
    return SearchContext.builder(graph, DEVICES, support).budget(100).seed(seed).backendName("fake").build();
  }

  private static List<Placement> draw(RandomSearchStrategy s, int n) {
    List<Placement> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(s.propose());
    }
    return out;
  }

  @Test
  void neverProposesADeviceAnOpCannotRunOn() {
    long[] mask = new long[graph.nodeCount()];
    for (int v = 0; v < mask.length; v++) {
      // Convolutions only on CPU or GPU.1, everything else anywhere.
      mask[v] = graph.node(v).type().equals("Convolution") ? 0b101 : 0b111;
    }
    SupportMatrix support = new SupportMatrix(DEVICES, mask);
    RandomSearchStrategy s = new RandomSearchStrategy();
    s.init(context(support, 3));
    Set<Integer> usedOnCompute = new HashSet<>();
    for (Placement p : draw(s, 200)) {
      for (int v = 0; v < graph.nodeCount(); v++) {
        assertTrue(support.allowed(v, p.deviceOf(v)), "node " + v + " on " + p.deviceName(v));
        if (!graph.node(v).isConstant() && !graph.node(v).isParameter() && !graph.node(v).isResult()) {
          usedOnCompute.add(p.deviceOf(v));
        }
      }
    }
    assertEquals(Set.of(0, 1, 2), usedOnCompute, "every allowed device is drawn");
  }

  @Test
  void constantsRunWithTheirConsumer() {
    RandomSearchStrategy s = new RandomSearchStrategy();
    s.init(context(SupportMatrix.all(DEVICES, graph.nodeCount()), 1));
    for (Placement p : draw(s, 50)) {
      for (int v = 0; v < graph.nodeCount(); v++) {
        if (graph.node(v).isConstant() && graph.outDegree(v) > 0) {
          assertEquals(p.deviceOf(graph.successor(v, 0)), p.deviceOf(v));
        }
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameSequenceAndAnotherSeedAnother() {
    SupportMatrix all = SupportMatrix.all(DEVICES, graph.nodeCount());
    RandomSearchStrategy a = new RandomSearchStrategy();
    a.init(context(all, 7));
    RandomSearchStrategy b = new RandomSearchStrategy();
    b.init(context(all, 7));
    RandomSearchStrategy c = new RandomSearchStrategy();
    c.init(context(all, 8));
    List<Placement> pa = draw(a, 20);
    assertEquals(pa, draw(b, 20));
    assertNotEquals(pa, draw(c, 20));
  }

  @Test
  void aRestoredStrategyContinuesExactly() throws IOException {
    SupportMatrix all = SupportMatrix.all(DEVICES, graph.nodeCount());
    RandomSearchStrategy original = new RandomSearchStrategy();
    original.init(context(all, 11));
    draw(original, 13);
    original.saveState(tmp);
    List<Placement> expected = draw(original, 10);

    RandomSearchStrategy restored = new RandomSearchStrategy();
    restored.init(context(all, 11));
    restored.restoreState(tmp);
    assertEquals(13, restored.proposals());
    assertEquals(expected, draw(restored, 10));
  }
}
