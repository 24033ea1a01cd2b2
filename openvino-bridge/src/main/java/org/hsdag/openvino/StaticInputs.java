package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Gives every input of a model read by OpenVINO the static shape hsdag announced for it, before
 * anything compiles: the sizes the simulator, the cost model and the report state are the sizes
 * OpenVINO runs. OpenVINO's own shape inference checks them as it reshapes ({@code
 * ov::Model::reshape}); a size it rejects, or an input left dynamic, is refused in one line naming
 * the input and {@code --input-shape}.
 */
final class StaticInputs {
  private StaticInputs() {}

  /**
   * Reshapes {@code model}'s inputs to {@code options}' shapes.
   *
   * @throws IllegalStateException naming the input when OpenVINO rejects its size or it stays dynamic
   */
  static void reshape(OpenVinoRuntime.Model model, OpenVinoOptions options) {
    List<String> inputs = model.inputNames();
    for (int i = 0; i < inputs.size(); i++) {
      long[] shape = options.inputShape(inputs.get(i));
      if (shape == null) {
        continue;
      }
      try {
        model.setInputShape(i, shape);
      } catch (OpenVinoException e) {
        throw new IllegalStateException("input '" + inputs.get(i) + "' cannot be " + dims(shape)
            + " (OpenVINO's shape inference: " + firstLine(e.getMessage()) + "); give its size with --input-shape "
            + inputs.get(i) + "=D1,D2,...", e);
      }
    }
    List<String> dynamic = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      if (model.inputIsDynamic(i)) {
        dynamic.add(inputs.get(i));
      }
    }
    if (!dynamic.isEmpty()) {
      throw new IllegalStateException("input '" + dynamic.get(0) + "' has a dynamic shape and no size"
          + (dynamic.size() > 1 ? " (nor " + String.join(", ", dynamic.subList(1, dynamic.size())) + ")" : "")
          + "; give it with --input-shape " + dynamic.get(0) + "=D1,D2,...");
    }
  }

  private static String dims(long[] shape) {
    return Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining("x"));
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "no message";
    }
    String s = m.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).strip();
  }
}
