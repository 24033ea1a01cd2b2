package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

/** The generated IRs against the real converter output in {@code ../shared/ir-samples/}. */
class RealSampleComparisonTest {
  @Test
  void resnet50MatchesTheRealIrNodeForNode() {
    OpGraph real = new IrReader().read(Samples.irSample("resnet-50.xml"));
    // The sample's classifier was fine-tuned to 30 classes; with the same head, everything matches.
    OpGraph ours = ResNet50.build(30).graph();
    assertEquals(real.nodeCount(), ours.nodeCount());
    assertEquals(real.edgeCount(), ours.edgeCount());
    for (int i = 0; i < real.nodeCount(); i++) {
      OpNode r = real.node(i);
      OpNode o = ours.node(i);
      String at = "node " + i + " (" + r.name() + ")";
      assertEquals(r.type(), o.type(), at);
      assertEquals(r.version(), o.version(), at);
      assertEquals(r.attributes(), o.attributes(), at);
      assertEquals(r.rtInfoXml(), o.rtInfoXml(), at);
      if (!r.isConstant() && !r.type().equals("Convert")) {
        assertEquals(r.name(), o.name(), at);
      }
      assertEquals(r.inputs().size(), o.inputs().size(), at);
      assertEquals(r.outputs().size(), o.outputs().size(), at);
      for (int k = 0; k < r.outputs().size(); k++) {
        assertEquals(r.outputs().get(k).elementType(), o.outputs().get(k).elementType(), at);
        assertArrayEquals(r.outputs().get(k).dims(), o.outputs().get(k).dims(), at);
        assertEquals(r.outputs().get(k).id(), o.outputs().get(k).id(), at);
      }
    }
    assertEquals(new HashSet<>(real.edges()), new HashSet<>(ours.edges()));
  }

  @Test
  void everyOpVersionAndAttributeSetOccursInARealIr() {
    Path dir = Samples.irSamples();
    Map<String, Set<String>> realKeys = new HashMap<>();
    Set<String> realOps = new HashSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(f -> f.toString().endsWith(".xml")).forEach(f -> {
        OpGraph g = new IrReader().read(f, null);
        if (g.irVersion() < 11) {
          return; // v10 MO files predate the current attribute spellings
        }
        for (OpNode n : g.nodes()) {
          realOps.add(n.type() + "@" + n.version());
          realKeys.computeIfAbsent(n.type() + "@" + n.version(), k -> new TreeSet<>()).addAll(n.attributes().keySet());
        }
      });
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Set<String> unseen = new TreeSet<>();
    for (ModelSpec m : ModelCatalog.all()) {
      for (OpNode n : m.build().graph().nodes()) {
        String key = n.type() + "@" + n.version();
        if (!realOps.contains(key)) {
          unseen.add(key);
          continue;
        }
        assertTrue(realKeys.get(key).containsAll(n.attributes().keySet()),
            m.name() + ": " + n.name() + " has attributes " + n.attributes().keySet() + ", real IRs use "
                + realKeys.get(key));
      }
    }
    // AvgPool only occurs in the v10 samples; its opset1 attributes are checked by the shape tests.
    unseen.remove("AvgPool@opset1");
    assertTrue(unseen.isEmpty(), "op versions not found in any real v11 IR: " + unseen);
  }
}
