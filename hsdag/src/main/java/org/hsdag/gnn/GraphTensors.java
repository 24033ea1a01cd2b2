package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import java.util.Arrays;
import org.hsdag.coarsen.IntGraph;

/**
 * The constant tensors of one graph, built once and reused every step (PyG's {@code edge_index}
 * plus GCNConv's cached normalisation). For message passing the graph is symmetrised and
 * de-duplicated, as PyG's {@code to_undirected} does (edge direction is dropped, as in the HSDAG
 * reference code); self-loops in the input are replaced by one self-loop per node, as PyG's
 * {@code add_remaining_self_loops}: {@link #gcnAdjacency()} is D̂^-1/2 (A+I) D̂^-1/2.
 * {@link #edgeSource()}/{@link #edgeTarget()} index the graph's own directed edges, in input
 * order, for edge scoring. Owns a sub-manager; close it when the graph is no longer used.
 */
public final class GraphTensors implements AutoCloseable {
  private final IntGraph graph;
  private final NDManager manager;
  private final int[] neighbourStart;
  private final int[] neighbours;
  private final NDArray gcnAdjacency;
  private final NDArray edgeSource;
  private final NDArray edgeTarget;

  /** float32 tensors, as the policy uses. */
  public GraphTensors(NDManager parent, IntGraph graph) {
    this(parent, graph, DataType.FLOAT32);
  }

  /** With the normalised adjacency in {@code dataType} (float64 for double-precision checks). */
  public GraphTensors(NDManager parent, IntGraph graph, DataType dataType) {
    this.graph = graph;
    this.manager = parent.newSubManager();
    int n = graph.nodeCount();
    long[] keys = new long[2 * graph.edgeCount()];
    int m = 0;
    for (int k = 0; k < graph.edgeCount(); k++) {
      int u = graph.src(k);
      int v = graph.dst(k);
      if (u != v) {
        keys[m++] = (long) u << 32 | v;
        keys[m++] = (long) v << 32 | u;
      }
    }
    keys = Arrays.stream(keys, 0, m).sorted().distinct().toArray();
    neighbourStart = new int[n + 1];
    neighbours = new int[keys.length];
    for (int k = 0; k < keys.length; k++) {
      neighbourStart[(int) (keys[k] >>> 32) + 1]++;
      neighbours[k] = (int) keys[k];
    }
    for (int i = 0; i < n; i++) {
      neighbourStart[i + 1] += neighbourStart[i];
    }
    int nnz = keys.length;
    int[] row = new int[nnz + n];
    int[] col = new int[nnz + n];
    double[] val = new double[nnz + n];
    for (int i = 0; i < n; i++) {
      for (int k = neighbourStart[i]; k < neighbourStart[i + 1]; k++) {
        row[k] = i;
        col[k] = neighbours[k];
        val[k] = 1.0 / Math.sqrt((degree(i) + 1.0) * (degree(neighbours[k]) + 1.0));
      }
      row[nnz + i] = i;
      col[nnz + i] = i;
      val[nnz + i] = 1.0 / (degree(i) + 1.0);
    }
    gcnAdjacency = SparseMatrices.coo(manager, n, n, row, col, val, dataType);
    long[] s = new long[graph.edgeCount()];
    long[] d = new long[graph.edgeCount()];
    for (int k = 0; k < s.length; k++) {
      s[k] = graph.src(k);
      d[k] = graph.dst(k);
    }
    edgeSource = manager.create(s);
    edgeTarget = manager.create(d);
  }

  public IntGraph graph() {
    return graph;
  }

  public int nodeCount() {
    return graph.nodeCount();
  }

  public int edgeCount() {
    return graph.edgeCount();
  }

  /** Undirected degree without self-loops. */
  public int degree(int node) {
    return neighbourStart[node + 1] - neighbourStart[node];
  }

  /** Distinct undirected neighbours of {@code node}, ascending. */
  public int[] neighbours(int node) {
    return Arrays.copyOfRange(neighbours, neighbourStart[node], neighbourStart[node + 1]);
  }

  /** D̂^-1/2 (A+I) D̂^-1/2 of the symmetrised graph, sparse n × n. */
  public NDArray gcnAdjacency() {
    return gcnAdjacency;
  }

  /** int64 source node of every directed input edge. */
  public NDArray edgeSource() {
    return edgeSource;
  }

  /** int64 target node of every directed input edge. */
  public NDArray edgeTarget() {
    return edgeTarget;
  }

  /** The manager owning this graph's tensors (for per-graph caches). */
  public NDManager manager() {
    return manager;
  }

  @Override
  public void close() {
    manager.close();
  }
}
