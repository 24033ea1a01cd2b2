package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** Which ops a device lacking some records profiles: those, their producers and consumers, or the whole model. */
class SubModelSelectionTest {
  /** A chain of {@code n} conv → relu blocks, each conv with its own weights; node indices of the convs. */
  private static OpGraph chain(int n, List<Integer> convs) {
    TinyGraphs.Builder b = TinyGraphs.builder("chain");
    int x = b.parameter("x", 1, 8, 16, 16);
    for (int i = 0; i < n; i++) {
      int w = b.constant("w" + i, ElementType.F32, 8, 8, 3, 3);
      int c = b.op("conv" + i, "Convolution", new long[] {1, 8, 16, 16}, x, w);
      convs.add(c);
      x = b.op("relu" + i, "Relu", new long[] {1, 8, 16, 16}, c);
    }
    b.result("out", x);
    return b.build();
  }

  private static Set<String> names(OpGraph g, Set<Integer> nodes) {
    Set<String> out = new TreeSet<>();
    nodes.forEach(v -> out.add(g.node(v).name()));
    return out;
  }

  @Test
  void aLackingOpComesWithItsProducerAndThreeLevelsOfConsumers() {
    List<Integer> convs = new ArrayList<>();
    OpGraph g = chain(10, convs);
    SubModelSelection part = SubModelSelection.of(g, Set.of(convs.get(4))).orElseThrow();
    assertEquals(Set.of("relu3", "conv4", "relu4", "conv5", "relu5"), names(g, part.kept()),
        "the producer, the op and consumers " + SubModelSelection.CONSUMER_DEPTH + " levels down; no constants");
    assertEquals(Set.of("conv4"), names(g, part.lacking()));
    assertEquals("relu5", g.node(part.tail()).name(), "the tail is the context op without a consumer in the part");
  }

  @Test
  void constantsParametersAndResultsAreNeverPartOfIt() {
    List<Integer> convs = new ArrayList<>();
    OpGraph g = chain(10, convs);
    Set<Integer> lacking = Set.of(g.indexOf("w4"), g.indexOf("x"), convs.get(0));
    SubModelSelection part = SubModelSelection.of(g, lacking).orElseThrow();
    assertEquals(Set.of("conv0"), names(g, part.lacking()));
    assertEquals(Set.of("conv0", "relu0", "conv1", "relu1"), names(g, part.kept()));
    for (int v : part.kept()) {
      assertTrue(SubModelSelection.isOp(g.node(v)), g.node(v).name());
    }
  }

  @Test
  void mostOfTheModelIsProfiledWhole() {
    List<Integer> convs = new ArrayList<>();
    OpGraph g = chain(10, convs);
    // 5 lacking convs of 20 ops pull in their relus and the next convs: more than 60 % of the ops.
    Set<Integer> lacking = Set.of(convs.get(0), convs.get(2), convs.get(4), convs.get(6), convs.get(8));
    assertTrue(SubModelSelection.of(g, lacking).isEmpty());
    assertTrue(SubModelSelection.of(g, Set.of(convs.get(0), convs.get(8))).isPresent(), "two are a part");
  }

  @Test
  void aPartWithoutAContextOpToPutElsewhereIsProfiledWhole() {
    List<Integer> convs = new ArrayList<>();
    OpGraph g = chain(10, convs);
    // The last relu has no consumer but the Result: the part's only sink is itself lacking.
    assertTrue(SubModelSelection.of(g, Set.of(g.indexOf("relu9"))).isEmpty());
    assertTrue(SubModelSelection.of(g, Set.of(g.indexOf("w3"))).isEmpty(), "no op lacks: nothing to profile");
  }
}
