package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

/** --input-shape against a real dynamic IR (DistilBERT: input_ids and attention_mask are [?,?]). */
class InputShapesTest {
  private static OpGraph distilbert() {
    return new IrReader().read(Samples.irSample("distilbert-base-uncased-sst2.xml"));
  }

  private static InputShapes shapes(String... nameDims) {
    Map<String, long[]> m = new LinkedHashMap<>();
    for (int i = 0; i < nameDims.length; i += 2) {
      m.put(nameDims[i], java.util.Arrays.stream(nameDims[i + 1].split(",")).mapToLong(Long::parseLong).toArray());
    }
    return new InputShapes(m);
  }

  @Test
  void withoutInputShapeTheDefaultIsAssumedAndSaid() {
    InputShapes.Resolution r = InputShapes.NONE.resolve(distilbert());
    assertEquals(ShapeAssumption.DEFAULT.withInputs(r.sizes()), r.shapes(), "the compiled sizes ride along");
    assertEquals(List.of("input_ids=1x8", "attention_mask=1x8"), r.inputs());
    assertTrue(r.assumed());
    assertTrue(r.notice().contains("assumed input_ids=1x8") && r.notice().contains("--input-shape"), r.notice());
    // Its attention masks are broadcast to a computed shape, sized by evaluating that shape; the one slice of the
    // position ids whose bounds are data no rule sizes, and that is said.
    assertTrue(r.notice().contains("1 dynamic tensor no shape rule reaches costed at batch 1, sequence 8 (first: "
        + "StridedSlice"), r.notice());
  }

  @Test
  void givenShapesSetBatchAndSequence() {
    InputShapes.Resolution r = shapes("input_ids", "2,128", "attention_mask", "2,128").resolve(distilbert());
    assertEquals(new ShapeAssumption(2, 128).withInputs(r.sizes()), r.shapes());
    assertFalse(r.assumed());
    assertTrue(r.note().startsWith("1 dynamic tensor no shape rule reaches costed at batch 2, sequence 128"),
        r.note());
    assertTrue(r.notice().startsWith("dynamic inputs measured as input_ids=2x128, attention_mask=2x128; "), r.notice());
  }

  @Test
  void twoSequenceLengthsUseTheLargestAndSaySo() {
    InputShapes.Resolution r = shapes("input_ids", "1,1", "attention_mask", "1,64").resolve(distilbert());
    assertEquals(new ShapeAssumption(1, 64).withInputs(r.sizes()), r.shapes());
    assertTrue(r.notice().contains("uses the largest, 64"), r.notice());
  }

  @Test
  void contradictionsAreOneLineErrorsNamingTheInput() {
    OpGraph g = distilbert();
    assertTrue(assertThrows(IllegalArgumentException.class, () -> shapes("pixels", "1,3").resolve(g)).getMessage()
        .contains("no input 'pixels' (inputs: input_ids, attention_mask)"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> shapes("input_ids", "1,2,3").resolve(g)).getMessage()
        .contains("rank 2"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> shapes("input_ids", "1,8", "attention_mask", "4,8").resolve(g)).getMessage().contains("one batch size"));
  }

  /** The simulator keeps the IR reader's per-tensor bound for user-given sizes: attention scores are sequence x sequence. */
  @Test
  void sizesThatMakeATensorLargerThanTheReadersBoundAreRefusedBySimulatorNamingIt() {
    OpGraph g = distilbert();
    String m = shapes("input_ids", "1,100000000").resolve(g).simulatorBoundProblem(g);
    assertTrue(m.startsWith("--input-shape: with input_ids=1x100000000") && m.contains("has more than 2^36 elements")
        && m.contains("output of layer '"), m);
    ShapeAssumption fits = shapes("input_ids", "1,4096").resolve(g).shapes();
    assertEquals(4096, fits.sequence());
    assertArrayEquals(new long[] {1, 4096}, fits.inputSize("input_ids"));
  }

  @Test
  void aModelWithManyDynamicInputsIsSummarisedInOneShortLine() {
    List<String> inputs = java.util.stream.IntStream.range(0, 100).mapToObj(i -> "input_" + i + "=1x8").toList();
    String notice = new InputShapes.Resolution(InputShapes.NONE, ShapeAssumption.DEFAULT, inputs, true, null).notice();
    assertTrue(notice.length() < 250, notice);
    assertTrue(notice.contains("assumed input_0=1x8, input_1=1x8, input_2=1x8") && notice.contains("and 97 more"),
        notice);
  }

  @Test
  void theLargerSequenceCostsMore() {
    OpGraph g = distilbert();
    SimBackend shortSeq = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    SimBackend longSeq = new SimBackend(DeviceProfile.load("paper"),
        SimOptions.exact().withShapes(shapes("input_ids", "1,128").resolve(g).shapes()));
    var cpu = org.hsdag.placement.DeviceSet.of("CPU");
    var p = org.hsdag.placement.Placement.allOn(cpu, g.nodeCount(), "CPU");
    double a = shortSeq.latencyMillis(g, p);
    double b = longSeq.latencyMillis(g, p);
    assertTrue(b > 1.5 * a, a + " ms at 8 tokens, " + b + " ms at 128");
  }
}
