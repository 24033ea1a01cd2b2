package org.hsdag.cli;

import java.util.Map;
import org.hsdag.backend.InputShapes;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoOptions;
import picocli.CommandLine.Option;

/** The {@code --input-shape} picocli mixin of every command that measures or estimates latency. */
public final class InputShapeOptions {
  @Option(names = "--input-shape", paramLabel = "NAME=D1,D2;...",
      description = "Sizes of dynamic inputs, e.g. input_ids=1,128 (default: batch 1, 8 tokens, and hsdag says so).")
  String inputShape;

  /** The option as given, or null. */
  public String text() {
    return inputShape;
  }

  /** Parses the option and resolves it against {@code graph}; a bad value is bad input. */
  public InputShapes.Resolution resolve(OpGraph graph) {
    return resolve(inputShape, graph);
  }

  /** Parses {@code option} (the {@code --input-shape} syntax, null for none) and resolves it against {@code graph}. */
  public static InputShapes.Resolution resolve(String inputShape, OpGraph graph) {
    try {
      Map<String, long[]> given = OpenVinoOptions.parseInputShapes(inputShape);
      return new InputShapes(given).resolve(graph);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new UserInputException(m.startsWith("--input-shape") ? m : "--input-shape: " + m);
    }
  }
}
