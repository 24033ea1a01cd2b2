package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.Arrays;
import org.hsdag.coarsen.IntGraph;

/**
 * The constant tensors of one graph, built once and reused every step (PyG's {@code edge_index}
 * plus cached normalisations). The graph is symmetrised and de-duplicated for message passing
 * (edge direction is dropped, as in the HSDAG reference code; self-loops in the input are
 * ignored): {@link #gcnAdjacency()} is D̂^-1/2 (A+I) D̂^-1/2, {@link #sumAdjacency()} is A and
 * {@link #meanAdjacency()} is D^-1 A. {@link #edgeSource()}/{@link #edgeTarget()} index the
 * graph's own directed edges, in input order, for edge scoring. Owns a sub-manager; close it when
 * the graph is no longer used.
 */
public final class GraphTensors implements AutoCloseable {
  private final IntGraph graph;
  private final NDManager manager;
  private final int[] neighbourStart;
  private final int[] neighbours;
  private final NDArray gcnAdjacency;
  private final NDArray sumAdjacency;
  private final NDArray meanAdjacency;
  private final NDArray edgeSource;
  private final NDArray edgeTarget;
  private NDArray maxIndex;
  private NDArray hasNeighbour;
  private int maxDegree;

  public GraphTensors(NDManager parent, IntGraph graph) {
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
    int[] row = new int[nnz];
    int[] col = new int[nnz];
    float[] ones = new float[nnz];
    float[] mean = new float[nnz];
    for (int i = 0; i < n; i++) {
      for (int k = neighbourStart[i]; k < neighbourStart[i + 1]; k++) {
        row[k] = i;
        col[k] = neighbours[k];
        ones[k] = 1f;
        mean[k] = 1f / degree(i);
      }
    }
    sumAdjacency = SparseMatrices.coo(manager, n, n, row, col, ones);
    meanAdjacency = SparseMatrices.coo(manager, n, n, row, col, mean);
    int[] gRow = Arrays.copyOf(row, nnz + n);
    int[] gCol = Arrays.copyOf(col, nnz + n);
    float[] gVal = new float[nnz + n];
    for (int k = 0; k < nnz; k++) {
      gVal[k] = (float) (1.0 / Math.sqrt((degree(row[k]) + 1.0) * (degree(col[k]) + 1.0)));
    }
    for (int i = 0; i < n; i++) {
      gRow[nnz + i] = i;
      gCol[nnz + i] = i;
      gVal[nnz + i] = (float) (1.0 / (degree(i) + 1.0));
    }
    gcnAdjacency = SparseMatrices.coo(manager, n, n, gRow, gCol, gVal);
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

  public NDArray gcnAdjacency() {
    return gcnAdjacency;
  }

  public NDArray sumAdjacency() {
    return sumAdjacency;
  }

  public NDArray meanAdjacency() {
    return meanAdjacency;
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

  /**
   * int64 (n × maxDegree) neighbour table padded with index n, for max aggregation; built on
   * first use because its size depends on the largest degree.
   */
  synchronized NDArray maxIndex() {
    if (maxIndex == null) {
      int n = nodeCount();
      for (int i = 0; i < n; i++) {
        maxDegree = Math.max(maxDegree, degree(i));
      }
      int width = Math.max(1, maxDegree);
      long[] idx = new long[n * width];
      float[] has = new float[n];
      Arrays.fill(idx, n);
      for (int i = 0; i < n; i++) {
        for (int k = neighbourStart[i]; k < neighbourStart[i + 1]; k++) {
          idx[i * width + k - neighbourStart[i]] = neighbours[k];
        }
        has[i] = degree(i) > 0 ? 1f : 0f;
      }
      maxIndex = manager.create(idx, new Shape((long) n * width));
      hasNeighbour = manager.create(has, new Shape(n, 1));
    }
    return maxIndex;
  }

  synchronized NDArray hasNeighbour() {
    maxIndex();
    return hasNeighbour;
  }

  synchronized int maxDegreeWidth() {
    maxIndex();
    return Math.max(1, maxDegree);
  }

  @Override
  public void close() {
    manager.close();
  }
}
