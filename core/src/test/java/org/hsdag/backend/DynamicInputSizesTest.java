package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.InputAxes;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.DynamicIrs;
import org.hsdag.testkit.Samples;
import org.hsdag.ir.IrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sizes hsdag fixes for dynamic inputs: a batch and a sequence take the default and are said;
 * an axis a consumer ties to a static size (a weight, a bias, a residual) takes that size; any
 * other axis is refused in one line naming the input and --input-shape, never guessed.
 */
class DynamicInputSizesTest {
  @TempDir
  Path tmp;

  @Test
  void anAxisTheModelFixesTakesThatSizeAndTheRestTheDefault() {
    OpGraph g = DynamicIrs.write(tmp, "tiny_dynamic", DynamicIrs.tinyDynamic());
    InputShapes.Resolution r = InputShapes.NONE.resolve(g);
    assertEquals(List.of("input_ids=1x8", "hidden=1x8x12"), r.inputs());
    assertEquals(ShapeAssumption.DEFAULT.withInputs(r.sizes()), r.shapes());
    assertTrue(r.assumed());
    Map<String, long[]> sizes = r.sizes();
    assertArrayEquals(new long[] {1, 8}, sizes.get("input_ids"));
    assertArrayEquals(new long[] {1, 8, 12}, sizes.get("hidden"));
    assertTrue(r.notice().contains("assumed input_ids=1x8, hidden=1x8x12")
        && r.notice().contains("sized by the model: hidden axis 2 from Add 'mix'"), r.notice());
  }

  @Test
  void aMatMulFixesTheContractedAxisWhicheverWayItsWeightIsStored() {
    for (boolean transposed : new boolean[] {false, true}) {
      OpGraph g = DynamicIrs.write(tmp, "hw" + transposed, DynamicIrs.hiddenTimesWeight(24, transposed));
      int hidden = g.indexOf("hidden");
      assertEquals(new InputAxes.Derived(24, "MatMul 'proj'"), InputAxes.derive(g, hidden, 2).orElseThrow());
      assertTrue(InputAxes.derive(g, hidden, 0).isEmpty(), "the batch is free");
      assertTrue(InputAxes.derive(g, hidden, 1).isEmpty(), "the sequence is free");
      assertEquals(List.of("hidden=1x8x24"), InputShapes.NONE.resolve(g).inputs());
    }
  }

  @Test
  void anAxisNothingFixesIsRefusedInOneLineNamingTheInputAndTheOption() {
    OpGraph g = DynamicIrs.write(tmp, "undeterminable", DynamicIrs.undeterminable());
    String m = assertThrows(IllegalArgumentException.class, () -> InputShapes.NONE.resolve(g)).getMessage();
    assertTrue(m.startsWith("--input-shape: input 'features' is [?,?] and nothing in the model fixes the size of its "
        + "axis 1"), m);
    assertTrue(m.endsWith("give it: --input-shape features=N,N"), m);
    assertFalse(m.contains("\n"), m);
  }

  @Test
  void givenSizesWinOverWhatTheModelWouldSuggest() {
    OpGraph g = DynamicIrs.write(tmp, "undeterminable", DynamicIrs.undeterminable());
    InputShapes.Resolution r = new InputShapes(Map.of("features", new long[] {2, 5})).resolve(g);
    assertEquals(List.of("features=2x5"), r.inputs());
    assertFalse(r.assumed());
    assertArrayEquals(new long[] {2, 5}, r.sizes().get("features"));
  }

  /** Token ids and masks are integer inputs: their lengths are free, so DistilBERT keeps the default and says so. */
  @Test
  void tokenInputsOfARealIrTakeTheDefaultUnderEveryName() {
    OpGraph g = new IrReader().read(Samples.irSample("distilbert-base-uncased-sst2.xml"));
    InputShapes.Resolution r = InputShapes.NONE.resolve(g);
    assertEquals(List.of("input_ids=1x8", "attention_mask=1x8"), r.inputs());
    assertArrayEquals(new long[] {1, 8}, r.sizes().get("input_ids"));
    assertArrayEquals(new long[] {1, 8}, r.sizes().get("attention_mask"));
  }

  @Test
  void kvCacheAxesTakeThePastLengthAndInputsNothingSizesAreRefusedTogetherWithAPattern() {
    OpGraph g = DynamicIrs.write(tmp, "kv_cache", DynamicIrs.kvCache());
    String m = assertThrows(IllegalArgumentException.class, () -> InputShapes.NONE.resolve(g)).getMessage();
    assertTrue(m.startsWith("--input-shape: 2 inputs have an axis nothing in the model fixes") && m.contains(
        "'state.a' [?,?], 'state.b' [?,?]") && m.endsWith("give them at once: --input-shape 'state.*=N,N'"), m);
    assertFalse(m.contains("\n"), m);

    InputShapes.Resolution r = new InputShapes(Map.of("state.*", new long[] {1, 3})).resolve(g);
    assertEquals(List.of("new_key=1x4x8x8", "past_key_values.0.key=1x4x8x8", "past_key_values.1.key=1x4x8x8",
        "state.a=1x3", "state.b=1x3"), r.inputs());
    assertTrue(r.notice().contains("3 KV-cache inputs took the past length 8 on their cache axis"), r.notice());
  }

  @Test
  void onePatternSizesAWholeFamilyAndAnExactNameWins() {
    OpGraph g = DynamicIrs.write(tmp, "kv_cache", DynamicIrs.kvCache());
    Map<String, long[]> given = new java.util.LinkedHashMap<>();
    given.put("past_key_values.*", new long[] {2, 4, 16, 8});
    given.put("past_key_values.1.key", new long[] {2, 4, 5, 8});
    given.put("state.*", new long[] {2, 3});
    InputShapes.Resolution r = new InputShapes(given).resolve(g);
    assertEquals(List.of("new_key=2x4x8x8", "past_key_values.0.key=2x4x16x8", "past_key_values.1.key=2x4x5x8",
        "state.a=2x3", "state.b=2x3"), r.inputs());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new InputShapes(Map.of("cache.*", new long[] {1}))
        .resolve(g)).getMessage().contains("no input 'cache.*'"));
  }

  /** A hidden size the model fixes is not a sequence length: giving it back changes nothing else. */
  @Test
  void theAnnouncedSizeOfAHiddenStateIsAcceptedAsIs() {
    OpGraph g = DynamicIrs.write(tmp, "hidden", DynamicIrs.hiddenTimesWeight(1024, false));
    InputShapes.Resolution announced = InputShapes.NONE.resolve(g);
    assertEquals(List.of("hidden=1x8x1024"), announced.inputs());
    InputShapes.Resolution given = new InputShapes(Map.of("hidden", new long[] {1, 8, 1024})).resolve(g);
    assertEquals(List.of("hidden=1x8x1024"), given.inputs());
    assertEquals(8, given.shapes().sequence());
  }
}
