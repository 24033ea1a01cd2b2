package org.hsdag.search;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.backend.Measurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.Placement;

/**
 * Splits HETERO refused during this run, learned from failed measurements the prediction
 * (docs/hetero-rules.md) did not foresee. A placement that failed compiling or creating its infer
 * request on HETERO marks each of its cut edges — producer op on one device feeding consumer op on
 * another — as refused, unless a placement that ran has that cut; a later placement containing a
 * refused cut is answered without measuring. Mutable, owned by one {@link SearchEngine}.
 */
public final class LearnedRefusals {
  /** What the reason of a placement answered from a learned refusal starts with. */
  static final String PREFIX = "refused earlier in this run: ";

  /** One cut edge: graph node {@code producer} on device {@code from} feeds node {@code consumer} on {@code to}. */
  record Cut(int producer, String from, int consumer, String to) {}

  /** A learned refusal: op {@code producer} on {@code from} feeds op {@code consumer} on {@code to}; the failure that taught it. */
  public record Learned(String producer, String from, String consumer, String to, String reason) {}

  private final OpGraph graph;
  private final HeteroRules rules;
  private final Map<Cut, String> refused = new LinkedHashMap<>();
  private final Set<Cut> ran = new HashSet<>();

  LearnedRefusals(OpGraph graph) {
    this.graph = graph;
    this.rules = new HeteroRules(graph);
  }

  /** Whether {@code reason} is a failure of HETERO itself at compile or infer request (ShimRuntime's wording). */
  static boolean isHeteroRefusal(String reason) {
    return reason.contains("infer request on HETERO") || reason.contains("compiling on HETERO");
  }

  /** The cut edges of {@code p} after HETERO's follower rules: producers that run (not constants nor inputs). */
  List<Cut> cuts(Placement p) {
    int[] device = rules.resolve(p.deviceOf());
    List<Cut> out = new ArrayList<>();
    for (int u = 0; u < graph.nodeCount(); u++) {
      if (graph.node(u).isParameter() || rules.isConstantOnly(u)) {
        continue;
      }
      for (int v : graph.successors(u)) {
        if (device[v] != device[u] && !graph.node(v).isResult()) {
          out.add(new Cut(u, p.devices().name(device[u]), v, p.devices().name(device[v])));
        }
      }
    }
    return out;
  }

  /** Learns from the measurement {@code m} of {@code p}. */
  void learn(Placement p, Measurement m) {
    if (m.ok()) {
      for (Cut c : cuts(p)) {
        ran.add(c);
        refused.remove(c);
      }
    } else if (isHeteroRefusal(m.reason())) {
      for (Cut c : cuts(p)) {
        if (!ran.contains(c)) {
          refused.putIfAbsent(c, m.reason());
        }
      }
    }
  }

  /** The reason to answer {@code p} with, or null when no learned refusal covers it. */
  String refusal(Placement p) {
    for (Cut c : cuts(p)) {
      String why = refused.get(c);
      if (why != null) {
        return PREFIX + "'" + graph.node(c.producer()).name() + "' on " + c.from() + " feeds '"
            + graph.node(c.consumer()).name() + "' on " + c.to() + " (not run; " + why + ")";
      }
    }
    return null;
  }

  /** The refusals learned so far, in the order learned. */
  List<Learned> learned() {
    List<Learned> out = new ArrayList<>();
    refused.forEach((c, why) -> out.add(new Learned(graph.node(c.producer()).name(), c.from(),
        graph.node(c.consumer()).name(), c.to(), why)));
    return out;
  }
}
