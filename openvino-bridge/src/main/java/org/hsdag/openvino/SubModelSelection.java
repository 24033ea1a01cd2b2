package org.hsdag.openvino;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * The part of a model to profile when a device lacks records for some of its ops only: those ops, their producers
 * and their consumers {@value #CONSUMER_DEPTH} levels down (the neighbourhood {@link OpSignature} keys a record by,
 * one level more so the part's tail, which its profiling compile puts on another device, lies beyond it). The
 * context is there so the CPU plugin fuses the lacking ops as in the whole model; only the lacking ops' records are
 * taken from the part.
 *
 * @param kept the nodes of the part (no Constants, Parameters or Results: the runtime keeps Constants and makes
 *     Parameters and Results at the cut)
 * @param lacking the nodes whose records are taken from it
 * @param tail a context node with no consumer in the part, run on another device in the part's profiling compile
 */
record SubModelSelection(Set<Integer> kept, Set<Integer> lacking, int tail) {
  /** Consumer levels in the part: the signature's, and one for the tail. */
  static final int CONSUMER_DEPTH = OpSignature.CONSUMER_DEPTH + 1;
  /** Above this share of the model's ops the part costs as much as the whole: the whole is profiled. */
  static final double WHOLE_SHARE = 0.6;

  SubModelSelection {
    kept = Set.copyOf(kept);
    lacking = Set.copyOf(lacking);
  }

  /**
   * The part that profiles {@code lacking}, or empty when the whole model should be profiled instead: the part
   * would hold more than {@value #WHOLE_SHARE} of the ops, or has no context node to put on another device.
   */
  static Optional<SubModelSelection> of(OpGraph graph, Collection<Integer> lacking) {
    Set<Integer> u = new TreeSet<>();
    for (int v : lacking) {
      if (isOp(graph.node(v))) {
        u.add(v);
      }
    }
    int ops = 0;
    for (int v = 0; v < graph.nodeCount(); v++) {
      ops += isOp(graph.node(v)) ? 1 : 0;
    }
    if (u.isEmpty()) {
      return Optional.empty();
    }
    Set<Integer> kept = new TreeSet<>(u);
    for (int v : u) {
      for (int p : graph.predecessors(v)) {
        if (isOp(graph.node(p))) {
          kept.add(p);
        }
      }
    }
    Set<Integer> level = u;
    for (int depth = 0; depth < CONSUMER_DEPTH; depth++) {
      Set<Integer> next = new TreeSet<>();
      for (int v : level) {
        for (int c : graph.successors(v)) {
          if (isOp(graph.node(c))) {
            next.add(c);
          }
        }
      }
      kept.addAll(next);
      level = next;
    }
    if (kept.size() > WHOLE_SHARE * ops) {
      return Optional.empty();
    }
    int tail = -1;
    for (int v : kept) {
      if (!u.contains(v) && noConsumerIn(graph, v, kept)) {
        tail = v; // the last such node in node order
      }
    }
    return tail < 0 ? Optional.empty() : Optional.of(new SubModelSelection(kept, u, tail));
  }

  private static boolean noConsumerIn(OpGraph graph, int v, Set<Integer> kept) {
    for (int c : graph.successors(v)) {
      if (kept.contains(c)) {
        return false;
      }
    }
    return true;
  }

  /** A node the part may hold: one the runtime computes (not a Constant, Parameter or Result). */
  static boolean isOp(OpNode n) {
    return !n.isConstant() && !n.isParameter() && !n.isResult();
  }
}
