package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticWeightsTest {
  /** A tensor of the hand-made net: the producing layer's output port. */
  private static final class T {
    private final int layer;
    private final int port;
    private final String precision;
    private final long[] dims;

    T(int layer, int port, String precision, long[] dims) {
      this.layer = layer;
      this.port = port;
      this.precision = precision;
      this.dims = dims;
    }
  }

  /** Builds a small IR v11 by hand: ports numbered inputs first, then outputs, as serializers do. */
  private static final class Net {
    private final StringBuilder layers = new StringBuilder();
    private final StringBuilder edges = new StringBuilder();
    private int next;

    T parameter(String et, long... dims) {
      StringBuilder shape = new StringBuilder();
      for (long d : dims) {
        shape.append(shape.length() > 0 ? "," : "").append(d < 0 ? "?" : Long.toString(d));
      }
      return op("Parameter", "opset1", "shape=\"" + shape + "\" element_type=\"" + et + "\"", List.of(),
          ElementType.parse(et).precision(), dims)[0];
    }

    T constant(String et, long offset, long... shape) {
      ElementType t = ElementType.parse(et);
      long size = t.byteSize(Shapes.elementCount(shape));
      return op("Const", "opset1", "element_type=\"" + et + "\" shape=\"" + Shapes.format(shape) + "\" offset=\""
          + offset + "\" size=\"" + size + "\"", List.of(), t.precision(), shape)[0];
    }

    T[] op(String type, String version, String data, List<T> inputs, String precision, long[]... outs) {
      int id = next++;
      layers.append("<layer id=\"").append(id).append("\" name=\"").append(type.toLowerCase(Locale.ROOT)).append(id)
          .append("\" type=\"").append(type).append("\" version=\"").append(version).append("\">\n");
      if (!data.isEmpty()) {
        layers.append("<data ").append(data).append("/>\n");
      }
      int port = 0;
      if (!inputs.isEmpty()) {
        layers.append("<input>\n");
        for (T in : inputs) {
          layers.append(port(port, in.precision, in.dims));
          edges.append("<edge from-layer=\"").append(in.layer).append("\" from-port=\"").append(in.port)
              .append("\" to-layer=\"").append(id).append("\" to-port=\"").append(port).append("\"/>\n");
          port++;
        }
        layers.append("</input>\n");
      }
      T[] result = new T[outs.length];
      if (outs.length > 0) {
        layers.append("<output>\n");
        for (int k = 0; k < outs.length; k++) {
          layers.append(port(port, precision, outs[k]));
          result[k] = new T(id, port++, precision, outs[k]);
        }
        layers.append("</output>\n");
      }
      layers.append("</layer>\n");
      return result;
    }

    T op1(String type, String data, List<T> inputs, String precision, long... out) {
      return op(type, "opset1", data, inputs, precision, out)[0];
    }

    /** Gather(ShapeOf(x), indices, axis): {gather, indices Const, axis Const}, Consts at the given offsets. */
    T[] dimsOf(T x, long indicesOffset, int count, long axisOffset) {
      T shape = op1("ShapeOf", "output_type=\"i64\"", List.of(x), "I64", x.dims.length);
      T indices = constant("i64", indicesOffset, count);
      T axis = constant("i64", axisOffset);
      T gather = op("Gather", "opset8", "batch_dims=\"0\"", List.of(shape, indices, axis), "I64", d(count))[0];
      return new T[] {gather, indices, axis};
    }

    void result(T in) {
      op("Result", "opset1", "", List.of(in), "FP32");
    }

    private static String port(int id, String precision, long[] dims) {
      StringBuilder sb = new StringBuilder("<port id=\"" + id + "\" precision=\"" + precision + "\">");
      for (long d : dims) {
        sb.append("<dim>").append(d).append("</dim>");
      }
      return sb.append("</port>\n").toString();
    }

    OpGraph read(Path dir) throws IOException {
      Path xml = dir.resolve("net.xml");
      Files.writeString(xml, "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n" + layers
          + "</layers>\n<edges>\n" + edges + "</edges>\n</net>\n", StandardCharsets.UTF_8);
      return new IrReader().read(xml, null);
    }
  }

  private static long[] d(long... dims) {
    return dims;
  }

  /** The values the written {@code .bin} holds for the Const layer with this friendly name. */
  private static long[] ints(OpGraph g, Path bin, String constName) throws IOException {
    OpNode n = g.node(g.indexOf(constName));
    ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(bin), (int) n.constOffset(), (int) n.constSize())
        .order(ByteOrder.LITTLE_ENDIAN);
    ElementType t = ElementType.parse(n.attribute("element_type"));
    long[] v = new long[(int) (n.constSize() / (t.bitWidth() / 8))];
    for (int i = 0; i < v.length; i++) {
      v[i] = t == ElementType.I64 ? bb.getLong() : bb.getInt();
    }
    return v;
  }

  private static float[] floats(OpGraph g, Path bin, String constName) throws IOException {
    OpNode n = g.node(g.indexOf(constName));
    ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(bin), (int) n.constOffset(), (int) n.constSize())
        .order(ByteOrder.LITTLE_ENDIAN);
    float[] v = new float[(int) (n.constSize() / 4)];
    for (int i = 0; i < v.length; i++) {
      v[i] = bb.getFloat();
    }
    return v;
  }

  private static String name(T t) {
    return "const" + t.layer;
  }

  /** Static shapes: Transpose order, Reshape target, Unsqueeze axes, ReduceMean axes, split, Interpolate. */
  @Test
  void shapeConstantsFollowThePortDims(@TempDir Path dir) throws IOException {
    Net n = new Net();
    T x = n.parameter("f32", 1, 6, 4, 4);
    T order = n.constant("i64", 0, 4);
    T tr = n.op1("Transpose", "", List.of(x, order), "FP32", 1, 4, 4, 6);
    T target = n.constant("i64", 32, 2);
    T flat = n.op1("Reshape", "special_zero=\"false\"", List.of(tr, target), "FP32", 1, 96);
    T axes = n.constant("i64", 48, 1);
    T unsq = n.op1("Unsqueeze", "", List.of(flat, axes), "FP32", 1, 1, 96);
    T raxes = n.constant("i64", 56, 1);
    T mean = n.op1("ReduceMean", "keep_dims=\"false\"", List.of(unsq, raxes), "FP32", 1, 96);
    n.result(mean);
    T splitAxis = n.constant("i64", 64);
    T lengths = n.constant("i64", 72, 2);
    T[] parts = n.op("VariadicSplit", "opset1", "", List.of(x, splitAxis, lengths), "FP32", d(1, 2, 4, 4),
        d(1, 4, 4, 4));
    n.result(parts[0]);
    T scales = n.constant("f32", 88, 2);
    T iaxes = n.constant("i32", 96, 2);
    T up = n.op("Interpolate", "opset11", "mode=\"nearest\" shape_calculation_mode=\"scales\"",
        List.of(parts[1], scales, iaxes), "FP32", d(1, 4, 8, 12))[0];
    n.result(up);
    OpGraph g = n.read(dir);
    Path bin = dir.resolve("net.bin");

    SyntheticWeights.write(g, 1, bin);

    assertArrayEquals(new long[] {0, 2, 3, 1}, ints(g, bin, name(order)), "out[i] = in[order[i]]");
    assertArrayEquals(new long[] {1, 96}, ints(g, bin, name(target)));
    assertArrayEquals(new long[] {1}, ints(g, bin, name(axes)));
    assertArrayEquals(new long[] {1}, ints(g, bin, name(raxes)));
    assertArrayEquals(new long[] {1}, ints(g, bin, name(splitAxis)));
    assertArrayEquals(new long[] {2, 4}, ints(g, bin, name(lengths)));
    assertArrayEquals(new long[] {2, 3}, ints(g, bin, name(iaxes)));
    assertArrayEquals(new float[] {2f, 3f}, floats(g, bin, name(scales)));
  }

  /**
   * Dynamic dims and shape subgraphs: a Reshape target concatenated from a Gather of ShapeOf and
   * constants, and split lengths computed as dim / constant (found by evaluating the subgraph).
   */
  @Test
  void shapeSubgraphsGetValuesThatReproduceTheDims(@TempDir Path dir) throws IOException {
    Net n = new Net();
    T x = n.parameter("f32", -1, -1, 8);
    T[] g1 = n.dimsOf(x, 0, 2, 16);
    T dims = g1[0];
    T idx = g1[1];
    T gaxis = g1[2];
    T tail = n.constant("i64", 24, 2);
    T target = n.op1("Concat", "axis=\"0\"", List.of(dims, tail), "I64", 4);
    T heads = n.op1("Reshape", "special_zero=\"false\"", List.of(x, target), "FP32", -1, -1, 2, 4);
    n.result(heads);

    T y = n.parameter("f32", 1, 4, 8);
    T[] g2 = n.dimsOf(y, 40, 1, 48);
    T dim = g2[0];
    T yidx = g2[1];
    T divisor = n.constant("i64", 56, 1);
    T half = n.op1("Divide", "auto_broadcast=\"numpy\" m_pythondiv=\"true\"", List.of(dim, divisor), "I64", 1);
    T rest = n.constant("i64", 64, 1);
    T lengths = n.op1("Concat", "axis=\"0\"", List.of(half, rest), "I64", 2);
    T splitAxis = n.constant("i64", 72);
    T[] parts = n.op("VariadicSplit", "opset1", "", List.of(y, splitAxis, lengths), "FP32", d(1, 2, 8), d(1, 2, 8));
    n.result(parts[0]);
    n.result(parts[1]);
    OpGraph g = n.read(dir);
    Path bin = dir.resolve("net.bin");

    SyntheticWeights.Written w = SyntheticWeights.write(g, 1, bin);

    assertArrayEquals(new long[] {0, 1}, ints(g, bin, name(idx)), "the two dynamic dims, in order");
    assertArrayEquals(new long[] {0}, ints(g, bin, name(gaxis)));
    assertArrayEquals(new long[] {2, 4}, ints(g, bin, name(tail)));
    assertArrayEquals(new long[] {1}, ints(g, bin, name(splitAxis)));
    long dimIndex = ints(g, bin, name(yidx))[0];
    long div = ints(g, bin, name(divisor))[0];
    assertEquals(2, Math.floorDiv(y.dims[(int) dimIndex], div), "dim / divisor gives the first length");
    long second = ints(g, bin, name(rest))[0];
    assertTrue(second == 2 || second == -1, "the second length is 2 or inferred: " + second);
    assertTrue(w.plan().notes().isEmpty(), w.plan().notes().toString());
  }

  /** Constants that share a region get one value that suits every user, or a note naming them. */
  @Test
  void sharedRegionsGetAValueEveryUserAccepts(@TempDir Path dir) throws IOException {
    Net n = new Net();
    T x = n.parameter("f32", 2, 2);
    T square = n.constant("i64", 0, 2);
    n.result(n.op1("Transpose", "", List.of(x, square), "FP32", 2, 2));
    T y = n.parameter("f32", 2, 3);
    T swap = n.constant("i64", 0, 2);
    n.result(n.op1("Transpose", "", List.of(y, swap), "FP32", 3, 2));
    T z = n.parameter("f32", 1, 6);
    T t23 = n.constant("i64", 16, 2);
    n.result(n.op1("Reshape", "special_zero=\"false\"", List.of(z, t23), "FP32", 2, 3));
    T t32 = n.constant("i64", 16, 2);
    n.result(n.op1("Reshape", "special_zero=\"false\"", List.of(z, t32), "FP32", 3, 2));
    OpGraph g = n.read(dir);
    Path bin = dir.resolve("net.bin");

    SyntheticWeights.Written w = SyntheticWeights.write(g, 1, bin);

    assertArrayEquals(new long[] {1, 0}, ints(g, bin, name(square)), "[1, 0] also transposes a 2x2");
    assertArrayEquals(ints(g, bin, name(square)), ints(g, bin, name(swap)));
    assertEquals(2, w.plan().notes().size(), w.plan().notes().toString());
    SyntheticWeights.Note note = w.plan().notes().get(0);
    assertEquals("shared Const region", note.what());
    assertTrue(note.message().contains("[2, 3]") && note.message().contains("[3, 2]"), note.message());
    // A whole sentence: what was written, and what follows from it.
    assertTrue(note.message().endsWith("; wrote [2, 3], what the first of them wants"),
        note.message());
    // Checked forwards by the one shape inference: the op that gets the other user's value is named.
    SyntheticWeights.Note wrong = w.plan().notes().get(1);
    assertEquals("Reshape shape input", wrong.what());
    assertEquals("the written values give [2, 3] where the XML says [3, 2]", wrong.message());
  }

  /** A slice whose masks are not handled keeps safe defaults (stride 1, never 0) and says so. */
  @Test
  void underivedSliceBoundsStaySafeAndAreNoted(@TempDir Path dir) throws IOException {
    Net n = new Net();
    T x = n.parameter("f32", 4, 5);
    T begin = n.constant("i64", 0, 2);
    T end = n.constant("i64", 16, 2);
    T strides = n.constant("i64", 32, 2);
    n.result(n.op1("StridedSlice", "begin_mask=\"0, 0\" end_mask=\"0, 0\" shrink_axis_mask=\"1, 0\"",
        List.of(x, begin, end, strides), "FP32", 5));
    OpGraph g = n.read(dir);
    Path bin = dir.resolve("net.bin");

    SyntheticWeights.Written w = SyntheticWeights.write(g, 1, bin);

    assertArrayEquals(new long[] {1, 1}, ints(g, bin, name(strides)));
    assertTrue(w.plan().notes().stream().anyMatch(note -> note.what().equals("StridedSlice input 1")
        && note.message().contains("shrink_axis_mask")), w.plan().notes().toString());
  }

  @Test
  void sizeIsTheLargestRegionEndAndTheSameSeedGivesTheSameBytes(@TempDir Path dir) throws IOException {
    Net n = new Net();
    T x = n.parameter("f32", 1, 8);
    T w16 = n.constant("f16", 100, 8, 8);
    T cvt = n.op1("Convert", "destination_type=\"f32\"", List.of(w16), "FP32", 8, 8);
    T mm = n.op1("MatMul", "transpose_a=\"false\" transpose_b=\"true\"", List.of(x, cvt), "FP32", 1, 8);
    T bias = n.constant("f32", 0, 1, 8);
    T add = n.op1("Add", "auto_broadcast=\"numpy\"", List.of(mm, bias), "FP32", 1, 8);
    T q = n.constant("i8", 300, 8);
    T qf = n.op1("Convert", "destination_type=\"f32\"", List.of(q), "FP32", 8);
    n.result(n.op1("Multiply", "auto_broadcast=\"numpy\"", List.of(add, qf), "FP32", 1, 8));
    OpGraph g = n.read(dir);
    Path a = dir.resolve("a.bin");
    Path b = dir.resolve("b.bin");
    Path c = dir.resolve("c.bin");

    SyntheticWeights.write(g, 7, a);
    SyntheticWeights.Written again = SyntheticWeights.write(g, 7, b);
    SyntheticWeights.write(g, 8, c);

    assertEquals(308, Files.size(a), "max(offset + size): the i8 region ends at 300 + 8");
    assertEquals(Weights.requiredBytes(g), again.plan().bytes());
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "same seed, same bytes");
    assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)), "another seed, other weights");
    new IrReader().read(dir.resolve("net.xml"), a); // every Const region lies inside the file
    byte[] bytes = Files.readAllBytes(a);
    for (int i = 32; i < 100; i++) {
      assertEquals(0, bytes[i], "the gap between regions is zero");
    }
    List<Float> weights = new ArrayList<>();
    ByteBuffer bb = ByteBuffer.wrap(bytes, 100, 128).order(ByteOrder.LITTLE_ENDIAN);
    while (bb.hasRemaining()) {
      weights.add(Half.toFloat(bb.getShort()));
    }
    assertTrue(weights.stream().allMatch(f -> Math.abs(f) <= 0.05f), "small FP16 weights: " + weights);
    assertNotEquals(1, weights.stream().distinct().count(), "random, not constant");
  }

  /**
   * The real samples: every shape input is derived (no "not derivable", no disagreeing shared
   * region), and the plan covers max(offset + size). OpenVINO itself was run on these by hand.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {"resnet-50.xml", "inception-v3.xml", "distilbert-base-uncased-sst2.xml", "roberta-base-cola.xml",
          "mobilenet-v2.xml", "alexnet.xml", "ssd-inception-v2.xml", "yolo11n.xml", "yolo11n-int8.xml"})
  void realSamplesNeedNoCompromiseOnShapeInputs(String file) {
    OpGraph g = new IrReader().read(Samples.irSample(file), null);

    SyntheticWeights.Plan plan = SyntheticWeights.plan(g);

    assertEquals(Weights.requiredBytes(g), plan.bytes());
    assertEquals(Weights.usedBytes(g), plan.regions().stream().mapToLong(SyntheticWeights.Region::size).sum());
    for (SyntheticWeights.Note note : plan.notes()) {
      assertFalse(note.message().contains("not derivable through") || note.what().startsWith("shared"),
          note.toString());
    }
  }

  @Test
  void distilbertHeadSplitTargetIsBatchSeqTwelveSixtyFour() {
    OpGraph g = new IrReader().read(Samples.irSample("distilbert-base-uncased-sst2.xml"), null);

    SyntheticWeights.Plan plan = SyntheticWeights.plan(g);

    // Reshape [?, ?, 768] -> [?, ?, 12, 64] with the target Concat(Gather(ShapeOf), c1, c2, c3) and special_zero false.
    String prefix = "__module.distilbert.transformer.layer.0.attention/prim::ListConstruct_7/Reshape_";
    long[] pieces = new long[3];
    for (int i = 0; i < 3; i++) {
      OpNode c = g.node(g.indexOf(prefix + i));
      SyntheticWeights.Region r = plan.regions().stream().filter(x -> x.offset() == c.constOffset()).findFirst()
          .orElseThrow();
      pieces[i] = ByteBuffer.wrap(r.fixed()).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
    assertArrayEquals(new long[] {-1, 12, 64}, pieces, "the second dynamic dim is inferred; the head dims are literal");
  }
}
