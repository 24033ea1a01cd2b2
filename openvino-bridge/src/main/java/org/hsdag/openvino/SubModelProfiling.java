package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.cost.HeteroSplitDesign;
import org.hsdag.ir.OpGraph;

/**
 * Profiles one device on a part of the model ({@link SubModelSelection}) instead of the whole: the part extracted by
 * the runtime ({@link OpenVinoRuntime.Model#extract}), compiled in the same HETERO set as the whole model's profiling
 * compile with its tail on another device (a CPU twin's threads differ beside a CPU sub-model, shared
 * notes/openvino.md item 9), warmed up, then {@value HeteroProfiling#PROFILING_ROUNDS} profiled inferences; per op
 * the median, fused kernels credited to their first original layer as in the whole profile ({@link OpCostTable}).
 */
final class SubModelProfiling {
  private SubModelProfiling() {}

  /**
   * Kernel times, µs, of the part's lacking nodes on device {@code d} (aligned with the graph's nodes; other nodes
   * 0).
   *
   * @param supported {@code [device][node]}: where the tail may go
   * @throws OpenVinoException when the part cannot be built, compiled or run
   */
  static double[] kernels(OpenVinoRuntime.Model m, OpGraph graph, SubModelSelection part, List<String> devices, int d,
      boolean[][] supported, long seed, Path cacheDir, int runs) {
    Map<String, Integer> runtimeIndex = OpenVinoNames.indexByName(m.opNames());
    List<Integer> indices = new ArrayList<>();
    for (int v : part.kept()) {
      Integer r = runtimeIndex.get(graph.node(v).name());
      if (r != null) {
        indices.add(r);
      }
    }
    double[] micros = new double[graph.nodeCount()];
    try (OpenVinoRuntime.Model sub = m.extract(indices.stream().mapToInt(Integer::intValue).toArray())) {
      Set<String> names = new HashSet<>(sub.opNames());
      int other = HeteroSplitDesign.otherDevice(devices.size(), d, e -> supported[e][part.tail()]);
      String target = devices.get(d);
      Set<String> foreign = new HashSet<>();
      if (devices.size() > 1 && other >= 0) {
        Map<String, String> affinity = new HashMap<>();
        for (int v : part.kept()) {
          String name = graph.node(v).name();
          if (names.contains(name)) {
            affinity.put(name, devices.get(v == part.tail() ? other : d));
          }
        }
        sub.setAffinities(affinity);
        foreign.add(graph.node(part.tail()).name());
        target = HeteroProfiling.profiledFirst(devices, d);
      }
      HeteroProfiling.Profiled p = HeteroProfiling.open(sub, devices.get(d), target, foreign, names, seed, cacheDir,
          runs);
      try {
        OpCostTable table = p.median();
        for (int v : part.lacking()) {
          micros[v] = 1000.0 * table.millisByOp().getOrDefault(graph.node(v).name(), 0.0);
        }
      } finally {
        p.compiled().close();
      }
    }
    return micros;
  }
}
