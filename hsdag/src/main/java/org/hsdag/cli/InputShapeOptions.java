package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.InputShapes;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoOptions;
import picocli.CommandLine.Option;

/**
 * The input-sizing picocli mixin of every command that measures or estimates latency: {@code
 * --input-shape} sizes named inputs (or a name pattern's family); {@code --sequence-length} and
 * {@code --past-length} size whole families at once (sequence axes of token ids, masks and encoder
 * states; the past axis of KV caches). A named size wins over a length.
 */
public final class InputShapeOptions {
  @Option(names = "--input-shape", paramLabel = "NAME=D1,D2;...",
      description = "Sizes of dynamic inputs, e.g. input_ids=1,128 or 'past_key_values.*=1,16,32,64' "
          + "(default: batch 1, 8 tokens, and hsdag says so); wins over the lengths below.")
  String inputShape;

  @Option(names = "--sequence-length", paramLabel = "N",
      description = "Length of every sequence axis no --input-shape sizes: token ids, masks, encoder states and "
          + "cross-attention caches (default: 8).")
  Long sequenceLength;

  @Option(names = "--past-length", paramLabel = "N",
      description = "Length of the past axis of every KV-cache input no --input-shape sizes (default: the "
          + "sequence length).")
  Long pastLength;

  /** The {@code --input-shape} as given, or null. */
  public String text() {
    return inputShape;
  }

  /** {@code --sequence-length}, 0 when not given. */
  public long sequenceLength() {
    return sequenceLength == null ? 0 : sequenceLength;
  }

  /** {@code --past-length}, 0 when not given. */
  public long pastLength() {
    return pastLength == null ? 0 : pastLength;
  }

  /** Parses the options and resolves them against {@code graph}; a bad value is bad input. */
  public InputShapes.Resolution resolve(OpGraph graph) {
    if (sequenceLength != null) {
      OptionRules.requireAtLeast("--sequence-length", sequenceLength, 1);
    }
    if (pastLength != null) {
      OptionRules.requireAtLeast("--past-length", pastLength, 1);
    }
    return resolve(inputShape, sequenceLength(), pastLength(), graph);
  }

  /** Parses {@code inputShape} (the {@code --input-shape} syntax, null for none) and resolves it against {@code graph}. */
  public static InputShapes.Resolution resolve(String inputShape, OpGraph graph) {
    return resolve(inputShape, 0, 0, graph);
  }

  /**
   * Resolves {@code --input-shape} {@code inputShape} (null for none) with {@code --sequence-length}
   * {@code sequence} and {@code --past-length} {@code past} (0: not given) against {@code graph}.
   */
  public static InputShapes.Resolution resolve(String inputShape, long sequence, long past, OpGraph graph) {
    try {
      Map<String, long[]> given = OpenVinoOptions.parseInputShapes(inputShape);
      return new InputShapes(given).withLengths(sequence, past).resolve(graph);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new UserInputException(m.startsWith("--input-shape") ? m : "--input-shape: " + m);
    }
  }

  /** The options as given, as command-line arguments (for a suggested command); empty when none was. */
  public static List<String> arguments(String inputShape, long sequence, long past) {
    List<String> args = new ArrayList<>();
    if (inputShape != null) {
      args.addAll(List.of("--input-shape", inputShape));
    }
    if (sequence > 0) {
      args.addAll(List.of("--sequence-length", Long.toString(sequence)));
    }
    if (past > 0) {
      args.addAll(List.of("--past-length", Long.toString(past)));
    }
    return args;
  }

  /**
   * An {@code --input-shape} that sizes every dynamic input of {@code graph} as these options do,
   * for a receiver that takes {@code --input-shape} alone (a fleet's workers); {@code inputShape}
   * itself when no length was given.
   */
  public static String explicit(String inputShape, long sequence, long past, OpGraph graph) {
    if (sequence == 0 && past == 0) {
      return inputShape;
    }
    List<String> each = new ArrayList<>();
    for (String input : resolve(inputShape, sequence, past, graph).inputs()) {
      int eq = input.lastIndexOf('=');
      each.add(input.substring(0, eq + 1) + input.substring(eq + 1).replace('x', ','));
    }
    return each.isEmpty() ? inputShape : String.join(";", each);
  }
}
