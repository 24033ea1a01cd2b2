package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.ir.OpShapes;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.IrException;
import org.hsdag.ir.OpAttributes;
import org.hsdag.ir.OpNode;
import org.junit.jupiter.api.Test;

/** Hand-computed shapes for every op type the builders emit (values from the opset specifications). */
class OpShapesTest {
  /** Op types with a dedicated case below; the catalog may use only these. */
  static final Set<String> COVERED = Set.of("Parameter", "Const", "Convert", "Convolution", "Add", "Multiply",
      "Subtract", "Divide", "ReLU", "Gelu", "Tanh", "SoftMax", "MVN", "MaxPool", "AvgPool", "ReduceMean", "Reshape",
      "MatMul", "Concat", "Gather", "Transpose", "Unsqueeze", "Result", "Range", "Broadcast", "Tile");

  private static OpShapes.Input f32(long... dims) {
    return new OpShapes.Input(ElementType.F32, dims, null);
  }

  private static OpShapes.Input ints(long[] dims, long... values) {
    return new OpShapes.Input(ElementType.I64, dims, values);
  }

  private static long[] shape(String type, Map<String, String> attrs, OpShapes.Input... in) {
    return OpShapes.infer(type, attrs, List.of(in)).get(0).dims();
  }

  @Test
  void sourcesReadTheirShapeAttribute() {
    assertArrayEquals(new long[] {1, 3, 224, 224},
        shape("Parameter", IrBuilder.attrs("shape", "1,3,224,224", "element_type", "f32")));
    List<OpShapes.Output> c = OpShapes.infer("Const",
        IrBuilder.attrs("element_type", "i64", "shape", "", "offset", "0", "size", "8"), List.of());
    assertEquals(ElementType.I64, c.get(0).type());
    assertEquals(0, c.get(0).dims().length);
  }

  @Test
  void convertChangesOnlyTheType() {
    List<OpShapes.Output> o = OpShapes.infer("Convert", IrBuilder.attrs("destination_type", "f32"),
        List.of(new OpShapes.Input(ElementType.F16, new long[] {64, 3, 7, 7}, null)));
    assertEquals(new OpShapes.Output(ElementType.F32, new long[] {64, 3, 7, 7}), o.get(0));
  }

  @Test
  void convolutionUsesStridePaddingAndFilterCount() {
    Map<String, String> a = IrBuilder.attrs("strides", "2, 2", "dilations", "1, 1", "pads_begin", "3, 3",
        "pads_end", "3, 3", "auto_pad", "explicit");
    // ResNet stem: (224 + 6 - 7) / 2 + 1 = 112
    assertArrayEquals(new long[] {1, 64, 112, 112}, shape("Convolution", a, f32(1, 3, 224, 224), f32(64, 3, 7, 7)));
    Map<String, String> asym = IrBuilder.attrs("strides", "1, 1", "dilations", "1, 1", "pads_begin", "0, 3",
        "pads_end", "0, 3", "auto_pad", "explicit");
    // Inception 1x7: height unchanged by a 1-tall kernel, width kept by padding 3 on both sides.
    assertArrayEquals(new long[] {1, 160, 17, 17},
        shape("Convolution", asym, f32(1, 128, 17, 17), f32(160, 128, 1, 7)));
    assertThrows(IrException.class, () -> shape("Convolution", a, f32(1, 4, 224, 224), f32(64, 3, 7, 7)));
  }

  @Test
  void eltwiseOpsBroadcastNumpyStyle() {
    Map<String, String> nb = IrBuilder.attrs("auto_broadcast", "numpy");
    for (String t : List.of("Add", "Multiply", "Subtract", "Divide")) {
      assertArrayEquals(new long[] {1, 12, 128, 128}, shape(t, nb, f32(1, 12, 128, 128), f32(1, 1, 1, 128)), t);
      assertArrayEquals(new long[] {1, 3, 5}, shape(t, nb, f32(3, 1), f32(1, 1, 5)), t);
    }
    assertThrows(IrException.class, () -> shape("Add", nb, f32(1, 3), f32(1, 4)));
    assertThrows(IrException.class, () -> OpShapes.infer("Add", nb,
        List.of(f32(2), new OpShapes.Input(ElementType.I64, new long[] {2}, null))));
  }

  @Test
  void unaryOpsKeepTheShape() {
    for (String t : List.of("ReLU", "Gelu", "Tanh")) {
      assertArrayEquals(new long[] {1, 128, 3072}, shape(t, Map.of(), f32(1, 128, 3072)), t);
    }
    assertArrayEquals(new long[] {1, 12, 128, 128},
        shape("SoftMax", IrBuilder.attrs("axis", "-1"), f32(1, 12, 128, 128)));
    assertThrows(IrException.class, () -> shape("SoftMax", IrBuilder.attrs("axis", "4"), f32(1, 12, 128, 128)));
    Map<String, String> mvn = IrBuilder.attrs("eps", "1e-12", "normalize_variance", "true", "eps_mode", "INSIDE_SQRT");
    assertArrayEquals(new long[] {1, 128, 768}, shape("MVN", mvn, f32(1, 128, 768), ints(new long[] {1}, -1)));
  }

  @Test
  void poolingFloorsAndMaxPoolAddsIndices() {
    Map<String, String> mp = IrBuilder.attrs("strides", "2, 2", "dilations", "1, 1", "pads_begin", "1, 1",
        "pads_end", "1, 1", "kernel", "3, 3", "rounding_type", "floor", "auto_pad", "explicit",
        "index_element_type", "i64", "axis", "0");
    List<OpShapes.Output> o = OpShapes.infer("MaxPool", mp, List.of(f32(1, 64, 112, 112)));
    assertEquals(new OpShapes.Output(ElementType.F32, new long[] {1, 64, 56, 56}), o.get(0));
    assertEquals(new OpShapes.Output(ElementType.I64, new long[] {1, 64, 56, 56}), o.get(1));
    // Inception maxpool1: floor((147 - 3) / 2) + 1 = 73
    Map<String, String> mp0 = IrBuilder.attrs("strides", "2, 2", "pads_begin", "0, 0", "pads_end", "0, 0",
        "kernel", "3, 3", "rounding_type", "floor", "auto_pad", "explicit");
    assertArrayEquals(new long[] {1, 64, 73, 73}, shape("MaxPool", mp0, f32(1, 64, 147, 147)));
    Map<String, String> ceil = IrBuilder.attrs("strides", "2, 2", "pads_begin", "0, 0", "pads_end", "0, 0",
        "kernel", "3, 3", "rounding_type", "ceil", "auto_pad", "explicit");
    assertArrayEquals(new long[] {1, 64, 74, 74}, shape("MaxPool", ceil, f32(1, 64, 148, 148)));
    Map<String, String> ap = IrBuilder.attrs("strides", "1, 1", "pads_begin", "1, 1", "pads_end", "1, 1",
        "kernel", "3, 3", "exclude-pad", "false", "auto_pad", "explicit", "rounding_type", "floor");
    assertArrayEquals(new long[] {1, 192, 35, 35}, shape("AvgPool", ap, f32(1, 192, 35, 35)));
  }

  @Test
  void reduceMeanKeepsOrDropsAxes() {
    assertArrayEquals(new long[] {1, 2048, 1, 1},
        shape("ReduceMean", IrBuilder.attrs("keep_dims", "true"), f32(1, 2048, 7, 7), ints(new long[] {2}, 2, 3)));
    assertArrayEquals(new long[] {1, 2048},
        shape("ReduceMean", IrBuilder.attrs("keep_dims", "false"), f32(1, 2048, 7, 7), ints(new long[] {2}, -2, -1)));
    assertThrows(IrException.class, () -> shape("ReduceMean", IrBuilder.attrs("keep_dims", "true"),
        f32(1, 2048, 7, 7), new OpShapes.Input(ElementType.I64, new long[] {2}, null)));
  }

  @Test
  void reshapeHandlesSpecialZeroAndMinusOne() {
    Map<String, String> sz = IrBuilder.attrs("special_zero", "true");
    assertArrayEquals(new long[] {1, 2048}, shape("Reshape", sz, f32(1, 2048, 1, 1), ints(new long[] {2}, 0, -1)));
    assertArrayEquals(new long[] {1, 128, 12, 64},
        shape("Reshape", sz, f32(1, 128, 768), ints(new long[] {4}, 1, 128, 12, 64)));
    assertThrows(IrException.class, () -> shape("Reshape", sz, f32(1, 128, 768), ints(new long[] {2}, 100, -1)));
    assertThrows(IrException.class, () -> shape("Reshape", sz, f32(1, 128, 768), ints(new long[] {2}, 1, 1)));
  }

  @Test
  void matMulTransposesAndBroadcastsBatch() {
    Map<String, String> tb = IrBuilder.attrs("transpose_a", "false", "transpose_b", "true");
    assertArrayEquals(new long[] {1, 128, 3072}, shape("MatMul", tb, f32(1, 128, 768), f32(3072, 768)));
    assertArrayEquals(new long[] {1, 12, 128, 128}, shape("MatMul", tb, f32(1, 12, 128, 64), f32(1, 12, 128, 64)));
    Map<String, String> nn = IrBuilder.attrs("transpose_a", "false", "transpose_b", "false");
    assertArrayEquals(new long[] {1, 12, 128, 64}, shape("MatMul", nn, f32(1, 12, 128, 128), f32(1, 12, 128, 64)));
    assertThrows(IrException.class, () -> shape("MatMul", nn, f32(1, 128, 768), f32(3072, 768)));
  }

  @Test
  void concatSumsTheAxis() {
    Map<String, String> ax = IrBuilder.attrs("axis", "1");
    assertArrayEquals(new long[] {1, 256, 35, 35},
        shape("Concat", ax, f32(1, 64, 35, 35), f32(1, 64, 35, 35), f32(1, 96, 35, 35), f32(1, 32, 35, 35)));
    assertThrows(IrException.class, () -> shape("Concat", ax, f32(1, 64, 35, 35), f32(1, 64, 17, 17)));
  }

  @Test
  void gatherReplacesTheAxisByTheIndexShape() {
    Map<String, String> bd = IrBuilder.attrs("batch_dims", "0");
    OpShapes.Input ids = new OpShapes.Input(ElementType.I32, new long[] {1, 128}, null);
    OpShapes.Input axis0 = new OpShapes.Input(ElementType.I32, new long[0], new long[] {0});
    assertArrayEquals(new long[] {1, 128, 768}, shape("Gather", bd, f32(30522, 768), ids, axis0));
    // select(x, 1, 0): scalar index removes the axis
    assertArrayEquals(new long[] {1, 768},
        shape("Gather", bd, f32(1, 128, 768), ints(new long[0], 0), ints(new long[0], 1)));
  }

  @Test
  void transposeAndUnsqueezeUseTheirConstants() {
    assertArrayEquals(new long[] {1, 12, 128, 64},
        shape("Transpose", Map.of(), f32(1, 128, 12, 64), ints(new long[] {4}, 0, 2, 1, 3)));
    assertThrows(IrException.class,
        () -> shape("Transpose", Map.of(), f32(1, 128, 12, 64), ints(new long[] {4}, 0, 2, 2, 3)));
    assertArrayEquals(new long[] {1, 1, 128}, shape("Unsqueeze", Map.of(), f32(1, 128), ints(new long[0], 1)));
    assertArrayEquals(new long[] {1, 1, 1, 128}, shape("Unsqueeze", Map.of(), f32(1, 1, 128), ints(new long[0], 2)));
  }

  @Test
  void dataSizedOpsAreSizedByTheirShapeValues() {
    // Range(0, 7, 2) = [0, 2, 4, 6]; Range(5, 1, 1) is empty; a zero step is refused
    assertArrayEquals(new long[] {4},
        shape("Range", Map.of(), ints(new long[0], 0), ints(new long[0], 7), ints(new long[0], 2)));
    assertArrayEquals(new long[] {0},
        shape("Range", Map.of(), ints(new long[0], 5), ints(new long[0], 1), ints(new long[0], 1)));
    assertThrows(IrException.class,
        () -> shape("Range", Map.of(), ints(new long[0], 0), ints(new long[0], 7), ints(new long[0], 0)));
    // Broadcast: the target (numpy), the two shapes broadcast together (bidirectional)
    assertArrayEquals(new long[] {2, 3, 4}, shape("Broadcast", Map.of(), f32(3, 1), ints(new long[] {3}, 2, 3, 4)));
    assertArrayEquals(new long[] {2, 3, 4}, shape("Broadcast", IrBuilder.attrs("mode", "bidirectional"), f32(3, 4),
        ints(new long[] {3}, 2, 1, 1)));
    // Tile [2, 3] by [2, 1, 2]: the data gains a leading 1, then each axis times its repeats
    assertArrayEquals(new long[] {2, 2, 6}, shape("Tile", Map.of(), f32(2, 3), ints(new long[] {3}, 2, 1, 2)));
    assertThrows(IrException.class, () -> shape("Tile", Map.of(), f32(2, 3),
        new OpShapes.Input(ElementType.I64, new long[] {2}, null)));
  }

  @Test
  void resultHasNoOutputs() {
    assertTrue(OpShapes.infer("Result", Map.of(), List.of(f32(1, 1000))).isEmpty());
  }

  @Test
  void everyOpTypeInTheCatalogHasACase() {
    Set<String> used = new TreeSet<>();
    for (ModelSpec m : ModelCatalog.all()) {
      for (OpNode n : m.build().graph().nodes()) {
        used.add(n.type());
      }
    }
    Set<String> missing = new TreeSet<>(used);
    missing.removeAll(COVERED);
    assertTrue(missing.isEmpty(), "op types without a shape-inference case: " + missing);
    assertTrue(COVERED.containsAll(OpShapes.SUPPORTED) && OpShapes.SUPPORTED.containsAll(COVERED),
        "COVERED and OpShapes.SUPPORTED differ: " + Arrays.toString(COVERED.toArray()));
  }

  @Test
  void everyAttributeShapeInferenceReadsIsCheckedWhenTheIrIsRead() {
    // What infer() reads from <data>, per op type; the IR reader must refuse a missing or malformed one.
    Map<String, List<String>> read = Map.of(
        "Parameter", List.of("element_type", "shape"),
        "Const", List.of("element_type", "shape"),
        "Convert", List.of("destination_type"),
        "Convolution", List.of("strides", "dilations", "pads_begin", "pads_end"),
        "MaxPool", List.of("kernel", "strides", "dilations", "pads_begin", "pads_end"),
        "AvgPool", List.of("kernel", "strides", "pads_begin", "pads_end"),
        "ReduceMean", List.of("keep_dims"),
        "Reshape", List.of("special_zero"),
        "MatMul", List.of("transpose_a", "transpose_b"),
        "Concat", List.of("axis"));
    read.forEach((type, attrs) -> assertTrue(OpAttributes.checkedAttributes(type).containsAll(attrs),
        type + " reads " + attrs + ", the reader checks " + OpAttributes.checkedAttributes(type)));
    assertTrue(OpAttributes.checkedAttributes("SoftMax").contains("axis"));
    assertTrue(OpAttributes.checkedAttributes("Gather").contains("batch_dims"));
  }
}
