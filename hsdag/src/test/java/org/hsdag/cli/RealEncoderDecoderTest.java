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
    assertTrue(all.contains("8 KV-cache inputs took the past length 8"), all);

    String sizes = String.join(";", "input_ids=2,1", "encoder_attention_mask=2,6",
        "past_key_values.*.decoder.*=2,4,7,8", "past_key_values.*.encoder.*=2,4,6,8");
    CliRun given = real("apply", xml.toString(), plan.toString(), "--rounds", "1", "--input-shape", sizes);
    assertEquals(ExitCodes.OK, given.exitCode(), given.out() + given.err());
    String out = given.out() + given.err();
    assertTrue(out.contains("past_key_values.0.decoder.key=2x4x7x8") || out.contains("2x4x7x8"), out);
    assertFalse(out.contains("failed"), out);
  }
}
