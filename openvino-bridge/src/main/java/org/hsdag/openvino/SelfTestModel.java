package org.hsdag.openvino;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.Half;
import org.hsdag.ir.IrWriter;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;

/**
 * The small model {@code hsdag check-runtime} compiles everywhere: a 32x32 RGB image through two 3x3
 * convolutions (the first with FP16 weights and a {@code decompression} Convert, as FP16 IRs
 * have), global average pooling, a fully connected layer and SoftMax — 18 IR layers, 4 KB of
 * weights, valid IR v11 with its {@code .bin}. It exercises exactly what a placement touches:
 * constants and decompression chains that must follow their consumer, a Parameter, a Result, and
 * a clean cut point ({@link #MIXED_CUT_AFTER}) for a two-device HETERO placement.
 *
 * <p>Weights are seeded, so the files are identical on every machine.
 */
public final class SelfTestModel {
  /** The last node of the first half of the mixed placement (CPU side). */
  public static final String MIXED_CUT_AFTER = "conv1/relu";

  private static final long WEIGHT_SEED = 20240;

  private SelfTestModel() {}

  /** The graph (without reading any file). */
  public static OpGraph graph() {
    return build(new ByteArrayOutputStream());
  }

  /** Writes {@code selftest.xml} and {@code selftest.bin} into {@code dir}; returns the xml path. */
  public static Path write(Path dir) throws IOException {
    ByteArrayOutputStream bin = new ByteArrayOutputStream();
    OpGraph g = build(bin);
    Path xml = dir.resolve("selftest.xml");
    AtomicFiles.writeBytes(dir.resolve("selftest.bin"), bin.toByteArray());
    new IrWriter().write(g, xml);
    return xml;
  }

  /**
   * The mixed placement: everything up to {@link #MIXED_CUT_AFTER} on {@code first}, the rest on
   * {@code second} (constants then follow their consumers through {@link HeteroAffinity}).
   */
  public static Placement mixedPlacement(OpGraph g, String first, String second) {
    DeviceSet ds = first.equals(second) ? DeviceSet.of(first) : DeviceSet.of(first, second);
    int cut = g.topologicalRank(g.indexOf(MIXED_CUT_AFTER));
    int[] d = new int[g.nodeCount()];
    for (int v = 0; v < d.length; v++) {
      d[v] = g.topologicalRank(v) <= cut ? 0 : ds.size() - 1;
    }
    return new Placement(ds, d);
  }

  private static OpGraph build(ByteArrayOutputStream bin) {
    SplittableRandom rng = new SplittableRandom(WEIGHT_SEED);
    Builder b = new Builder(bin);
    int input = b.layer("input", "Parameter", "opset1", attrs("shape", "1, 3, 32, 32", "element_type", "f32"),
        List.of(), List.of(f32(1, 3, 32, 32)), null);
    int w1 = b.constF16("conv1/weights", rng, 8, 3, 3, 3);
    int w1f = b.layer("conv1/weights/decompress", "Convert", "opset1", attrs("destination_type", "f32"),
        List.of(f16(8, 3, 3, 3)), List.of(f32(8, 3, 3, 3)),
        "<rt_info><attribute name=\"decompression\" version=\"0\"/></rt_info>");
    b.edge(w1, w1f);
    int conv1 = b.layer("conv1", "Convolution", "opset1", conv(1),
        List.of(f32(1, 3, 32, 32), f32(8, 3, 3, 3)), List.of(f32(1, 8, 32, 32)), null);
    b.edge(input, conv1);
    b.edge(w1f, conv1);
    int bias1 = b.constF32("conv1/bias", rng, 1, 8, 1, 1);
    int add1 = b.layer("conv1/add", "Add", "opset1", attrs("auto_broadcast", "numpy"),
        List.of(f32(1, 8, 32, 32), f32(1, 8, 1, 1)), List.of(f32(1, 8, 32, 32)), null);
    b.edge(conv1, add1);
    b.edge(bias1, add1);
    int relu1 = b.layer("conv1/relu", "ReLU", "opset1", Map.of(), List.of(f32(1, 8, 32, 32)),
        List.of(f32(1, 8, 32, 32)), null);
    b.edge(add1, relu1);
    int w2 = b.constF32("conv2/weights", rng, 16, 8, 3, 3);
    int conv2 = b.layer("conv2", "Convolution", "opset1", conv(2),
        List.of(f32(1, 8, 32, 32), f32(16, 8, 3, 3)), List.of(f32(1, 16, 16, 16)), null);
    b.edge(relu1, conv2);
    b.edge(w2, conv2);
    int relu2 = b.layer("conv2/relu", "ReLU", "opset1", Map.of(), List.of(f32(1, 16, 16, 16)),
        List.of(f32(1, 16, 16, 16)), null);
    b.edge(conv2, relu2);
    int axes = b.constI64("pool/axes", 2, 3);
    int pool = b.layer("pool", "ReduceMean", "opset1", attrs("keep_dims", "false"),
        List.of(f32(1, 16, 16, 16), port(ElementType.I64, 2)), List.of(f32(1, 16)), null);
    b.edge(relu2, pool);
    b.edge(axes, pool);
    int wfc = b.constF32("fc/weights", rng, 10, 16);
    int fc = b.layer("fc", "MatMul", "opset1", attrs("transpose_a", "false", "transpose_b", "true"),
        List.of(f32(1, 16), f32(10, 16)), List.of(f32(1, 10)), null);
    b.edge(pool, fc);
    b.edge(wfc, fc);
    int bfc = b.constF32("fc/bias", rng, 1, 10);
    int addfc = b.layer("fc/add", "Add", "opset1", attrs("auto_broadcast", "numpy"),
        List.of(f32(1, 10), f32(1, 10)), List.of(f32(1, 10)), null);
    b.edge(fc, addfc);
    b.edge(bfc, addfc);
    int prob = b.layer("prob", "SoftMax", "opset8", attrs("axis", "1"), List.of(f32(1, 10)), List.of(f32(1, 10)), null);
    b.edge(addfc, prob);
    int result = b.layer("prob/sink_port_0", "Result", "opset1", Map.of(), List.of(f32(1, 10)), List.of(), null);
    b.edge(prob, result);
    return b.graph.setName("hsdag-selftest").build();
  }

  private static Map<String, String> conv(int stride) {
    return attrs("strides", stride + ", " + stride, "dilations", "1, 1", "pads_begin", "1, 1", "pads_end", "1, 1",
        "auto_pad", "explicit");
  }

  private static Map<String, String> attrs(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static long[] dims(long... d) {
    return d;
  }

  private static Port f32(long... d) {
    return port(ElementType.F32, d);
  }

  private static Port f16(long... d) {
    return port(ElementType.F16, d);
  }

  private static Port port(ElementType t, long... d) {
    return new Port(-1, t, dims(d), null, null);
  }

  /** Numbers ports per layer (inputs then outputs) and lays weights out in the .bin. */
  private static final class Builder {
    final OpGraph.Builder graph = OpGraph.builder();
    final ByteArrayOutputStream bin;
    final List<int[]> usedInputs = new ArrayList<>();

    Builder(ByteArrayOutputStream bin) {
      this.bin = bin;
    }

    int layer(String name, String type, String version, Map<String, String> data, List<Port> in, List<Port> out,
        String rt) {
      int index = graph.nodeCount();
      List<Port> ins = new ArrayList<>();
      int id = 0;
      for (Port p : in) {
        ins.add(new Port(id++, p.elementType(), p.dims(), null, null));
      }
      List<Port> outs = new ArrayList<>();
      for (Port p : out) {
        outs.add(new Port(id++, p.elementType(), p.dims(), null, null));
      }
      graph.addNode(new OpNode(index, Integer.toString(index), name, type, version, data, ins, outs, rt, null));
      usedInputs.add(new int[] {0});
      return index;
    }

    void edge(int from, int to) {
      int slot = usedInputs.get(to)[0]++;
      graph.addEdge(new Edge(from, 0, to, slot));
    }

    int constF32(String name, SplittableRandom rng, long... shape) {
      int n = (int) count(shape);
      ByteBuffer buf = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < n; i++) {
        buf.putFloat((float) (rng.nextDouble() - 0.5) * 0.5f);
      }
      return constant(name, ElementType.F32, buf.array(), shape);
    }

    int constF16(String name, SplittableRandom rng, long... shape) {
      int n = (int) count(shape);
      ByteBuffer buf = ByteBuffer.allocate(2 * n).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < n; i++) {
        buf.putShort(Half.fromFloat((float) (rng.nextDouble() - 0.5) * 0.5f));
      }
      return constant(name, ElementType.F16, buf.array(), shape);
    }

    int constI64(String name, long... values) {
      ByteBuffer buf = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
      for (long v : values) {
        buf.putLong(v);
      }
      return constant(name, ElementType.I64, buf.array(), values.length);
    }

    private int constant(String name, ElementType type, byte[] bytes, long... shape) {
      long offset = bin.size();
      bin.writeBytes(bytes);
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < shape.length; i++) {
        s.append(i > 0 ? ", " : "").append(shape[i]);
      }
      return layer(name, "Const", "opset1",
          attrs("element_type", type.irName(), "shape", s.toString(), "offset", Long.toString(offset),
              "size", Integer.toString(bytes.length)),
          List.of(), List.of(port(type, shape)), null);
    }

    private static long count(long[] shape) {
      long n = 1;
      for (long d : shape) {
        n *= d;
      }
      return n;
    }
  }
}
