package org.hsdag.cli;

import java.nio.file.Path;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.ModelFormat;
import org.hsdag.ir.OpGraph;

/**
 * The MODEL.xml argument every command takes, read in one place so that every command gives the
 * same one-line diagnosis for a wrong file (a directory, a JSON, an ONNX/TensorFlow/PyTorch model,
 * random bytes, an invalid graph; see {@link IrReader} and {@link ModelFormat}).
 */
final class ModelArgument {
  private ModelArgument() {}

  /** Reads the model; a wrong file is an {@code IrException}, which the CLI prints as bad input. */
  static OpGraph read(Path model) {
    return new IrReader().read(model);
  }

  /**
   * Reads the model of a command that also takes a placement file ({@code apply MODEL PLACEMENT}),
   * first refusing the two in the wrong order with a message that says so.
   */
  static OpGraph readWithPlacement(Path model, Path placement, String command) {
    if (ModelFormat.detect(model) == ModelFormat.JSON && ModelFormat.detect(placement) == ModelFormat.IR_XML) {
      throw new UserInputException("the arguments are swapped: " + model + " is a placement (JSON) and " + placement
          + " the model; run: hsdag " + command + " " + placement + " " + model);
    }
    return read(model);
  }
}
