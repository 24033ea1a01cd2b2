package org.hsdag.realruntime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.ir.ReadMerges;
import org.hsdag.ir.SyntheticWeights;
import org.hsdag.models.ModelCatalog;
import org.hsdag.models.ModelSpec;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bundled model and every real IR sample of {@code ../shared/ir-samples} (with synthesised
 * weights), read by hsdag and by real OpenVINO: the same ops (names and types), the same edges and
 * the same output shapes, and OpenVINO compiles and runs it on CPU.
 */
@Tag("openvino")
class RealIrTest {
  /** Op types the IR spells differently from OpenVINO's class names (notes/openvino.md §1.3). */
  private static final Map<String, String> IR_SPELLING = Map.of("Const", "Constant", "ReLU", "Relu", "SoftMax",
      "Softmax", "PReLU", "PRelu");

  static Stream<String> bundledModels() {
    return ModelCatalog.all().stream().filter(m -> !m.simulationOnly()).map(ModelSpec::name);
  }

  @ParameterizedTest
  @MethodSource("bundledModels")
  void openVinoReadsTheBundledModelAsHsdagDoesAndRunsIt(String name, @TempDir Path dir) throws Exception {
    var availability = RealOpenVino.require();
    Path xml = dir.resolve(name + ".xml");
    ModelCatalog.get(name).build().writeTo(xml, ModelCatalog.DEFAULT_SEED);
    OpGraph graph = new IrReader().read(xml);
    try (OpenVinoRuntime rt = availability.openRuntime(); OpenVinoRuntime.Model model = rt.readModel(xml)) {
      assertSameGraph(graph, model.ops());
      compileAndRun(name, model);
    }
  }

  static Stream<String> irSamples() throws IOException {
    Path dir = Samples.sharedDir().resolve("ir-samples");
    if (!Files.isDirectory(dir)) {
      return Stream.of("(absent)");
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".xml")).sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("irSamples")
  void openVinoReadsEachRealSampleWithSynthesisedWeightsAsHsdagDoesAndRunsIt(String file, @TempDir Path dir)
      throws Exception {
    var availability = RealOpenVino.require();
    Path xml = dir.resolve(file);
    OpGraph graph = copySampleWithWeights(file, xml);
    try (OpenVinoRuntime rt = availability.openRuntime(); OpenVinoRuntime.Model model = rt.readModel(xml)) {
      assertSameGraph(graph, model.ops(), ReadMerges.of(graph));
      compileAndRun(file, model);
    }
  }

  /**
   * Copies sample {@code file} of {@code ../shared/ir-samples} to {@code xml} (skipping the test when the
   * samples are absent) with synthesised weights beside it, and reads it.
   */
  static OpGraph copySampleWithWeights(String file, Path xml) throws IOException {
    Files.copy(Samples.irSample(file), xml);
    OpGraph graph = new IrReader().read(xml);
    SyntheticWeights.write(graph, ModelCatalog.DEFAULT_SEED, IrReader.defaultBinPath(xml));
    return graph;
  }

  /** Compiles on CPU (dynamic inputs as [1, 8]), runs once, and checks the outputs are finite. */
  private static void compileAndRun(String name, OpenVinoRuntime.Model model) {
    List<String> inputs = model.inputNames();
    for (int i = 0; i < inputs.size(); i++) {
      if (model.inputIsDynamic(i)) {
        model.setInputShape(i, new long[] {1, 8});
      }
    }
    try (OpenVinoRuntime.Compiled c = model.compile("CPU", null, false)) {
      c.fillInputs(1);
      c.inferTimed(0, 1);
      for (float[] out : c.outputs()) {
        for (float v : out) {
          assertTrue(Float.isFinite(v), name + ": a non-finite output");
        }
      }
    }
  }

  static void assertSameGraph(OpGraph graph, List<OpenVinoRuntime.ModelOp> ops) {
    assertSameGraph(graph, ops, ReadMerges.of(graph));
  }

  /**
   * Asserts hsdag's graph and OpenVINO's ops agree: names, types, edge count, output shapes;
   * exactly the nodes {@link ReadMerges} predicts are absent from OpenVINO's model (merged while reading:
   * ssd-inception-v2's six identical ShapeOf(image)→StridedSlice chains read as one, 25 nodes).
   */
  static void assertSameGraph(OpGraph graph, List<OpenVinoRuntime.ModelOp> ops, ReadMerges merges) {
    int merged = merges.absentCount();
    assertEquals(graph.nodeCount() - merged, ops.size(), graph.name() + ": node count");
    Map<String, OpenVinoRuntime.ModelOp> byName = new HashMap<>();
    ops.forEach(op -> byName.put(op.name(), op));
    if (merged == 0) {
      assertEquals(graph.edgeCount(), ops.stream().mapToInt(OpenVinoRuntime.ModelOp::inputs).sum(),
          graph.name() + ": edges");
    }
    List<String> problems = new ArrayList<>();
    int absent = 0;
    for (OpNode node : graph.nodes()) {
      OpenVinoRuntime.ModelOp op = byName.get(node.name());
      if (op == null) {
        absent++;
        if (merges.kept(node.index())) {
          problems.add(node.name() + " (" + node.type() + "): absent from OpenVINO's model, not predicted merged");
        }
        continue;
      }
      if (!IR_SPELLING.getOrDefault(node.type(), node.type()).equals(op.type())) {
        problems.add(node.name() + ": type " + node.type() + " vs " + op.type());
      }
      // Results have no output port in the IR; OpenVINO gives them their input's shape.
      if (!node.isResult()) {
        List<String> ours = node.outputs().stream().map(RealIrTest::shape).toList();
        List<String> theirs = op.outputShapes().stream().map(RealIrTest::dynamicAsQuestionMark).toList();
        if (!ours.equals(theirs)) {
          problems.add(node.name() + " (" + node.type() + "): shapes " + ours + " vs " + theirs);
        }
      }
    }
    assertEquals(merged, absent, graph.name() + ": nodes absent from OpenVINO's model");
    assertTrue(problems.isEmpty(), graph.name() + ": " + problems.size() + " differences, e.g. "
        + problems.subList(0, Math.min(5, problems.size())));
  }

  /** A port's dims in OpenVINO's notation, {@code [1,3,224,224]}, dynamic dims as {@code ?}. */
  static String shape(Port p) {
    StringBuilder b = new StringBuilder("[");
    long[] dims = p.dims();
    for (int i = 0; i < dims.length; i++) {
      b.append(i == 0 ? "" : ",").append(dims[i] < 0 ? "?" : Long.toString(dims[i]));
    }
    return b.append(']').toString();
  }

  /** The IR keeps no intervals in port dims: {@code 1..128} counts as dynamic. */
  static String dynamicAsQuestionMark(String shape) {
    return shape.replaceAll("[0-9]*\\.\\.[0-9]*", "?");
  }
}
