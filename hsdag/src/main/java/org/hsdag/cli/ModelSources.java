package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.ModelFormat;
import org.hsdag.openvino.ModelConversion;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.openvino.OpenVinoBackend;

/**
 * A model given in another form than an IR file: a folder holding one model (an optimum-intel export), or a file
 * OpenVINO's own reader reads (ONNX, TensorFlow Lite, PaddlePaddle), converted once through the provisioned runtime
 * and kept as IR by {@link ModelConversion}. Everything else is left to the IR reader and its diagnosis.
 */
final class ModelSources {
  private ModelSources() {}

  /**
   * The IR hsdag reads for {@code given}: {@code given} itself, the only model in a folder, or the IR the runtime
   * makes of a file in another framework's format ({@code notices} gets one line saying which).
   *
   * @throws UserInputException for a folder of several models, or a format the runtime reads where it is missing
   */
  static Path toIr(Path given, Consumer<String> notices) {
    return toIr(given, notices, OpenVinoBackend.availability(), ModelConversion.defaultDir());
  }

  /** {@link #toIr(Path, Consumer)} with the runtime {@code runtime} says is here, keeping IR in {@code dir}. */
  static Path toIr(Path given, Consumer<String> notices, OpenVinoAvailability runtime, Path dir) {
    Path file = given;
    if (Files.isDirectory(given) && ModelFormat.detect(given) == ModelFormat.DIRECTORY) {
      file = only(given, notices);
    }
    ModelFormat format = ModelFormat.detect(file);
    if (!format.runtimeReads()) {
      return file;
    }
    if (!runtime.available()) {
      String article = format == ModelFormat.ONNX ? "an " : "a ";
      throw new UserInputException(
          file + ": is " + article + format.displayName() + " model, which hsdag reads through "
              + "OpenVINO's own reader, and OpenVINO is not available here (" + runtime.reason() + "); install it: "
              + CommandName.line("openvino", "install"));
    }
    try {
      ModelConversion.Converted c = ModelConversion.convert(file, format.displayName(), runtime.version(), dir,
          ModelConversion.freshChild());
      notices.accept(c.line());
      return c.xml();
    } catch (IOException e) {
      throw new UserInputException(dir + ": cannot keep the IR converted from " + file + " (" + IoErrors.describe(e)
          + ")");
    }
  }

  /** The one model in {@code dir}, or {@code dir} itself when it holds none (the reader then says what it is). */
  private static Path only(Path dir, Consumer<String> notices) {
    List<Path> models = modelsIn(dir);
    if (models.isEmpty()) {
      return dir;
    }
    if (models.size() > 1) {
      List<String> names = models.stream().map(p -> p.getFileName().toString()).toList();
      throw new UserInputException(dir + ": holds " + models.size() + " models (" + String.join(", ", names)
          + "); give one of them, e.g. " + models.get(0));
    }
    notices.accept(dir + ": the model in it is " + models.get(0).getFileName());
    return models.get(0);
  }

  /**
   * The models in {@code dir} (not its sub-folders), sorted: IR files and files the runtime reads. An optimum-intel
   * export also holds its tokenizer as IR ({@code openvino_tokenizer.xml}, {@code openvino_detokenizer.xml}, as
   * optimum-intel names them in {@code optimum/intel/openvino/utils.py}): those take text, not tensors, and are
   * not models to place.
   */
  static List<Path> modelsIn(Path dir) {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!Files.isRegularFile(p) || name.startsWith("openvino_tokenizer")
            || name.startsWith("openvino_detokenizer")) {
          continue;
        }
        ModelFormat f = ModelFormat.detect(p);
        if ((f == ModelFormat.IR_XML && name.endsWith(".xml")) || f.runtimeReads()) {
          out.add(p);
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    out.sort(null);
    return out;
  }
}
