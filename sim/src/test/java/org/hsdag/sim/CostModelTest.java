package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.OpClass;
import org.hsdag.cost.OpCost;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpAttributes;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.testkit.Samples;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class CostModelTest {
  private final CostModel model = new CostModel(new ShapeAssumption(1, 8));

  @Test
  void convolutionCountsMultiplyAddsOverInputChannelsAndKernel() {
    TinyGraphs.Builder b = TinyGraphs.builder("conv");
    int x = b.parameter("x", 1, 3, 8, 8);
    int w = b.constant("w", ElementType.F32, 4, 3, 3, 3);
    int conv = b.op("conv", "Convolution", new long[] {1, 4, 6, 6}, x, w);
    int gw = b.constant("gw", ElementType.F32, 2, 2, 2, 3, 3);
    int gconv = b.op("gconv", "GroupConvolution", new long[] {1, 4, 4, 4}, conv, gw);
    int pw = b.constant("pw", ElementType.F32, 8, 4, 1, 1);
    int pconv = b.op("pconv", "Convolution", new long[] {1, 8, 4, 4}, gconv, pw);
    OpGraph g = b.build();
    OpCost c = model.cost(g.node(conv));
    assertEquals(OpClass.CONVOLUTION, c.opClass());
    assertEquals(2.0 * 144 * 3 * 9, c.flops());
    assertEquals(4 * (192 + 108 + 144), c.bytes());
    assertEquals(2.0 * 64 * 2 * 9, model.cost(g.node(gconv)).flops());
    OpCost p = model.cost(g.node(pconv));
    assertEquals(OpClass.POINTWISE_CONVOLUTION, p.opClass());
    assertEquals(2.0 * 128 * 4, p.flops());
  }

  @Test
  void matMulWithDynamicDimsUsesTheShapeAssumption() {
    TinyGraphs.Builder b = TinyGraphs.builder("mm");
    int x = b.parameter("x", -1, -1, 768);
    int w = b.constant("w", ElementType.F32, 768, 768);
    int mm = b.op("mm", "MatMul", Map.of("transpose_a", "false", "transpose_b", "true"), ElementType.F32,
        new long[] {-1, -1, 768}, x, w);
    OpCost c = model.cost(b.build().node(mm));
    assertEquals(2.0 * 8 * 768 * 768, c.flops());
    assertEquals(4.0 * (8 * 768 + 768 * 768 + 8 * 768), c.bytes());
    assertEquals(true, c.dynamic());
  }

  @Test
  void poolingViewsAndUnknownOps() {
    TinyGraphs.Builder b = TinyGraphs.builder("misc");
    int x = b.parameter("x", 1, 4, 8, 8);
    int pool = b.op("pool", "MaxPool", Map.of("kernel", "2,2"), ElementType.F32, new long[] {1, 4, 4, 4}, x);
    int view = b.op("view", "Reshape", new long[] {1, 64}, pool);
    int odd = b.op("odd", "SomethingNew", new long[] {1, 64}, view);
    OpGraph g = b.build();
    assertEquals(64.0 * 4, model.cost(g.node(pool)).flops());
    assertEquals(0.0, model.cost(g.node(view)).bytes());
    OpCost unknown = model.cost(g.node(odd));
    assertEquals(OpClass.OTHER, unknown.opClass());
    assertEquals(64.0, unknown.flops());
    assertEquals(2 * 256.0, unknown.bytes());
    model.cost(g.node(odd));
    assertEquals(Set.of("SomethingNew"), model.unknownTypesSeen(), "warned once per type");
  }

  @Test
  void everyOpTypeOfTheSamplesHasAFormula() {
    Set<String> unknown = new TreeSet<>();
    IrReader reader = new IrReader();
    for (String f : new String[] {"resnet-50.xml", "inception-v3.xml", "roberta-base-cola.xml",
        "distilbert-base-uncased-sst2.xml", "mobilenet-v2.xml", "alexnet.xml", "ssd-inception-v2.xml", "yolo11n.xml",
        "yolo11n-int8.xml"}) {
      OpGraph g = reader.read(Samples.irSample(f));
      for (OpNode n : g.nodes()) {
        if (!CostModel.knows(n.type())) {
          unknown.add(n.type());
        }
      }
    }
    assertEquals(Set.of(), unknown);
  }

  @Test
  void hardSigmoidIsAnActivationNotACopy() {
    // PaddlePaddle exports (PP-OCR, PP-PicoDet) use HardSigmoid with scalar alpha and beta inputs.
    TinyGraphs.Builder b = TinyGraphs.builder("hs");
    int x = b.parameter("x", 1, 8, 4, 4);
    int alpha = b.constant("alpha", ElementType.F32);
    int beta = b.constant("beta", ElementType.F32);
    int hs = b.op("hs", "HardSigmoid", new long[] {1, 8, 4, 4}, x, alpha, beta);
    OpCost c = model.cost(b.build().node(hs));
    assertEquals(true, CostModel.knows("HardSigmoid"));
    assertEquals(OpClass.ACTIVATION, c.opClass());
    assertEquals(4.0 * 128, c.flops());
    assertEquals(Set.of(), model.unknownTypesSeen());
  }

  @Test
  void transposeFlagsReadAsOpenVinoReadsThem() {
    // OpenVINO's reader takes "1" (and any case of "true") as true.
    for (String yes : new String[] {"true", "TRUE", "1"}) {
      TinyGraphs.Builder b = TinyGraphs.builder("mm");
      int x = b.parameter("x", 64, 8);
      int w = b.constant("w", ElementType.F32, 64, 16);
      int mm = b.op("mm", "MatMul", Map.of("transpose_a", yes), ElementType.F32, new long[] {8, 16}, x, w);
      assertEquals(2.0 * 8 * 16 * 64, model.cost(b.build().node(mm)).flops(), yes);
    }
  }

  @Test
  void unknownOpTypesListsOnlyTheKernelsCostedAsACopy() {
    TinyGraphs.Builder b = TinyGraphs.builder("unknown");
    int x = b.parameter("x", 1, 64);
    int a = b.op("a", "SomethingNew", new long[] {1, 64}, x);
    int c = b.op("c", "SomethingNew", new long[] {1, 64}, a);
    int relu = b.op("relu", "ReLU", new long[] {1, 64}, c);
    // An unknown op on constants only is folded at compile time: it costs nothing, so is not listed.
    int k = b.constant("k", ElementType.F32, 1, 64);
    int folded = b.op("folded", "AlsoNew", new long[] {1, 64}, k);
    int add = b.op("add", "Add", new long[] {1, 64}, relu, folded);
    b.result("out", add);
    SimBackend sim = new SimBackend(TestProfiles.handy(false), SimOptions.exact());
    assertEquals(Map.of("SomethingNew", 2), sim.simGraph(b.build()).unknownOpTypes());

    TinyGraphs.Builder known = TinyGraphs.builder("known");
    known.result("out", known.op("relu", "ReLU", new long[] {1, 4}, known.parameter("x", 1, 4)));
    assertEquals(Map.of(), sim.simGraph(known.build()).unknownOpTypes());
  }

  @Test
  void everyAttributeTheCostModelReadsIsCheckedWhenTheIrIsRead() {
    // CostModel reads MatMul transpose_a and the pooling kernel; a malformed value must never reach it.
    assertEquals(true, OpAttributes.checkedAttributes("MatMul").contains("transpose_a"));
    for (String pool : new String[] {"MaxPool", "AvgPool"}) {
      assertEquals(true, OpAttributes.checkedAttributes(pool).contains("kernel"), pool);
    }
  }
}
