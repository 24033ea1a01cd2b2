package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.io.IoErrors;
import java.util.List;
import org.hsdag.ir.IrException;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.ModelCheck;
import org.hsdag.ir.ModelFormat;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;

/**
 * The MODEL argument every command takes, read in one place so that every command gives the
 * same one-line diagnosis for a wrong file (a directory, a JSON, a TensorFlow/PyTorch model,
 * random bytes, an invalid graph; see {@link IrReader} and {@link ModelFormat}), and reads an ONNX,
 * TensorFlow Lite or PaddlePaddle file or a one-model folder the same way ({@link ModelSources}).
 */
public final class ModelArgument {
  private ModelArgument() {}

  /**
   * Reads the model (a path or a catalog name) and runs {@link ModelCheck}'s checks, the ones every
   * backend makes; a wrong file is an {@code IrException}, which the CLI prints as bad input.
   */
  public static OpGraph read(Path model) {
    Checked c = readLenient(model, null);
    if (!c.problems().isEmpty()) {
      throw new IrException(c.problems().get(0));
    }
    return c.graph();
  }

  /**
   * The model and its problems, first the one a command reports ({@code inspect --lenient} lists them all).
   *
   * @param weightsFor what needs the {@code .bin}, said when it is missing; null when nothing runs the model
   */
  static Checked readLenient(Path model, String weightsFor) {
    Path xml = resolve(model);
    // The weights are checked with the rest, not by the reader, so that a lenient view still shows the model.
    OpGraph graph = new IrReader().read(xml, null);
    return new Checked(graph, ModelCheck.problems(graph, xml, weightsFor, weightsFix(xml)));
  }

  /** The command that writes stand-in weights for {@code xml}, said with weights that are not its own. */
  static String weightsFix(Path xml) {
    return CommandName.line("models", "weights", xml, "--force");
  }

  /** A model as read and what is wrong with it (nothing: it reads on every backend). */
  record Checked(OpGraph graph, List<String> problems) {
    Checked {
      problems = List.copyOf(problems);
    }
  }

  /**
   * The model file {@code given} names: the path itself, or for a bare catalog name that is not a
   * file here (e.g. {@code resnet50}) the catalog's XML in the repository's {@code models/} folder,
   * generated when missing.
   *
   * @throws UserInputException when the catalog model cannot be written
   */
  public static Path resolve(Path given) {
    return resolve(given, line -> {
      System.err.println("hsdag: " + line);
      System.err.flush();
    });
  }

  /**
   * {@link #resolve(Path)}, saying in {@code notices} which model a folder or a converted file stands for (an ONNX,
   * TensorFlow Lite or PaddlePaddle file becomes the IR the runtime makes of it; {@link ModelSources}).
   */
  public static Path resolve(Path given, java.util.function.Consumer<String> notices) {
    String name = given.toString();
    if (Files.exists(given) || given.getNameCount() != 1 || !ModelCatalog.names().contains(name)) {
      return ModelSources.toIr(given, notices);
    }
    Path xml = ModelCatalog.xmlPath(name);
    if (!Files.isRegularFile(xml)) {
      try {
        ModelCatalog.get(name).build().writeTo(xml, ModelCatalog.DEFAULT_SEED);
      } catch (IOException e) {
        throw new UserInputException(
            xml + ": cannot write the catalog model " + name + " (" + IoErrors.describe(e) + ")");
      }
    }
    return xml;
  }

  /**
   * Reads the model of a command that also takes a placement file ({@code apply MODEL PLACEMENT}),
   * first refusing the two in the wrong order with a message that says so.
   */
  static OpGraph readWithPlacement(Path model, Path placement, String command) {
    ModelFormat second = ModelFormat.detect(placement);
    if (ModelFormat.detect(model) == ModelFormat.JSON && (second == ModelFormat.IR_XML || second.runtimeReads())) {
      throw new UserInputException("the arguments are swapped: " + model + " is a placement (JSON) and " + placement
          + " the model; run: " + CommandName.line(command, placement, model));
    }
    return read(model);
  }
}
