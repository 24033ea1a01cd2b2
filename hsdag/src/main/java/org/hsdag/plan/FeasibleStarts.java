package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.cost.HeteroCostModel;

/**
 * Starts of the {@link LocalSearch} that its cost model accepts. A minimum cut knows nothing of the
 * splits HETERO refuses (docs/hetero-rules.md), so on a noisy cost model (profiled on a loaded machine)
 * it can fall on one. Such a start is repaired by joining each refused boundary's consumer to its
 * producer's device (the cut moves downstream past the shape chain), or skipped; each is noted.
 * Mutable: one per planning call.
 */
final class FeasibleStarts {
  private final List<String> notes = new ArrayList<>();

  /**
   * {@code label} itself when {@code model} accepts it, a repaired copy, or null (skipped: no repair
   * within one move per op).
   */
  int[] feasible(HeteroCostModel model, int[] label, String origin) {
    HeteroCostModel.Evaluator exact = model.evaluator();
    HeteroCostModel.Evaluation first = exact.evaluate(label);
    if (first.ok()) {
      return label;
    }
    int[] opOf = opOfNode(model);
    int[] l = label.clone();
    HeteroCostModel.Evaluation e = first;
    for (int step = 0; step < l.length && e.isRefused(); step++) {
      int[] b = model.refusedBoundary(l);
      if (b == null || !join(model, l, opOf, b[0], b[1])) {
        break;
      }
      e = exact.evaluate(l);
    }
    if (e.ok()) {
      notes.add(origin + ": HETERO refuses that split under this cost model; repaired by moving "
          + moved(label, l) + " op(s) to their producer's device");
      return l;
    }
    notes.add(origin + ": skipped, " + (first.isRefused() ? "HETERO refuses that split" : "a device cannot run an op")
        + " under this cost model and no repair was found");
    return null;
  }

  /** {@code pool} itself; when empty (every start skipped), one line saying why. */
  <T> List<T> nonEmpty(List<T> pool) {
    if (pool.isEmpty()) {
      throw new IllegalArgumentException("no placement the cost model accepts: " + String.join("; ", notes));
    }
    return pool;
  }

  List<String> notes() {
    return List.copyOf(notes);
  }

  /** Puts the boundary's consumer on its producer's device, else the producer on the consumer's; false when neither can move. */
  private static boolean join(HeteroCostModel model, int[] l, int[] opOf, int producerNode, int consumerNode) {
    int p = producerNode < opOf.length ? opOf[producerNode] : -1;
    int c = consumerNode < opOf.length ? opOf[consumerNode] : -1;
    if (p < 0 || c < 0 || l[p] == l[c]) {
      return false;
    }
    if (model.supported(c, l[p])) {
      l[c] = l[p];
      return true;
    }
    if (model.supported(p, l[c])) {
      l[p] = l[c];
      return true;
    }
    return false;
  }

  private static int[] opOfNode(HeteroCostModel model) {
    int max = 0;
    for (int i = 0; i < model.opCount(); i++) {
      max = Math.max(max, model.node(i) + 1);
    }
    int[] opOf = new int[max];
    Arrays.fill(opOf, -1);
    for (int i = 0; i < model.opCount(); i++) {
      opOf[model.node(i)] = i;
    }
    return opOf;
  }

  private static int moved(int[] a, int[] b) {
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      n += a[i] != b[i] ? 1 : 0;
    }
    return n;
  }
}
