package org.hsdag.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.openvino.SelfTestModel;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

class HeteroAffinityTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void constantsAndDecompressionChainFollowTheirConsumer() {
    OpGraph g = SelfTestModel.graph();
    // Deliberately put every constant on the other side from its consumer.
    Placement p = SelfTestModel.mixedPlacement(g, "CPU", "GPU.1");
    int[] d = p.deviceOf();
    for (int v = 0; v < g.nodeCount(); v++) {
      if (g.node(v).isConstant()) {
        d[v] = 1 - d[g.successor(v, 0)];
      }
    }
    Map<String, String> m = new HeteroAffinity(g).nameMap(new Placement(DEVICES, d));

    assertEquals(m.get("conv1"), m.get("conv1/weights"));
    assertEquals(m.get("conv1"), m.get("conv1/weights/decompress"));
    assertEquals(m.get("conv1"), m.get("conv1/bias"));
    assertEquals(m.get("conv2"), m.get("conv2/weights"));
    assertEquals(m.get("pool"), m.get("pool/axes"));
    assertEquals(m.get("fc"), m.get("fc/weights"));
    assertEquals("CPU", m.get("conv1"));
    assertEquals("GPU.1", m.get("conv2"));
  }

  @Test
  void parametersFollowConsumersAndResultsFollowProducers() {
    OpGraph g = SelfTestModel.graph();
    int[] d = SelfTestModel.mixedPlacement(g, "CPU", "GPU.1").deviceOf();
    d[g.indexOf("input")] = 1;
    d[g.indexOf("prob/sink_port_0")] = 0;
    Map<String, String> m = new HeteroAffinity(g).nameMap(new Placement(DEVICES, d));
    assertEquals(m.get("conv1"), m.get("input"));
    assertEquals(m.get("prob"), m.get("prob/sink_port_0"));
  }

  @Test
  void nonConstantNodesKeepThePlacementsDevice() {
    OpGraph g = SelfTestModel.graph();
    Placement p = SelfTestModel.mixedPlacement(g, "CPU", "GPU.1");
    HeteroAffinity rules = new HeteroAffinity(g);
    int[] resolved = rules.resolve(p);
    for (int v = 0; v < g.nodeCount(); v++) {
      OpNode n = g.node(v);
      if (!rules.isConstantOnly(v) && !n.isParameter() && !n.isResult()) {
        assertEquals(p.deviceOf(v), resolved[v], n.name());
      }
    }
  }

  @Test
  void constantOnlyCoversDecompressionChainsButNotComputeOrInputs() {
    OpGraph g = SelfTestModel.graph();
    HeteroAffinity rules = new HeteroAffinity(g);
    assertTrue(rules.isConstantOnly(g.indexOf("conv1/weights")));
    assertTrue(rules.isConstantOnly(g.indexOf("conv1/weights/decompress")));
    assertFalse(rules.isConstantOnly(g.indexOf("conv1")));
    assertFalse(rules.isConstantOnly(g.indexOf("input")));
    assertFalse(rules.isConstantOnly(g.indexOf("prob/sink_port_0")));
  }

  @Test
  void constantSharedByConsumersOnTwoDevicesTakesTheEarliestConsumer() {
    // x -> first(x + c) -> second(first + c) -> out, with c shared.
    OpGraph.Builder b = OpGraph.builder();
    Port f = new Port(0, ElementType.F32, new long[] {4}, null, null);
    Port in0 = new Port(0, ElementType.F32, new long[] {4}, null, null);
    Port in1 = new Port(1, ElementType.F32, new long[] {4}, null, null);
    Port out2 = new Port(2, ElementType.F32, new long[] {4}, null, null);
    b.addNode(new OpNode(0, "0", "x", "Parameter", "opset1", Map.of("shape", "4", "element_type", "f32"), List.of(),
        List.of(f), null, null));
    b.addNode(new OpNode(1, "1", "c", "Const", "opset1",
        Map.of("element_type", "f32", "shape", "4", "offset", "0", "size", "16"),
        List.of(), List.of(f), null, null));
    b.addNode(new OpNode(2, "2", "second", "Add", "opset1", Map.of(), List.of(in0, in1), List.of(out2), null, null));
    b.addNode(new OpNode(3, "3", "first", "Add", "opset1", Map.of(), List.of(in0, in1), List.of(out2), null, null));
    b.addNode(new OpNode(4, "4", "out", "Result", "opset1", Map.of(), List.of(in0), List.of(), null, null));
    b.addEdge(new Edge(0, 0, 3, 0)).addEdge(new Edge(1, 0, 3, 1)).addEdge(new Edge(3, 0, 2, 0))
        .addEdge(new Edge(1, 0, 2, 1)).addEdge(new Edge(2, 0, 4, 0));
    OpGraph g = b.build();
    // "first" (index 3) runs before "second" (index 2) although its index is higher.
    Placement p = new Placement(DEVICES, new int[] {0, 0, 0, 1, 0});
    Map<String, String> m = new HeteroAffinity(g).nameMap(p);
    assertEquals("GPU.1", m.get("c"));
    assertEquals("GPU.1", m.get("x"));
    assertEquals("CPU", m.get("out"));
  }

  @Test
  void everyNodeOfARealFp16ModelIsCoveredAndEveryDecompressionConvertFollowsItsConsumer() {
    OpGraph g = new IrReader().read(Samples.irSample("resnet-50.xml"));
    SplittableRandom rng = new SplittableRandom(7);
    int[] d = new int[g.nodeCount()];
    for (int v = 0; v < d.length; v++) {
      d[v] = rng.nextInt(2);
    }
    Placement p = new Placement(DEVICES, d);
    HeteroAffinity rules = new HeteroAffinity(g);
    Map<String, String> m = rules.nameMap(p);
    Map<String, Integer> distinct = new HashMap<>();
    for (OpNode n : g.nodes()) {
      distinct.merge(n.name(), 1, Integer::sum);
    }
    assertEquals(distinct.size(), m.size(), "one entry per friendly name");
    int[] resolved = rules.resolve(p);
    int decompressions = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      if (rules.isConstantOnly(v)) {
        for (int c : g.successors(v)) {
          if (!rules.isConstantOnly(c) && g.successors(v).length == 1) {
            assertEquals(resolved[c], resolved[v], g.node(v).name() + " follows " + g.node(c).name());
          }
        }
      }
      if (g.node(v).isDecompression()) {
        decompressions++;
        assertTrue(rules.isConstantOnly(v), g.node(v).name());
      }
    }
    assertTrue(decompressions > 0, "the FP16 sample has decompression Converts");
  }

  @Test
  void rejectsAPlacementOfAnotherSize() {
    OpGraph g = SelfTestModel.graph();
    Placement small = Placement.allOn(DEVICES, 3, "CPU");
    assertThrows(InvalidPlacementException.class, () -> new HeteroAffinity(g).nameMap(small));
  }

  @Test
  void checkAgainstModelNamesTheFirstNodeOpenVinoDoesNotHave() {
    OpGraph g = SelfTestModel.graph();
    Map<String, String> m = new HeteroAffinity(g).nameMap(Placement.allOn(DEVICES, g.nodeCount(), "CPU"));
    List<String> runtimeNames = g.nodes().stream().map(OpNode::name).filter(n -> !n.equals("fc")).toList();
    List<String> problems = HeteroAffinity.checkAgainstModel(m, runtimeNames);
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).contains("'fc'"), problems.get(0));
    assertTrue(HeteroAffinity.checkAgainstModel(m, g.nodes().stream().map(OpNode::name).toList()).isEmpty());
  }
}
