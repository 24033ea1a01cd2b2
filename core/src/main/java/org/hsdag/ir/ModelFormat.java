package org.hsdag.ir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a file given as a model is, judged by its first bytes and its name, so that a wrong file
 * gets a one-line diagnosis instead of an XML parser error. The conversion hints follow OpenVINO's
 * "Convert to OpenVINO IR" guide: {@code ovc} converts ONNX, TensorFlow, TensorFlow Lite and
 * PaddlePaddle files; PyTorch models convert only from Python ({@code openvino.convert_model}).
 */
public enum ModelFormat {
  /** XML text: parsed as OpenVINO IR. */
  IR_XML, MISSING, EMPTY, DIRECTORY,
  /** The {@code .bin} weights of an IR. */
  IR_WEIGHTS, JSON, ONNX, TENSORFLOW, TENSORFLOW_LITE, PADDLE, PYTORCH,
  /** Bytes that are not text. */
  BINARY,
  /** Text that is not XML. */
  TEXT;

  private static final int SNIFF_BYTES = 512;

  /**
   * Whether OpenVINO's runtime reads this format itself ({@code read_model} through the frontends its wheel
   * ships): ONNX, TensorFlow Lite, PaddlePaddle. TensorFlow models are left to {@code ovc}, PyTorch to Python.
   */
  public boolean runtimeReads() {
    return this == ONNX || this == TENSORFLOW_LITE || this == PADDLE;
  }

  /** What the format is called in messages ({@code ONNX}, {@code TensorFlow Lite}, ...). */
  public String displayName() {
    return switch (this) {
      case ONNX -> "ONNX";
      case TENSORFLOW -> "TensorFlow";
      case TENSORFLOW_LITE -> "TensorFlow Lite";
      case PADDLE -> "PaddlePaddle";
      case PYTORCH -> "PyTorch";
      default -> name();
    };
  }

  /** Classifies {@code file}; never throws (an unreadable file is {@link #IR_XML}, left to the reader). */
  public static ModelFormat detect(Path file) {
    if (Files.isDirectory(file)) {
      return Files.isRegularFile(file.resolve("saved_model.pb")) ? TENSORFLOW : DIRECTORY;
    }
    if (!Files.exists(file)) {
      return MISSING;
    }
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(SNIFF_BYTES);
    } catch (IOException e) {
      return IR_XML;
    }
    return detect(file.getFileName().toString().toLowerCase(Locale.ROOT), head);
  }

  static ModelFormat detect(String name, byte[] head) {
    if (head.length == 0) {
      return EMPTY;
    }
    int i = startOfText(head);
    if (i < head.length && head[i] == '<') {
      return IR_XML;
    }
    if (i < head.length && (head[i] == '{' || head[i] == '[')) {
      return JSON;
    }
    String ext = name.lastIndexOf('.') >= 0 ? name.substring(name.lastIndexOf('.') + 1) : "";
    switch (ext) {
      case "onnx" -> {
        return ONNX;
      }
      case "pb", "pbtxt", "meta" -> {
        return TENSORFLOW;
      }
      case "tflite" -> {
        return TENSORFLOW_LITE;
      }
      case "pdmodel" -> {
        return PADDLE;
      }
      case "pt", "pth", "pt2", "ptl" -> {
        return PYTORCH;
      }
      case "bin" -> {
        return IR_WEIGHTS;
      }
      case "json" -> {
        return JSON;
      }
      default -> {
        // judged by content below
      }
    }
    if (head.length >= 8 && head[4] == 'T' && head[5] == 'F' && head[6] == 'L' && head[7] == '3') {
      return TENSORFLOW_LITE;
    }
    // torch.save writes a ZIP archive (or, before PyTorch 1.6, a pickle: 0x80 then protocol 2..5).
    if ((head.length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4)
        || (head.length >= 2 && (head[0] & 0xff) == 0x80 && head[1] >= 2 && head[1] <= 5)) {
      return PYTORCH;
    }
    return isText(head) ? TEXT : BINARY;
  }

  /** Index of the first byte after a UTF-8 byte-order mark and whitespace. */
  private static int startOfText(byte[] b) {
    int i = b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF ? 3 : 0;
    if (b.length >= 2
        && (((b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) || ((b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE))) {
      // UTF-16 with a byte-order mark: find the first non-blank code unit.
      boolean bigEndian = (b[0] & 0xff) == 0xFE;
      for (int k = 2; k + 1 < b.length; k += 2) {
        int c = bigEndian ? b[k + 1] : b[k];
        int other = bigEndian ? b[k] : b[k + 1];
        if (other != 0 || !Character.isWhitespace(c)) {
          return other == 0 && c == '<' ? indexOfByte(b, (byte) '<', k) : b.length;
        }
      }
      return b.length;
    }
    while (i < b.length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
      i++;
    }
    return i;
  }

  private static int indexOfByte(byte[] b, byte x, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return b.length;
  }

  /** No NUL and no C0 control other than tab, CR, LF, FF: what any text file satisfies. */
  private static boolean isText(byte[] head) {
    for (byte b : head) {
      if (b >= 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f') {
        return false;
      }
    }
    return true;
  }

  /**
   * Throws the one-line diagnosis when {@code file} is not something {@link IrReader} can read.
   *
   * @throws IrException naming the file, what it is and, for other frameworks, how to convert it
   */
  public static void requireIrXml(Path file) {
    ModelFormat f = detect(file);
    if (f != IR_XML && f != MISSING) {
      throw new IrException(file + ": " + f.diagnosis(file));
    }
  }

  /** Why {@code file} of this format is not an IR, and what to do. */
  String diagnosis(Path file) {
    String ir = "not an OpenVINO IR model (.xml)";
    return switch (this) {
      case IR_XML, MISSING -> throw new IllegalStateException(name());
      case EMPTY -> "is empty, " + ir;
      case DIRECTORY -> "is a directory, " + ir + irFilesIn(file);
      case IR_WEIGHTS -> "is the weights (.bin) of an IR; pass the model's .xml instead"
          + (Files.isRegularFile(xmlBeside(file)) ? " (" + xmlBeside(file) + ")" : "");
      case JSON -> "is a JSON file, " + ir;
      case ONNX -> "is an ONNX model, " + ir + "; convert it with OpenVINO's converter: ovc " + file;
      case TENSORFLOW -> "is a TensorFlow model, " + ir + "; convert it with OpenVINO's converter: ovc " + file;
      case TENSORFLOW_LITE ->
        "is a TensorFlow Lite model, " + ir + "; convert it with OpenVINO's converter: ovc " + file;
      case PADDLE -> "is a PaddlePaddle model, " + ir + "; convert it with OpenVINO's converter: ovc " + file;
      case PYTORCH -> "is a PyTorch file, " + ir + "; PyTorch models convert from Python only: "
          + "ov.save_model(ov.convert_model(model), \"model.xml\") with 'import openvino as ov'";
      case BINARY -> "is a binary file, " + ir;
      case TEXT -> "is text but not XML, so " + ir;
    };
  }

  private static Path xmlBeside(Path bin) {
    String f = bin.getFileName().toString();
    return bin.resolveSibling(f.substring(0, f.length() - ".bin".length()) + ".xml");
  }

  private static String irFilesIn(Path dir) {
    List<String> xml = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.xml")) {
      for (Path p : s) {
        xml.add(p.getFileName().toString());
      }
    } catch (IOException e) {
      return "";
    }
    if (xml.isEmpty()) {
      return "";
    }
    xml.sort(null);
    return "; it holds " + String.join(", ", xml.subList(0, Math.min(3, xml.size()))) + (xml.size() > 3 ? ", ..." : "");
  }
}
