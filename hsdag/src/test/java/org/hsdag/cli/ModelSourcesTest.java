package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models given as a folder or in another framework's format: an optimum-intel export with one model is that model
 * (its tokenizers are not models to place), one with several asks for one in one line, exit 2; a file the runtime
 * reads, on a machine without the runtime, names what to install. The conversion itself is {@code RealOnnxTest}'s.
 */
class ModelSourcesTest {
  private static final OpenVinoAvailability MISSING = new OpenVinoAvailability(OpenVinoAvailability.Status.NOT_BUILT,
      "", "hsdag was built without its native OpenVINO part", "run './hsdag.sh openvino install'");

  @TempDir
  Path tmp;

  @Test
  void anExportFolderWithOneModelIsThatModel() throws IOException {
    Path export = Files.createDirectories(tmp.resolve("distilbert-ov"));
    Path model = TestModels.twoBranch(tmp);
    Files.copy(model, export.resolve("openvino_model.xml"));
    Files.copy(model.resolveSibling("tiny_two_branch.bin"), export.resolve("openvino_model.bin"));
    Files.copy(model, export.resolve("openvino_tokenizer.xml"));
    Files.copy(model, export.resolve("openvino_detokenizer.xml"));
    Files.writeString(export.resolve("config.json"), "{\"model_type\": \"distilbert\"}");
    List<String> notices = new ArrayList<>();
    assertEquals(export.resolve("openvino_model.xml"), ModelSources.toIr(export, notices::add, MISSING, tmp));
    assertEquals(List.of(export + ": the model in it is openvino_model.xml"), notices);

    CliRun r = CliRun.of("inspect", export.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("nodes / edges"), r.out());
  }

  @Test
  void anExportFolderWithSeveralModelsAsksForOne() throws IOException {
    Path export = Files.createDirectories(tmp.resolve("t5-ov"));
    Path model = TestModels.twoBranch(tmp);
    for (String name : new String[] {"openvino_encoder_model", "openvino_decoder_model",
        "openvino_decoder_with_past_model", "openvino_tokenizer"}) {
      Files.copy(model, export.resolve(name + ".xml"));
    }
    CliRun r = CliRun.of("tune", export.toString(), "--backend", "sim", "--out", tmp.resolve("run").toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals("hsdag: " + export + ": holds 3 models (openvino_decoder_model.xml, "
        + "openvino_decoder_with_past_model.xml, openvino_encoder_model.xml); give one of them, e.g. "
        + export.resolve("openvino_decoder_model.xml"), r.err().strip());
    assertTrue(!Files.exists(tmp.resolve("run")), "nothing made for a refused model");
  }

  @Test
  void withoutTheRuntimeAFileItWouldReadNamesWhatToInstall() throws IOException {
    Path onnx = Files.write(tmp.resolve("model.onnx"), new byte[] {0x08, 0x07, 0x12, 0x07});
    Path paddle = Files.write(tmp.resolve("model.pdmodel"), new byte[] {0x0a, 0x01});
    for (Path file : List.of(onnx, paddle)) {
      UserInputException e = assertThrows(UserInputException.class,
          () -> ModelSources.toIr(file, n -> {}, MISSING, tmp.resolve("converted")));
      assertEquals(file + ": is " + (file == onnx ? "an ONNX" : "a PaddlePaddle") + " model, which hsdag reads "
          + "through OpenVINO's own reader, and OpenVINO is not available here (hsdag was built without its native "
          + "OpenVINO part); install it: hsdag openvino install", e.getMessage());
      assertTrue(!Files.exists(tmp.resolve("converted")));
    }
  }
}
