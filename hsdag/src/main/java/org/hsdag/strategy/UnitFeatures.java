package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/**
 * Static per-unit inputs of the learned baselines (Placeto, RNN): log output bytes and log op
 * count (each divided by its maximum, as Placeto normalises columns) and the fraction of the
 * unit's non-constant ops of each of the graph's most frequent op types (plus "other"); and the
 * ancestor / descendant relation between units that Placeto aggregates over.
 */
final class UnitFeatures {
  static final int TOP_TYPES = 16;

  private UnitFeatures() {}

  /** Features per unit, {@code [unit][2 + TOP_TYPES + 1]}. */
  static float[][] of(PlacementSpace space) {
    OpGraph g = space.graph();
    Map<String, Integer> freq = new HashMap<>();
    for (OpNode n : g.nodes()) {
      if (!n.isConstant()) {
        freq.merge(n.type(), 1, Integer::sum);
      }
    }
    List<String> types = new ArrayList<>(freq.keySet());
    types.sort((a, b) -> freq.get(b).equals(freq.get(a)) ? a.compareTo(b) : freq.get(b) - freq.get(a));
    Map<String, Integer> slot = new HashMap<>();
    for (int i = 0; i < Math.min(TOP_TYPES, types.size()); i++) {
      slot.put(types.get(i), i);
    }
    int u = space.unitCount();
    float[][] f = new float[u][2 + TOP_TYPES + 1];
    float maxBytes = 1e-6f;
    float maxCount = 1e-6f;
    for (int k = 0; k < u; k++) {
      long bytes = 0;
      int ops = 0;
      for (int v : space.members(k)) {
        OpNode n = g.node(v);
        for (Port p : n.outputs()) {
          bytes += Math.max(0, p.byteSize());
        }
        if (!n.isConstant()) {
          ops++;
          f[k][2 + slot.getOrDefault(n.type(), TOP_TYPES)] += 1;
        }
      }
      f[k][0] = (float) Math.log1p((double) bytes);
      f[k][1] = (float) Math.log1p(space.memberCount(k));
      maxBytes = Math.max(maxBytes, f[k][0]);
      maxCount = Math.max(maxCount, f[k][1]);
      for (int t = 0; t < TOP_TYPES + 1; t++) {
        f[k][2 + t] /= Math.max(1, ops);
      }
    }
    for (int k = 0; k < u; k++) {
      f[k][0] /= maxBytes;
      f[k][1] /= maxCount;
    }
    return f;
  }

  static List<List<Integer>> successors(IntGraph q) {
    List<List<Integer>> succ = new ArrayList<>();
    for (int v = 0; v < q.nodeCount(); v++) {
      succ.add(new ArrayList<>());
    }
    for (int k = 0; k < q.edgeCount(); k++) {
      succ.get(q.src(k)).add(q.dst(k));
    }
    return succ;
  }

  /** Ancestors of every unit (strict), by a sweep in topological order. */
  static BitSet[] ancestors(IntGraph q) {
    int n = q.nodeCount();
    BitSet[] anc = new BitSet[n];
    for (int v = 0; v < n; v++) {
      anc[v] = new BitSet(n);
    }
    List<List<Integer>> succ = successors(q);
    for (int v : org.hsdag.coarsen.Quotients.orderCyclesLast(q)) {
      for (int s : succ.get(v)) {
        anc[s].or(anc[v]);
        anc[s].set(v);
      }
    }
    for (int v = 0; v < n; v++) {
      anc[v].clear(v);
    }
    return anc;
  }
}
