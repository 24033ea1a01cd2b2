package org.hsdag.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file that is not an IR gets one line saying what it is, and for other frameworks how to convert it. */
class ModelFormatTest {
  @TempDir
  Path dir;

  private String diagnosis(Path file) {
    return assertThrows(IrException.class, () -> new IrReader().read(file)).getMessage();
  }

  private Path file(String name, byte[] bytes) throws IOException {
    Path f = dir.resolve(name);
    Files.createDirectories(f.getParent());
    Files.write(f, bytes);
    return f;
  }

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  @Test
  void aDirectorySaysSoAndNamesTheModelsInIt() throws IOException {
    Path models = Files.createDirectory(dir.resolve("models"));
    assertEquals(models + ": is a directory, not an OpenVINO IR model (.xml)", diagnosis(models));
    file("models/b.xml", "<net/>".getBytes(StandardCharsets.UTF_8));
    file("models/a.xml", "<net/>".getBytes(StandardCharsets.UTF_8));
    assertEquals(models + ": is a directory, not an OpenVINO IR model (.xml); it holds a.xml, b.xml",
        diagnosis(models));
  }

  @Test
  void otherFrameworksAreRecognisedWithHowToConvert() throws IOException {
    Path onnx = file("model.onnx", bytes(0x08, 0x07, 0x12, 0x07));
    assertEquals(
        onnx + ": is an ONNX model, not an OpenVINO IR model (.xml); convert it with OpenVINO's converter: ovc " + onnx,
        diagnosis(onnx));
    Path pb = file("frozen.pb", bytes(0x0a, 0x10, 0x0a));
    assertEquals(
        pb + ": is a TensorFlow model, not an OpenVINO IR model (.xml); convert it with OpenVINO's converter: ovc "
            + pb,
        diagnosis(pb));
    Path saved = Files.createDirectory(dir.resolve("saved"));
    file("saved/saved_model.pb", bytes(0x08, 0x01));
    assertEquals(
        saved + ": is a TensorFlow model, not an OpenVINO IR model (.xml); convert it with OpenVINO's converter: ovc "
            + saved,
        diagnosis(saved));
    Path tflite = file("m.dat", bytes(0x1c, 0, 0, 0, 'T', 'F', 'L', '3', 0));
    assertEquals(
        tflite + ": is a TensorFlow Lite model, not an OpenVINO IR model (.xml); convert it with OpenVINO's converter: "
            + "ovc " + tflite,
        diagnosis(tflite));
    String pytorch = ": is a PyTorch file, not an OpenVINO IR model (.xml); PyTorch models convert from Python only: "
        + "ov.save_model(ov.convert_model(model), \"model.xml\") with 'import openvino as ov'";
    Path zip = file("weights.dat", bytes('P', 'K', 3, 4, 0, 0));
    assertEquals(zip + pytorch, diagnosis(zip));
    Path pickle = file("old.dat", bytes(0x80, 0x02, 'c'));
    assertEquals(pickle + pytorch, diagnosis(pickle));
    Path pt = file("model.pt", bytes(1, 2, 3));
    assertEquals(pt + pytorch, diagnosis(pt));
  }

  @Test
  void theWeightsFileAndOtherWrongFiles() throws IOException {
    Path xml = file("m.xml", "<net/>".getBytes(StandardCharsets.UTF_8));
    Path bin = file("m.bin", bytes(0, 0, 0x80, 0x3f));
    assertEquals(bin + ": is the weights (.bin) of an IR; pass the model's .xml instead (" + xml + ")", diagnosis(bin));
    Path json = file("best.xml", "  {\"conv\": \"GPU.1\"}".getBytes(StandardCharsets.UTF_8));
    assertEquals(json + ": is a JSON file, not an OpenVINO IR model (.xml)", diagnosis(json));
    Path text = file("notes.xml", "hello\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(text + ": is text but not XML, so not an OpenVINO IR model (.xml)", diagnosis(text));
    Path empty = file("empty.xml", new byte[0]);
    assertEquals(empty + ": is empty, not an OpenVINO IR model (.xml)", diagnosis(empty));
    Path binary = file("noise.xml", bytes(0x13, 0x00, 0xff, 0x42));
    assertEquals(binary + ": is a binary file, not an OpenVINO IR model (.xml)", diagnosis(binary));
  }

  @Test
  void xmlIsLeftToTheReaderWhateverItsName() throws IOException {
    assertEquals(ModelFormat.IR_XML,
        ModelFormat.detect(file("model.onnx.txt", "\uFEFF <?xml version=\"1.0\"?>".getBytes(
            StandardCharsets.UTF_8))));
    assertEquals(ModelFormat.IR_XML, ModelFormat.detect(file("u16.xml", bytes(0xFF, 0xFE, '<', 0, 'n', 0))));
    assertEquals(ModelFormat.MISSING, ModelFormat.detect(dir.resolve("none.xml")));
  }
}
