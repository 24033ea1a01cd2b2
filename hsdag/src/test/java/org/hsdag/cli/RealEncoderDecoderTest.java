package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.testkit.TinyT5;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An encoder-decoder with a KV cache, end to end on the real runtime: the tiny T5 export's three
 * IRs without their {@code .bin}, given stand-in weights by {@code models weights}, then planned
 * and applied across CPU and the f32 test device CPU2 at the sizes hsdag assumes, and with a
 * whole input family sized by one name pattern.
 */
@Tag("openvino")
class RealEncoderDecoderTest {
  private static final String[] REAL = {"--backend", "openvino", "--test-device", "CPU2:precision=f32", "--devices",
      "CPU,CPU2"};

  @TempDir
  Path tmp;

  private static CliRun real(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of(REAL));
    return CliRun.of(all.toArray(String[]::new));
  }

  private Path withStandInWeights(String model) throws Exception {
    Path xml = tmp.resolve(model + ".xml");
    Files.delete(IrReader.defaultBinPath(xml));
    CliRun w = CliRun.of("models", "weights", xml.toString());
    assertEquals(ExitCodes.OK, w.exitCode(), w.out() + w.err());
    assertTrue(Files.isRegularFile(IrReader.defaultBinPath(xml)));
    return xml;
  }

  @Test
  void eachIrGetsStandInWeightsTheRuntimeAcceptsAndPlansAndAppliesOnTheRealBackend() throws Exception {
    TinyT5.write(tmp);
    for (String model : TinyT5.MODELS) {
      Path xml = withStandInWeights(model);
      Path plan = tmp.resolve(model + ".plan.json");
      CliRun p = real("plan", xml.toString(), "-o", plan.toString());
      assertEquals(ExitCodes.OK, p.exitCode(), model + ": " + p.out() + p.err());
      CliRun a = real("apply", xml.toString(), plan.toString(), "--rounds", "1");
      assertEquals(ExitCodes.OK, a.exitCode(), model + ": " + a.out() + a.err());
      assertFalse(a.out().contains("failed"), model + ": " + a.out());
    }
  }

  @Test
  void theKvCacheTakesThePastLengthAndOnePatternSizesTheWholeFamily() throws Exception {
    TinyT5.write(tmp);
    Path xml = withStandInWeights("decoder_with_past_model");
    Path plan = tmp.resolve("plan.json");
    CliRun assumed = real("plan", xml.toString(), "-o", plan.toString());
    assertEquals(ExitCodes.OK, assumed.exitCode(), assumed.out() + assumed.err());
    String all = assumed.out() + assumed.err();
    assertTrue(all.contains("4 KV-cache inputs took the past length 8") && all.contains(
        "4 cross-attention caches took the encoder's length 8 ('encoder_attention_mask')"), all);

    String sizes = String.join(";", "input_ids=2,1", "encoder_attention_mask=2,6",
        "past_key_values.*.decoder.*=2,4,7,8", "past_key_values.*.encoder.*=2,4,6,8");
    CliRun given = real("apply", xml.toString(), plan.toString(), "--rounds", "1", "--input-shape", sizes);
    assertEquals(ExitCodes.OK, given.exitCode(), given.out() + given.err());
    String out = given.out() + given.err();
    assertTrue(out.contains("past_key_values.0.decoder.key=2x4x7x8") || out.contains("2x4x7x8"), out);
    assertFalse(out.contains("failed"), out);
  }

  private static CliRun real(List<String> sizing, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(sizing);
    return real(all.toArray(String[]::new));
  }

  @Test
  void theDecoderWithPastPlansTunesAndAppliesWithDefaultLengthsAndWithGivenOnes() throws Exception {
    TinyT5.write(tmp);
    Path xml = withStandInWeights("decoder_with_past_model");
    for (List<String> sizing : List.of(List.<String>of(), List.of("--sequence-length", "8", "--past-length", "16"))) {
      String tag = sizing.isEmpty() ? "defaults" : "lengths";
      String past = sizing.isEmpty() ? "8" : "16";
      Path plan = tmp.resolve(tag + ".plan.json");
      CliRun p = real(sizing, "plan", xml.toString(), "-o", plan.toString());
      assertEquals(ExitCodes.OK, p.exitCode(), tag + ": " + p.out() + p.err());
      String said = p.out() + p.err();
      assertTrue(said.contains("4 KV-cache inputs took the past length " + past) && said.contains(
          "4 cross-attention caches took the encoder's length 8 ('encoder_attention_mask')"), tag + ": " + said);
      assertTrue(said.contains("past_key_values.0.decoder.key=1x4x" + past + "x8"), tag + ": " + said);
      CliRun t = real(sizing, "tune", xml.toString(), "--budget", "2", "--out", tmp.resolve(tag + "-run").toString());
      assertEquals(ExitCodes.OK, t.exitCode(), tag + ": " + t.out() + t.err());
      CliRun a = real(sizing, "apply", xml.toString(), plan.toString(), "--rounds", "1");
      assertEquals(ExitCodes.OK, a.exitCode(), tag + ": " + a.out() + a.err());
      assertFalse(a.out().contains("failed"), tag + ": " + a.out());
    }
  }

  /** On the real backend the runtime's shape inference judges the sizes, then the memory check; never the 2^36 bound. */
  @Test
  void theRuntimeJudgesTheSizesNotTheSimulatorsBound() throws Exception {
    TinyT5.write(tmp);
    Path decoder = withStandInWeights("decoder_with_past_model");
    CliRun mismatched = real("plan", decoder.toString(), "--input-shape", "past_key_values.*.encoder.*=1,4,16,8");
    assertEquals(ExitCodes.BAD_INPUT, mismatched.exitCode(), mismatched.out() + mismatched.err());
    assertTrue(mismatched.err().contains("OpenVINO's shape inference") && mismatched.err().contains(
        "past_key_values.0.encoder.key"), mismatched.err());

    Path encoder = withStandInWeights("encoder_model");
    CliRun huge = real("plan", encoder.toString(), "--sequence-length", "262144");
    assertEquals(ExitCodes.BAD_INPUT, huge.exitCode(), huge.out() + huge.err());
    assertTrue(huge.err().contains("MemAvailable") && !huge.err().contains("2^36"), huge.err());
  }
}
