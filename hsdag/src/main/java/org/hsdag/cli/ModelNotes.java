package org.hsdag.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.cost.CostModel;

/**
 * What a command says once about the model it works on, in hsdag's own lines: op types the simulator
 * costs without a formula (an IR version or op type OpenVINO does not know is refused on reading).
 */
public final class ModelNotes {
  private ModelNotes() {}

  /** A command's notices as {@code hsdag: …} lines on {@code err}; none with {@code --json} (stdout is the JSON). */
  static Consumer<String> toStderr(PrintWriter err, boolean json) {
    return notice -> {
      if (!json) {
        err.println("hsdag: " + notice);
        err.flush();
      }
    };
  }

  /** Says what is worth knowing about {@code graph} as {@code backend} (null: no backend) will see it. */
  public static void announce(OpGraph graph, LatencyBackend backend, Consumer<String> notices) {
    if (backend == null || !backend.name().equals("sim")) {
      return;
    }
    SortedMap<String, Integer> unknown = CostModel.unknownOpTypes(graph);
    if (!unknown.isEmpty()) {
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, Integer> e : unknown.entrySet()) {
        parts.add("'" + e.getKey() + "' (" + e.getValue() + (e.getValue() == 1 ? " op)" : " ops)"));
      }
      notices.accept("the simulator has no cost formula for op type" + (parts.size() == 1 ? " " : "s ")
          + String.join(", ", parts) + "; it costs them as copies (1 FLOP per output element, input + output bytes)");
    }
  }
}
