package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.hsdag.ir.ModelSource;
import org.hsdag.ir.IrException;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder of converted models, with a double for the runtime (the real conversion is {@code RealOnnxTest}'s):
 * a source is converted once per content and runtime version, in a runtime opened for it and closed; a changed,
 * damaged or differently named source is converted anew; what the reader refuses is one line with its reason.
 */
class ModelConversionTest {
  private static final String VERSION = "2026.4.1-20468-test";

  @TempDir
  Path tmp;

  private final OpGraph graph = TinyGraphs.randomDag(8, 2, 3);
  private final List<ScriptedRuntime> opened = new ArrayList<>();

  private OpenVinoRuntime open() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    opened.add(rt);
    return rt;
  }

  private ModelConversion.Converted convert(Path source) throws IOException {
    return ModelConversion.convert(source, "ONNX", VERSION, tmp.resolve("converted"), this::open);
  }

  @Test
  void aSourceIsConvertedOnceAndItsIrRecordsWhatItCameFrom() throws IOException {
    Path onnx = Files.write(tmp.resolve("net.onnx"), new byte[] {1, 2, 3});
    ModelConversion.Converted first = convert(onnx);
    assertFalse(first.reused());
    assertEquals(List.of("read net.onnx", "save net.xml", "close model", "close runtime"), opened.get(0).calls);
    assertEquals("net.xml", first.xml().getFileName().toString());
    assertEquals(graph.nodeCount(), new IrReader().read(first.xml(), null).nodeCount());
    assertTrue(first.line().startsWith("converted " + onnx.toAbsolutePath() + " (ONNX, SHA-256 039058c6f2c0…) with "
        + "OpenVINO 2026.4.1"), first.line());
    ModelSource s = ModelSource.of(first.xml()).orElseThrow();
    assertEquals(ModelConversion.sha256(onnx), s.sha256());
    assertEquals("2026.4.1", s.runtime());

    ModelConversion.Converted again = convert(onnx);
    assertTrue(again.reused());
    assertEquals(first.xml(), again.xml());
    assertEquals(1, opened.size(), "no runtime opened for a source converted before");
    assertTrue(again.line().contains("the IR OpenVINO 2026.4.1 made of it before"), again.line());
    try (var left = Files.list(tmp.resolve("converted"))) {
      assertEquals(1, left.count(), "no temporary folder left behind");
    }
  }

  @Test
  void aChangedDamagedOrRenamedSourceIsConvertedAnew() throws IOException {
    Path onnx = Files.write(tmp.resolve("net.onnx"), new byte[] {1, 2, 3});
    Path first = convert(onnx).xml();
    Files.write(onnx, new byte[] {1, 2, 4});
    Path changed = convert(onnx).xml();
    assertNotEquals(first.getParent(), changed.getParent());
    assertEquals(2, opened.size());

    Files.delete(IrReader.defaultBinPath(changed));
    ModelConversion.Converted repaired = convert(onnx);
    assertFalse(repaired.reused());
    assertTrue(Files.isRegularFile(IrReader.defaultBinPath(changed)));

    Path copy = Files.copy(onnx, tmp.resolve("copy.onnx"));
    assertEquals("copy.xml", convert(copy).xml().getFileName().toString());
    // Another runtime version makes its own IR of the same file.
    ModelConversion.Converted other = ModelConversion.convert(onnx, "ONNX", "2027.0.0-1-test", tmp.resolve("converted"),
        this::open);
    assertFalse(other.reused());
    assertNotEquals(changed.getParent(), other.xml().getParent());
  }

  @Test
  void theSameContentGivenUnderAnotherPathIsRecordedThere() throws IOException {
    Path onnx = Files.write(tmp.resolve("net.onnx"), new byte[] {5});
    Path moved = Files.createDirectories(tmp.resolve("elsewhere")).resolve("net.onnx");
    Path xml = convert(onnx).xml();
    Files.copy(onnx, moved);
    assertTrue(convert(moved).reused());
    assertEquals(moved.toAbsolutePath().toString(), ModelSource.of(xml).orElseThrow().path());
  }

  @Test
  void whatTheReaderRefusesIsOneLineWithItsReason() throws IOException {
    Path tflite = Files.write(tmp.resolve("bad.tflite"), new byte[] {9, 9});
    Supplier<OpenVinoRuntime> refusing = () -> {
      ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
      rt.readError = "Exception from src/inference/src/cpp/core.cpp:84:\nException from "
          + "src/inference/src/model_reader.cpp:148:\nUnable to read the model: \"bad.tflite\"\n";
      return rt;
    };
    IrException e = assertThrows(IrException.class, () -> ModelConversion.convert(tflite, "TensorFlow Lite", VERSION,
        tmp.resolve("converted"), refusing));
    assertEquals(tflite + ": OpenVINO 2026.4.1 cannot read this TensorFlow Lite model: Unable to read the model: "
        + "\"bad.tflite\"", e.getMessage());
    try (var left = Files.list(tmp.resolve("converted"))) {
      assertEquals(0, left.count(), "nothing kept of a refused file");
    }
  }

  @Test
  void aPaddleModelsParametersArePartOfItsHash() throws IOException {
    Path model = Files.write(tmp.resolve("m.pdmodel"), new byte[] {1});
    String alone = ModelConversion.sha256(model);
    Files.write(tmp.resolve("m.pdiparams"), new byte[] {2});
    assertNotEquals(alone, ModelConversion.sha256(model));
  }
}
