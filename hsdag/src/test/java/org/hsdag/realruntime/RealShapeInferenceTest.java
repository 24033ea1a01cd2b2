package org.hsdag.realruntime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.SyntheticWeights;
import org.hsdag.models.ModelCatalog;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.testkit.TinyT5;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * hsdag's one shape inference ({@code OpShapes}, through the cost model's {@link TensorShapes})
 * against OpenVINO's own, op by op: every bundled model, every IR of {@code ../shared/ir-samples}
 * (stand-in weights) and the tiny T5 encoder, decoder and decoder with past (stand-in weights
 * too), each dynamic input reshaped to a size per input family.
 */
@Tag("openvino")
class RealShapeInferenceTest {
  static Stream<String> bundledModels() {
    return RealIrTest.bundledModels();
  }

  static Stream<String> irSamples() throws Exception {
    return RealIrTest.irSamples();
  }

  @ParameterizedTest
  @MethodSource("bundledModels")
  void everyOpOfEachBundledModelHasTheRuntimesShape(String name, @TempDir Path dir) throws Exception {
    Path xml = dir.resolve(name + ".xml");
    ModelCatalog.get(name).build().writeTo(xml, ModelCatalog.DEFAULT_SEED);
    assertSameShapes(xml, new IrReader().read(xml));
  }

  @ParameterizedTest
  @MethodSource("irSamples")
  void everyOpOfEachRealSampleHasTheRuntimesShape(String file, @TempDir Path dir) throws Exception {
    Path xml = dir.resolve(file);
    assertSameShapes(xml, RealIrTest.copySampleWithWeights(file, xml));
  }

  @Test
  void everyOpOfTheTinyEncoderDecoderHasTheRuntimesShape(@TempDir Path dir) throws Exception {
    TinyT5.write(dir);
    for (String m : TinyT5.MODELS) {
      Path xml = dir.resolve(m + ".xml");
      Files.delete(IrReader.defaultBinPath(xml));
      OpGraph g = new IrReader().read(xml);
      SyntheticWeights.write(g, ModelCatalog.DEFAULT_SEED, IrReader.defaultBinPath(xml));
      assertSameShapes(xml, g);
    }
  }

  /**
   * A size per input family, as a user of an encoder-decoder would give them: batch 2, decoder
   * tokens 5, encoder tokens 6, cached past 7; other dynamic axes 5.
   */
  static long[] sizeOf(String name, long[] dims) {
    long[] out = dims.clone();
    boolean encoder = name.contains("encoder");
    for (int a = 0; a < out.length; a++) {
      if (out[a] >= 0) {
        continue;
      }
      boolean cache = name.contains("past_key_values") && a == 2;
      out[a] = a == 0 ? 2 : encoder ? 6 : cache ? 7 : 5;
    }
    return out;
  }

  private static void assertSameShapes(Path xml, OpGraph g) {
    var availability = RealOpenVino.require();
    Map<String, long[]> sizes = new LinkedHashMap<>();
    try (OpenVinoRuntime rt = availability.openRuntime(); OpenVinoRuntime.Model model = rt.readModel(xml)) {
      List<String> inputs = model.inputNames();
      for (int i = 0; i < inputs.size(); i++) {
        if (model.inputIsDynamic(i)) {
          OpNode p = parameter(g, inputs.get(i));
          long[] s = sizeOf(inputs.get(i), p.outputs().get(0).dims());
          model.setInputShape(i, s);
          sizes.put(p.name(), s);
        }
      }
      TensorShapes ours = TensorShapes.of(g, new ShapeAssumption(2, 5).withInputs(sizes));
      Map<String, OpenVinoRuntime.ModelOp> theirs = new HashMap<>();
      model.ops().forEach(op -> theirs.put(op.name(), op));
      List<String> problems = new ArrayList<>();
      for (OpNode n : g.nodes()) {
        OpenVinoRuntime.ModelOp op = theirs.get(n.name());
        if (op == null || n.isResult()) {
          continue; // merged while reading (RealIrTest checks which)
        }
        for (int p = 0; p < n.outputs().size() && p < op.outputShapes().size(); p++) {
          String want = op.outputShapes().get(p);
          String got = Arrays.toString(ours.output(n.index(), p)).replace(" ", "");
          if (!want.contains("?") && !want.contains("..") && !want.equals(got)) {
            problems.add(n.type() + " '" + n.name() + "' output " + p + ": " + got + " vs runtime " + want);
          }
        }
      }
      assertTrue(problems.isEmpty(), g.name() + " at " + describe(sizes) + ": " + problems.size()
          + " ops differ, e.g. " + problems.subList(0, Math.min(8, problems.size())));
    }
  }

  private static OpNode parameter(OpGraph g, String input) {
    for (OpNode n : g.nodes()) {
      String names = n.isParameter() ? n.outputs().get(0).names() : null;
      if (n.isParameter() && (n.name().equals(input)
          || (names != null && Arrays.asList(names.split(",")).stream().anyMatch(t -> t.trim().equals(input))))) {
        return n;
      }
    }
    throw new AssertionError("no Parameter for input " + input);
  }

  private static String describe(Map<String, long[]> sizes) {
    StringBuilder b = new StringBuilder();
    sizes.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(Arrays.toString(v)));
    return b.length() == 0 ? "static inputs" : b.toString();
  }
}
