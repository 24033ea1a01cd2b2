package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.ModelFormat;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;

/**
 * The MODEL.xml argument every command takes, read in one place so that every command gives the
 * same one-line diagnosis for a wrong file (a directory, a JSON, an ONNX/TensorFlow/PyTorch model,
 * random bytes, an invalid graph; see {@link IrReader} and {@link ModelFormat}).
 */
public final class ModelArgument {
  private ModelArgument() {}

  /** Reads the model (a path or a catalog name); a wrong file is an {@code IrException}, which the CLI prints as bad input. */
  public static OpGraph read(Path model) {
    return new IrReader().read(resolve(model));
  }

  /**
   * The model file {@code given} names: the path itself, or for a bare catalog name that is not a
   * file here (e.g. {@code resnet50}) the catalog's XML in the repository's {@code models/} folder,
   * generated when missing.
   *
   * @throws UserInputException when the catalog model cannot be written
   */
  public static Path resolve(Path given) {
    String name = given.toString();
    if (Files.exists(given) || given.getNameCount() != 1 || !ModelCatalog.names().contains(name)) {
      return given;
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
    if (ModelFormat.detect(model) == ModelFormat.JSON && ModelFormat.detect(placement) == ModelFormat.IR_XML) {
      throw new UserInputException("the arguments are swapped: " + model + " is a placement (JSON) and " + placement
          + " the model; run: " + CommandName.line(command, placement, model));
    }
    return read(model);
  }
}
