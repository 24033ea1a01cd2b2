package org.hsdag.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.InputShapes;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.SyntheticWeights;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * hsdag's sizes for every tensor of a dynamic model ({@link TensorShapes}, what the simulator and
 * the cost model use) against OpenVINO's own shape inference after the inputs are reshaped to the
 * sizes hsdag announces (what the real backend compiles): equal, tensor for tensor.
 */
@Tag("openvino")
class DynamicShapesRealTest {
  @Test
  void theDecoderIsSizedAsOpenVinoReshapesIt(@TempDir Path dir) throws Exception {
    var availability = RealOpenVino.require();
    Path xml = dir.resolve("dynamic_decoder.xml");
    DynamicDecoderIr.build().writeTo(xml, ModelCatalog.DEFAULT_SEED);
    OpGraph g = new IrReader().read(xml);
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      List<String> problems = compare(rt, g, xml);
      assertTrue(problems.isEmpty(), problems.toString());
    }
    assertEquals(List.of(), TensorShapes.of(g, InputShapes.NONE.resolve(g).shapes()).assumed(),
        "tensors sized by the assumption");
  }

  /** Their attention masks are broadcast to a computed shape: those take the assumption, which is right here. */
  @ParameterizedTest
  @ValueSource(strings = {"distilbert-base-uncased-sst2.xml", "roberta-base-cola.xml"})
  void aRealDynamicSampleIsSizedAsOpenVinoReshapesIt(String sample, @TempDir Path dir) throws Exception {
    var availability = RealOpenVino.require();
    Path xml = dir.resolve(sample);
    Files.copy(Samples.irSample(sample), xml);
    OpGraph g = new IrReader().read(xml);
    SyntheticWeights.write(g, ModelCatalog.DEFAULT_SEED, IrReader.defaultBinPath(xml));
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      List<String> problems = compare(rt, g, xml);
      assertTrue(problems.isEmpty(), problems.size() + " tensors differ: " + problems);
    }
  }

  /** Reshapes the model as the real backend does and lists every output whose shape differs from hsdag's. */
  private static List<String> compare(OpenVinoRuntime rt, OpGraph g, Path xml) {
    InputShapes.Resolution r = InputShapes.NONE.resolve(g);
    TensorShapes sized = TensorShapes.of(g, r.shapes());
    List<String> problems = new ArrayList<>();
    try (OpenVinoRuntime.Model model = rt.readModel(xml)) {
      List<String> inputs = model.inputNames();
      Map<String, long[]> sizes = r.sizes();
      for (int i = 0; i < inputs.size(); i++) {
        if (model.inputIsDynamic(i)) {
          model.setInputShape(i, sizes.get(inputs.get(i)));
        }
      }
      Map<String, OpenVinoRuntime.ModelOp> byName = new HashMap<>();
      model.ops().forEach(op -> byName.put(op.name(), op));
      int compared = 0;
      for (OpNode n : g.nodes()) {
        OpenVinoRuntime.ModelOp op = byName.get(n.name());
        if (op == null || n.isResult()) {
          continue;
        }
        for (int k = 0; k < n.outputs().size(); k++) {
          String ours = shape(sized.output(n.index(), k));
          if (!ours.equals(op.outputShapes().get(k))) {
            problems.add(n.type() + " '" + n.name() + "' " + ours + " vs OpenVINO " + op.outputShapes().get(k));
          }
          compared++;
        }
      }
      assertTrue(compared > g.nodeCount() / 2, "compared " + compared + " tensors");
    }
    return problems;
  }

  private static String shape(long[] dims) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < dims.length; i++) {
      b.append(i == 0 ? "" : ",").append(dims[i]);
    }
    return b.append(']').toString();
  }
}
