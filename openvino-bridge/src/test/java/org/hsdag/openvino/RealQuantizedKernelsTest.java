package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.TestDevice;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.QuantizedInputs;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An int8 model on the real runtime: the cost-model build profiles its quantized convolutions twice, with their
 * FakeQuantize in the same sub-model and on the other device, and keeps both; an f32 model is profiled once.
 * Asserts what was profiled, never how fast.
 */
@Tag("openvino")
class RealQuantizedKernelsTest {
  /** Two int8 convolutions, as a post-training quantizer writes them: FakeQuantize on activations and weights. */
  private static final String INT8_MODEL = """
      import sys, numpy as np, openvino as ov
      import openvino.opset13 as op
      def fq(x, lo, hi):
          c = lambda v: op.constant(np.array(v, dtype=np.float32))
          return op.fake_quantize(x, c(lo), c(hi), c(lo), c(hi), 256)
      rng = np.random.default_rng(1)
      x = op.parameter([1, 16, 32, 32], np.float32, name='x')
      h = x
      for k in range(2):
          w = fq(op.constant(rng.standard_normal((16, 16, 3, 3)).astype(np.float32)), -3.0, 3.0)
          h = op.convolution(fq(h, 0.0, 6.0), w, [1, 1], [1, 1], [1, 1], [1, 1])
          h = op.relu(h)
      ov.save_model(ov.Model([op.result(h)], [x], 'int8-convs'), sys.argv[1], compress_to_fp16=False)
      """;

  @TempDir
  Path dir;

  @Test
  void quantizedConvolutionsAreProfiledWithTheirFakeQuantizeElsewhereToo() throws Exception {
    RealOpenVino.require();
    Path xml = write(INT8_MODEL, "int8.xml");
    OpGraph graph = new IrReader().read(xml);
    ProfiledKernels k = profile(graph, xml);
    double[][] apart = k.apart();
    assertNotNull(apart, "an int8 model is profiled with its FakeQuantize ops apart");
    int[] quantizer = QuantizedInputs.quantizerOf(graph, new CostModel(ShapeAssumption.DEFAULT).costs(graph));
    int quantized = 0;
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (quantizer[v] >= 0) {
        quantized++;
        for (int d = 0; d < 2; d++) {
          assertTrue(apart[d][v] > 0, graph.node(v).name() + " ran on device " + d + " with its input unquantized");
          assertTrue(k.micros()[d][v] > 0, graph.node(v).name() + " ran on device " + d + " quantized");
        }
      }
    }
    assertEquals(2, quantized, "both convolutions read a FakeQuantize");
  }

  @Test
  void aFloatModelIsProfiledOnce() throws Exception {
    RealOpenVino.require();
    Path xml = SelfTestModel.write(dir);
    OpGraph graph = new IrReader().read(xml);
    assertNull(profile(graph, xml).apart(), "nothing quantized, nothing to profile apart");
  }

  private static ProfiledKernels profile(OpGraph graph, Path xml) {
    OpenVinoOptions options = new OpenVinoOptions(null, null, 0L, java.util.Map.of(),
        List.of(new TestDevice("CPU2", 1, "f32")));
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(graph, xml)) {
      b.costModel(graph);
      return ProfiledKernels.fromJson(b.costModelMeasurements(graph).orElseThrow());
    }
  }

  private Path write(String script, String name) throws Exception {
    Path py = Files.writeString(dir.resolve("model.py"), script);
    Path xml = dir.resolve(name);
    Process p = new ProcessBuilder(RealOpenVino.python().toString(), py.toString(), xml.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the wheel's Python wrote the model");
    assertEquals(0, p.exitValue(), out);
    return xml;
  }
}
