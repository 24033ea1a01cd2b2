package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.InputMemory;
import org.hsdag.ir.AttentionPartners;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.DynamicIrs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KV caches sized from their attention, whatever the inputs are called: a self-attention's past
 * (concatenated with the new keys) takes the past length, a cross-attention's cache takes the length
 * of the mask on the same scores; one sequence length and one past length size the whole family,
 * and a size given by name wins over both.
 */
class AttentionCacheSizesTest {
  @TempDir
  Path tmp;

  private OpGraph renamed() {
    return DynamicIrs.write(tmp, "renamed_kv_cache", DynamicIrs.renamedKvCache());
  }

  @Test
  void eachCacheIsFoundFromItsAttentionNotItsName() {
    OpGraph g = renamed();
    AttentionPartners.Partner crossKey = AttentionPartners.of(g, g.indexOf("Parameter_2")).orElseThrow();
    assertEquals(2, crossKey.axis());
    assertEquals(g.indexOf("Parameter_0"), crossKey.mask(), "the mask added to the same scores");
    AttentionPartners.Partner crossValue = AttentionPartners.of(g, g.indexOf("Parameter_3")).orElseThrow();
    assertEquals(new AttentionPartners.Partner(2, "MatMul 'cross_out'", g.indexOf("Parameter_0")), crossValue);
    assertTrue(AttentionPartners.of(g, g.indexOf("Parameter_1")).isEmpty(), "the query is no key or value");
    assertTrue(AttentionPartners.of(g, g.indexOf("Parameter_0")).isEmpty(), "a mask is no key or value");
  }

  @Test
  void byDefaultThePastAndTheEncoderLengthAreTheSequenceLength() {
    InputShapes.Resolution r = InputShapes.NONE.resolve(renamed());
    assertEquals(List.of("Parameter_0=1x8", "Parameter_1=1x4x1x8", "Parameter_2=1x4x8x8", "Parameter_3=1x4x8x8",
        "Parameter_4=1x4x8x8", "Parameter_5=1x4x8x8"), r.inputs());
    assertTrue(r.notice().contains("2 KV-cache inputs took the past length 8 on their cache axis, 2 cross-attention "
        + "caches took the encoder's length 8 ('Parameter_0') from their attention"), r.notice());
    assertTrue(r.notice().contains("--past-length N, --sequence-length N"), r.notice());
  }

  @Test
  void oneSequenceLengthAndOnePastLengthSizeTheWholeFamily() {
    InputShapes.Resolution r = InputShapes.NONE.withLengths(6, 16).resolve(renamed());
    assertEquals(List.of("Parameter_0=1x6", "Parameter_1=1x4x1x8", "Parameter_2=1x4x6x8", "Parameter_3=1x4x6x8",
        "Parameter_4=1x4x16x8", "Parameter_5=1x4x16x8"), r.inputs());
    assertTrue(r.assumed());
    assertTrue(r.notice().contains("took the past length 16") && r.notice().contains("encoder's length 6"),
        r.notice());
  }

  @Test
  void aSizeGivenByNameWinsAndTheCrossCacheFollowsItsMask() {
    Map<String, long[]> given = new LinkedHashMap<>();
    given.put("Parameter_0", new long[] {1, 5});
    given.put("Parameter_4", new long[] {1, 4, 3, 8});
    InputShapes.Resolution r = new InputShapes(given).withLengths(6, 16).resolve(renamed());
    assertEquals(List.of("Parameter_0=1x5", "Parameter_1=1x4x1x8", "Parameter_2=1x4x5x8", "Parameter_3=1x4x5x8",
        "Parameter_4=1x4x3x8", "Parameter_5=1x4x16x8"), r.inputs());
  }

  /**
   * An optimum-intel T5 export: the encoder's mask reaches the cross-attention's scores 9 ops away
   * (inverted, scaled, sliced, broadcast), and its inputs' tensor names are not their ops' names.
   * The cross cache takes the mask's length, and every input is announced by the tensor name that
   * OpenVINO and {@code --input-shape} take, so the announced sizes paste back as they are.
   */
  @Test
  void aT5ExportsCrossCacheTakesTheMasksLengthAndInputsAreNamedAsOpenVinoNamesThem() {
    OpGraph g = DynamicIrs.write(tmp, "t5_kv_cache", DynamicIrs.t5KvCache());
    assertEquals(g.indexOf("attention_mask"), AttentionPartners.of(g, g.indexOf("Parameter_2")).orElseThrow().mask());
    InputShapes.Resolution r = new InputShapes(Map.of("encoder_attention_mask", new long[] {1, 5})).withLengths(6, 16)
        .resolve(g);
    assertEquals(List.of("encoder_attention_mask=1x5", "query=1x4x1x8", "past_key_values.0.encoder.key=1x4x5x8",
        "past_key_values.0.encoder.value=1x4x5x8", "past_key_values.0.decoder.key=1x4x16x8",
        "past_key_values.0.decoder.value=1x4x16x8"), r.inputs());
    assertTrue(r.notice().contains("2 cross-attention caches took the encoder's length 5 ('encoder_attention_mask')"),
        r.notice());
    Map<String, long[]> pasted = new LinkedHashMap<>();
    for (String input : r.inputs()) {
      String[] nameDims = input.split("=", -1);
      pasted.put(nameDims[0], java.util.Arrays.stream(nameDims[1].split("x", -1)).mapToLong(Long::parseLong).toArray());
    }
    InputShapes.Resolution again = new InputShapes(pasted).resolve(g);
    assertEquals(r.inputs(), again.inputs());
    assertTrue(again.notice().startsWith("dynamic inputs measured as encoder_attention_mask=1x5"), again.notice());
  }

  /**
   * A T5 decoder without a cache: the encoder's states reach the cross-attention only once
   * projected, and take the encoder's length, the mask's; the token ids keep the decoder's.
   */
  @Test
  void aDecodersEncoderStatesTakeTheMasksLengthAndItsTokenIdsTheSequenceLength() {
    OpGraph g = DynamicIrs.write(tmp, "t5_decoder", DynamicIrs.t5Decoder());
    AttentionPartners.Partner states = AttentionPartners.of(g, g.indexOf("Parameter_7")).orElseThrow();
    assertEquals(new AttentionPartners.Partner(1, "MatMul 'cross_qk'", g.indexOf("attention_mask")), states);
    InputShapes.Resolution byMask = new InputShapes(Map.of("encoder_attention_mask", new long[] {1, 12}))
        .resolve(g);
    assertEquals(List.of("encoder_attention_mask=1x12", "input_ids=1x8", "encoder_hidden_states=1x12x32"),
        byMask.inputs());
    assertTrue(byMask.notice().contains("1 encoder state input took the encoder's length 12 "
        + "('encoder_attention_mask') from the attention it feeds"), byMask.notice());
    InputShapes.Resolution byLength = InputShapes.NONE.withLengths(5, 0).resolve(g);
    assertEquals(List.of("encoder_attention_mask=1x5", "input_ids=1x5", "encoder_hidden_states=1x5x32"),
        byLength.inputs());
  }

  /** The 2^36-element bound is the simulator's: a resolution keeps the sizes, and only the simulator's check refuses them. */
  @Test
  void sizesBeyondTheSimulatorsBoundResolveAndOnlyItsCheckRefusesThem() {
    OpGraph g = renamed();
    InputShapes.Resolution fits = InputShapes.NONE.withLengths(6, 16).resolve(g);
    assertNull(fits.simulatorBoundProblem(g));
    InputShapes.Resolution huge = InputShapes.NONE.withLengths(6, 1L << 35).resolve(g);
    assertTrue(huge.inputs().contains("Parameter_4=1x4x34359738368x8"), huge.inputs().toString());
    String m = huge.simulatorBoundProblem(g);
    assertTrue(m != null && m.startsWith("--input-shape: with Parameter_0=1x6") && m.contains("more than 2^36 elements")
        && m.endsWith("(the simulator's bound)"), m);
    long bytes = InputMemory.estimate(g, huge.shapes()).totalBytes();
    assertTrue(bytes > 1L << 40 && bytes < Long.MAX_VALUE, "the memory estimate neither wraps nor saturates: " + bytes);
  }
}
