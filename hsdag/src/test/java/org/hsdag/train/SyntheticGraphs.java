package org.hsdag.train;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/** Small synthetic op graphs for the policy and training tests. */
public final class SyntheticGraphs {
  private SyntheticGraphs() {}

  /**
   * {@code segments} runs of {@code length} ops each, types alternating A, B, A, ...; op i feeds
   * i+1 and i+2 (a chain with skip edges, so many ops have two inputs).
   */
  public static OpGraph segmented(int segments, int length, String typeA, String typeB) {
    int n = segments * length;
    List<String> types = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      types.add((i / length) % 2 == 0 ? typeA : typeB);
    }
    List<int[]> edges = new ArrayList<>();
    for (int i = 0; i + 1 < n; i++) {
      edges.add(new int[] {i, i + 1});
      if (i + 2 < n) {
        edges.add(new int[] {i, i + 2});
      }
    }
    return build(types, edges);
  }

  public static OpGraph build(List<String> types, List<int[]> edges) {
    int n = types.size();
    int[] inCount = new int[n];
    for (int[] e : edges) {
      inCount[e[1]]++;
    }
    OpGraph.Builder b = OpGraph.builder().setName("synthetic");
    int[] nextInput = new int[n];
    for (int i = 0; i < n; i++) {
      List<Port> inputs = new ArrayList<>();
      for (int p = 0; p < inCount[i]; p++) {
        inputs.add(new Port(p, ElementType.F32, new long[] {1, 64}, null, null));
      }
      List<Port> outputs = List.of(new Port(inCount[i], ElementType.F32, new long[] {1, 64}, null, null));
      b.addNode(
          new OpNode(i, String.valueOf(i), types.get(i) + "_" + i, types.get(i), "opset1", Map.of(), inputs, outputs,
              null, null));
    }
    for (int[] e : edges) {
      b.addEdge(new Edge(e[0], 0, e[1], nextInput[e[1]]++));
    }
    return b.build();
  }
}
