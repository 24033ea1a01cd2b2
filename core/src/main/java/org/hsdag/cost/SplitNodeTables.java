package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.ir.Edge;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.ReadMerges;
import org.hsdag.placement.HeteroRules;

/**
 * The node tables a {@link HeteroSplit} works on (kind, op, device leader and input edges of every
 * node, by position), from a graph in OpenVINO's node order or from a model given op by op.
 */
final class SplitNodeTables {
  private SplitNodeTables() {}

  /**
   * The split of {@code g} whose kernels are the nodes with {@code opOfNode[v] >= 0}, over the model
   * OpenVINO reads from {@code g}'s file: nodes its reader merges away ({@link ReadMerges}) keep a
   * position but no edges, and their consumers read the twin that stayed.
   */
  static HeteroSplit ofGraph(OpGraph g, int[] opOfNode, int opCount) {
    int n = g.nodeCount();
    int[][] inputEdges = inputEdgesByPort(g);
    ReadMerges merges = ReadMerges.of(g);
    boolean[] gone = new boolean[n];
    for (int v = 0; v < n; v++) {
      // A kernel keeps its own position even when the reader would merge it: its cost is counted there.
      gone[v] = !merges.kept(v) && opOfNode[v] < 0;
    }
    int[][] sources = new int[n][];
    int[][] ports = new int[n][];
    for (int v = 0; v < n; v++) {
      int[] edges = gone[v] ? new int[0] : inputEdges[v];
      sources[v] = new int[edges.length];
      ports[v] = new int[edges.length];
      for (int j = 0; j < edges.length; j++) {
        Edge e = g.edge(edges[j]);
        // A node that stayed (a kernel) keeps reading a constant the reader dropped with its twin.
        int twin = merges.survivor(e.source());
        sources[v][j] = gone[e.source()] && twin >= 0 ? twin : e.source();
        ports[v][j] = e.sourceOutput();
      }
    }
    int[] topo = openVinoOrder(g, sources);
    int[] pos = new int[n];
    for (int r = 0; r < n; r++) {
      pos[topo[r]] = r;
    }
    HeteroRules rules = new HeteroRules(g);
    byte[] kind = new byte[n];
    int[] opAt = new int[n];
    int[] leader = new int[n];
    int[] inStart = new int[n + 1];
    for (int r = 0; r < n; r++) {
      int v = topo[r];
      kind[r] = g.node(v).isParameter() ? HeteroSplit.PARAMETER : g.node(v).isConstant() ? HeteroSplit.CONSTANT
          : g.node(v).isResult() ? HeteroSplit.RESULT : HeteroSplit.OP;
      opAt[r] = opOfNode[v];
      leader[r] = opOfNode[v] < 0 && rules.leader(v) >= 0 ? pos[rules.leader(v)] : -1;
      inStart[r + 1] = inStart[r] + sources[v].length;
    }
    int[] inSrc = new int[inStart[n]];
    Map<Long, Integer> consumersOfPort = new HashMap<>();
    for (int r = 0; r < n; r++) {
      int v = topo[r];
      for (int j = 0; j < sources[v].length; j++) {
        inSrc[inStart[r] + j] = pos[sources[v][j]];
        consumersOfPort.merge(portKey(sources[v][j], ports[v][j]), 1, Integer::sum);
      }
    }
    int[] portConsumers = new int[inStart[n]];
    for (int r = 0; r < n; r++) {
      int v = topo[r];
      for (int j = 0; j < sources[v].length; j++) {
        portConsumers[inStart[r] + j] = consumersOfPort.get(portKey(sources[v][j], ports[v][j]));
      }
    }
    int[] follow = rules.followers();
    int[] followOrder = new int[follow.length];
    int k = 0;
    for (int v : follow) {
      if (opOfNode[v] < 0) {
        followOrder[k++] = pos[v];
      }
    }
    return new HeteroSplit(kind, opAt, leader, Arrays.copyOf(followOrder, k), inStart, inSrc, portConsumers, opCount,
        ShapeBoundaries.of(g, topo));
  }

  private static long portKey(int node, int port) {
    return ((long) node << 20) | port;
  }

  /** The input edges of every node in input-port order. */
  private static int[][] inputEdgesByPort(OpGraph g) {
    int[][] in = new int[g.nodeCount()][];
    for (int v = 0; v < in.length; v++) {
      Integer[] edges = new Integer[g.inDegree(v)];
      for (int j = 0; j < edges.length; j++) {
        edges[j] = g.inEdge(v, j);
      }
      Arrays.sort(edges, (a, b) -> Integer.compare(g.edge(a).targetInput(), g.edge(b).targetInput()));
      in[v] = Arrays.stream(edges).mapToInt(Integer::intValue).toArray();
    }
    return in;
  }

  /**
   * The node order of OpenVINO's {@code Model::get_ordered_ops()}, which the subgraph collector
   * walks and whose positions break its ties (the SCC fallback's "earliest node"): a depth-first
   * post-order from a stack holding the Results, then the Parameters (so the last Parameter comes
   * out first), each node's inputs visited from port 0. Checked against {@code get_ordered_ops()}
   * of the 2026.4.1 wheel on random DAGs.
   */
  static int[] openVinoOrder(OpGraph g, int[][] inputSources) {
    int n = g.nodeCount();
    int[] stack = new int[n + g.edgeCount() + 1];
    int sp = 0;
    for (int v = 0; v < n; v++) {
      if (g.node(v).isResult()) {
        stack[sp++] = v;
      }
    }
    for (int v = 0; v < n; v++) {
      if (g.node(v).isParameter()) {
        stack[sp++] = v;
      }
    }
    boolean[] done = new boolean[n];
    int[] order = new int[n];
    int k = 0;
    while (sp > 0) {
      int v = stack[sp - 1];
      if (done[v]) {
        sp--;
        continue;
      }
      boolean ready = true;
      int[] deps = inputSources[v];
      for (int j = deps.length - 1; j >= 0; j--) {
        int dep = deps[j];
        if (!done[dep]) {
          ready = false;
          stack[sp++] = dep;
        }
      }
      if (ready) {
        sp--;
        done[v] = true;
        order[k++] = v;
      }
    }
    // Nodes no Result depends on (OpenVINO would not see them) go last, in topological order.
    for (int v : g.topologicalOrder()) {
      if (!done[v]) {
        order[k++] = v;
      }
    }
    return order;
  }

  /**
   * The split of a model given op by op (no graph): a Parameter per model-input tensor before the
   * ops, a Result per model output after them, every op with one output port. Parameters follow
   * their earliest consumer, Results their producer.
   */
  static HeteroSplit ofOps(int[] predStart, int[] pred, int[] tensorProducer, int[] tensorConsumerStart,
      int[] tensorConsumer, int[] tensorResults) {
    int nc = predStart.length - 1;
    List<int[]> params = new ArrayList<>();
    int results = 0;
    for (int t = 0; t < tensorProducer.length; t++) {
      if (tensorProducer[t] < 0) {
        params.add(Arrays.copyOfRange(tensorConsumer, tensorConsumerStart[t], tensorConsumerStart[t + 1]));
      }
      results += tensorResults[t];
    }
    int np = params.size();
    int n = np + nc + results;
    byte[] kind = new byte[n];
    int[] opAt = new int[n];
    int[] leader = new int[n];
    Arrays.fill(opAt, -1);
    Arrays.fill(leader, -1);
    List<List<Integer>> inputs = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      inputs.add(new ArrayList<>());
    }
    for (int i = 0; i < nc; i++) {
      opAt[np + i] = i;
      for (int j = predStart[i]; j < predStart[i + 1]; j++) {
        inputs.get(np + i).add(np + pred[j]);
      }
    }
    List<Integer> follow = new ArrayList<>();
    for (int q = 0; q < np; q++) {
      kind[q] = HeteroSplit.PARAMETER;
      int earliest = Integer.MAX_VALUE;
      for (int c : params.get(q)) {
        inputs.get(np + c).add(q);
        earliest = Math.min(earliest, c);
      }
      if (earliest != Integer.MAX_VALUE) {
        leader[q] = np + earliest;
        follow.add(q);
      }
    }
    int r = np + nc;
    for (int t = 0; t < tensorProducer.length; t++) {
      for (int k = 0; k < tensorResults[t]; k++, r++) {
        kind[r] = HeteroSplit.RESULT;
        int src = tensorProducer[t] >= 0 ? np + tensorProducer[t] : indexOfParameter(tensorProducer, t);
        inputs.get(r).add(src);
        leader[r] = src;
        follow.add(r);
      }
    }
    for (int p = np; p < np + nc; p++) {
      kind[p] = HeteroSplit.OP;
    }
    int[] inStart = new int[n + 1];
    for (int p = 0; p < n; p++) {
      inStart[p + 1] = inStart[p] + inputs.get(p).size();
    }
    int[] inSrc = new int[inStart[n]];
    int[] outs = new int[n];
    for (int p = 0; p < n; p++) {
      for (int j = 0; j < inputs.get(p).size(); j++) {
        inSrc[inStart[p] + j] = inputs.get(p).get(j);
        outs[inputs.get(p).get(j)]++;
      }
    }
    int[] portConsumers = new int[inSrc.length];
    for (int k = 0; k < inSrc.length; k++) {
      portConsumers[k] = outs[inSrc[k]];
    }
    return new HeteroSplit(kind, opAt, leader, follow.stream().mapToInt(Integer::intValue).toArray(), inStart, inSrc,
        portConsumers, nc, null);
  }

  /** Position of the Parameter made for model-input tensor {@code t} (Parameters come first, in tensor order). */
  private static int indexOfParameter(int[] tensorProducer, int t) {
    int q = 0;
    for (int u = 0; u < t; u++) {
      q += tensorProducer[u] < 0 ? 1 : 0;
    }
    return q;
  }
}
