package org.hsdag.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongBiFunction;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.HeteroRules;

/**
 * The memory a placement of one graph needs on each device, under HETERO's rules
 * ({@link HeteroRules}: constants and constant-only chains live with the op that consumes them,
 * Parameters and Results with their neighbours):
 *
 * <ul>
 *   <li>weights: the bytes of every Const on its device, from the IR's element type and shape;
 *   <li>activations: each op's consumed outputs are live on its device from the op until its last
 *       consumer (a model output until the end of the request), and on every other consumer device
 *       from the first to the last consumer there (the boundary copy in); the peak of the sum in
 *       execution order, here the graph's topological order, which runs every op after its
 *       producers as HETERO's sequential sub-models do;
 *   <li>a runtime overhead per device that runs any op.
 * </ul>
 *
 * Immutable; {@link #use} allocates its own work arrays, so it is thread-safe.
 */
public final class MemoryModel {
  private final OpGraph graph;
  private final HeteroRules rules;
  /** Per node: the bytes of its consumed outputs (0 for constant-only nodes and Results). */
  private final long[] outputBytes;
  /** Per node: Const bytes of the node itself (0 for the rest). */
  private final long[] constBytes;
  /** Per node: whether it runs as an op (not constant-only, not Parameter, not Result). */
  private final boolean[] runs;

  /** The model with each tensor's bytes from its IR port (a dynamic dim counted as 1). */
  public MemoryModel(OpGraph graph) {
    this(graph, (v, port) -> graph.node(v).outputs().get(port).byteSize());
  }

  /**
   * The model with each tensor's bytes from {@code bytesOf} (node, output port): the simulator
   * passes the sizes the model is compiled at.
   */
  public MemoryModel(OpGraph graph, ToLongBiFunction<Integer, Integer> bytesOf) {
    this.graph = graph;
    this.rules = new HeteroRules(graph);
    int n = graph.nodeCount();
    outputBytes = new long[n];
    constBytes = new long[n];
    runs = new boolean[n];
    for (int v = 0; v < n; v++) {
      OpNode node = graph.node(v);
      constBytes[v] = node.isConstant() ? Math.max(0, node.constSize()) : 0;
      runs[v] = !rules.isConstantOnly(v) && !node.isParameter() && !node.isResult();
      if (rules.isConstantOnly(v) || node.isResult()) {
        continue;
      }
      long seenPorts = 0;
      for (int j = 0; j < graph.outDegree(v); j++) {
        Edge e = graph.edge(graph.outEdge(v, j));
        if (e.sourceOutput() < 64 && (seenPorts & (1L << e.sourceOutput())) == 0) {
          seenPorts |= 1L << e.sourceOutput();
          outputBytes[v] += bytesOf.applyAsLong(v, e.sourceOutput());
        }
      }
    }
  }

  public OpGraph graph() {
    return graph;
  }

  /**
   * Bytes of node v's consumed outputs: live on its device from the moment it runs, so no device
   * running v has an activation peak below this.
   */
  public long outputBytes(int v) {
    return outputBytes[v];
  }

  /** The HETERO rules the model resolves placements with. */
  public HeteroRules rules() {
    return rules;
  }

  /**
   * Weight bytes that move with each node: for a node that keeps its own device, the bytes of every
   * Const whose device it decides (directly or through a constant-only chain); 0 for followers.
   */
  public long[] weightBytesByLeader() {
    long[] out = new long[graph.nodeCount()];
    int[] owner = owners();
    for (int v = 0; v < out.length; v++) {
      out[owner[v]] += constBytes[v];
    }
    return out;
  }

  /** Per node, the node whose device it ends up on (itself when it keeps its own). */
  private int[] owners() {
    int n = graph.nodeCount();
    int[] owner = new int[n];
    for (int v = 0; v < n; v++) {
      owner[v] = v;
    }
    for (int v : rules.followers()) {
      owner[v] = owner[rules.leader(v)];
    }
    return owner;
  }

  /**
   * Memory per device of {@code deviceOf} (a device index per node, followers resolved here).
   *
   * @param devices number of devices the indices refer to
   * @param overheadBytes runtime overhead per device index
   * @param capacityBytes capacity per device index ({@link Long#MAX_VALUE}: none)
   * @param names device names by index
   */
  public List<MemoryUse> use(int[] deviceOf, int devices, long[] overheadBytes, long[] capacityBytes,
      List<String> names) {
    int[] dev = rules.resolve(deviceOf);
    int n = graph.nodeCount();
    long[] weights = new long[devices];
    long[] boundary = new long[devices];
    boolean[] used = new boolean[devices];
    long[][] diff = new long[devices][n + 2];
    int[] first = new int[devices];
    int[] last = new int[devices];
    for (int v = 0; v < n; v++) {
      int d = dev[v];
      weights[d] += constBytes[v];
      used[d] |= runs[v];
      if (outputBytes[v] == 0) {
        continue;
      }
      Arrays.fill(first, Integer.MAX_VALUE);
      Arrays.fill(last, -1);
      int start = graph.topologicalRank(v);
      int end = start;
      for (int c : graph.successors(v)) {
        int pos = graph.node(c).isResult() ? n : graph.topologicalRank(c);
        end = Math.max(end, pos);
        int dc = dev[c];
        if (dc != d && !graph.node(c).isResult()) {
          first[dc] = Math.min(first[dc], pos);
          last[dc] = Math.max(last[dc], pos);
        }
      }
      diff[d][start] += outputBytes[v];
      diff[d][end + 1] -= outputBytes[v];
      for (int k = 0; k < devices; k++) {
        if (last[k] >= 0) {
          diff[k][first[k]] += outputBytes[v];
          diff[k][last[k] + 1] -= outputBytes[v];
          boundary[k] += outputBytes[v];
        }
      }
    }
    List<MemoryUse> out = new ArrayList<>(devices);
    for (int d = 0; d < devices; d++) {
      long live = 0;
      long peak = 0;
      for (int p = 0; p <= n; p++) {
        live += diff[d][p];
        peak = Math.max(peak, live);
      }
      out.add(new MemoryUse(names.get(d), weights[d], peak, boundary[d], used[d] ? overheadBytes[d] : 0,
          capacityBytes[d]));
    }
    return out;
  }
}
