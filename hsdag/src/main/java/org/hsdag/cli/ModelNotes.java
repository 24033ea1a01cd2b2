package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.cost.CostModel;

/**
 * What a command says once about the model it works on, in hsdag's own lines: an IR version hsdag
 * does not know, and op types the simulator costs without a formula.
 */
public final class ModelNotes {
  /** The IR versions the reader was written for. */
  static final int OLDEST_IR = 10;
  static final int NEWEST_IR = 11;

  private ModelNotes() {}

  /** The note about IR version {@code v}, or null when hsdag knows it. */
  static String irVersionNote(int v) {
    return v >= OLDEST_IR && v <= NEWEST_IR ? null
        : "the model says IR version " + v + "; hsdag was written for versions " + OLDEST_IR + " and " + NEWEST_IR
            + " and reads it the same way, so check what it reports";
  }

  /** Says what is worth knowing about {@code graph} as {@code backend} (null: no backend) will see it. */
  public static void announce(OpGraph graph, LatencyBackend backend, Consumer<String> notices) {
    String version = irVersionNote(graph.irVersion());
    if (version != null) {
      notices.accept(version);
    }
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
