package org.hsdag.cli;

import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.sim.InputShapes;
import org.hsdag.sim.ShapeAssumption;
import picocli.CommandLine.Option;

/** The {@code --input-shape} picocli mixin of every command that measures or estimates latency. */
public final class InputShapeOptions {
  /** No {@code --input-shape}, for a model without dynamic inputs. */
  static final Resolved NONE = new Resolved(Map.of(),
      new InputShapes.Resolution(ShapeAssumption.DEFAULT, java.util.List.of(), false, null));

  @Option(names = "--input-shape", paramLabel = "NAME=D1,D2;...",
      description = "Sizes of dynamic inputs, e.g. input_ids=1,128 (default: batch 1, 8 tokens, and hsdag says so).")
  String inputShape;

  /**
   * The given sizes and what they mean for the simulator.
   *
   * @param given the parsed option, by input name
   * @param resolution the simulator's shape assumption and each dynamic input's size under it
   */
  public record Resolved(Map<String, long[]> given, InputShapes.Resolution resolution) {}

  /** The option as given, or null. */
  public String text() {
    return inputShape;
  }

  /** Parses the option and resolves it against {@code graph}; a bad value is bad input. */
  public Resolved resolve(OpGraph graph) {
    return resolve(inputShape, graph);
  }

  /** Parses {@code option} (the {@code --input-shape} syntax, null for none) and resolves it against {@code graph}. */
  public static Resolved resolve(String inputShape, OpGraph graph) {
    try {
      Map<String, long[]> given = OpenVinoOptions.parseInputShapes(inputShape);
      return new Resolved(given, new InputShapes(given).resolve(graph));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new UserInputException(m.startsWith("--input-shape") ? m : "--input-shape: " + m);
    }
  }
}
