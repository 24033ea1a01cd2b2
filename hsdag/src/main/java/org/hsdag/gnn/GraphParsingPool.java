package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.hsdag.parsing.GraphParsing;
import org.hsdag.parsing.ParseResult;

/**
 * Graph-parsing pooling (Song et al. 2024, as used by HSDAG §2.4): a discrete node → cluster
 * assignment (from {@code org.hsdag.parsing.GraphParsing}, no gradient) plus the differentiable
 * gate that lets the edge scorer learn: each cluster's feature is the mean of its members' rows
 * times the mean score of its internal edges (1 for a cluster without internal edges). Unlike
 * GPN, the pooled sum is not multiplied by the internal edge count, which keeps cluster features
 * on the scale of node features whatever the cluster size.
 */
public final class GraphParsingPool {
  private GraphParsingPool() {}

  /** The constant tensors of one assignment; close after the step(s) that use it. */
  public static final class Assignment implements AutoCloseable {
    private final NDManager manager;
    private final int[] clusterOf;
    private final int clusterCount;
    private final NDArray memberMean;
    private final NDArray gateMatrix;
    private final NDArray gateFill;
    private final NDArray clusterIndex;

    private Assignment(NDManager parent, GraphTensors g, int[] clusterOf, int clusterCount) {
      int n = g.nodeCount();
      if (clusterOf.length != n) {
        throw new IllegalArgumentException("clusterOf has " + clusterOf.length + " entries for " + n + " nodes");
      }
      this.manager = parent.newSubManager();
      this.clusterOf = clusterOf.clone();
      this.clusterCount = clusterCount;
      int[] size = new int[clusterCount];
      for (int c : clusterOf) {
        if (c < 0 || c >= clusterCount) {
          throw new IllegalArgumentException("cluster " + c + " outside 0.." + (clusterCount - 1));
        }
        size[c]++;
      }
      int[] rows = new int[n];
      int[] cols = new int[n];
      float[] vals = new float[n];
      long[] index = new long[n];
      for (int v = 0; v < n; v++) {
        rows[v] = clusterOf[v];
        cols[v] = v;
        vals[v] = 1f / size[clusterOf[v]];
        index[v] = clusterOf[v];
      }
      memberMean = SparseMatrices.coo(manager, clusterCount, n, rows, cols, vals);
      int e = g.edgeCount();
      int[] internal = new int[clusterCount];
      for (int k = 0; k < e; k++) {
        int u = g.graph().src(k);
        int v = g.graph().dst(k);
        if (u != v && clusterOf[u] == clusterOf[v]) {
          internal[clusterOf[u]]++;
        }
      }
      int total = 0;
      for (int c : internal) {
        total += c;
      }
      int[] gRows = new int[total];
      int[] gCols = new int[total];
      float[] gVals = new float[total];
      int j = 0;
      for (int k = 0; k < e; k++) {
        int u = g.graph().src(k);
        int v = g.graph().dst(k);
        if (u != v && clusterOf[u] == clusterOf[v]) {
          gRows[j] = clusterOf[u];
          gCols[j] = k;
          gVals[j] = 1f / internal[clusterOf[u]];
          j++;
        }
      }
      gateMatrix = SparseMatrices.coo(manager, clusterCount, Math.max(e, 1), gRows, gCols, gVals);
      float[] fill = new float[clusterCount];
      for (int c = 0; c < clusterCount; c++) {
        fill[c] = internal[c] == 0 ? 1f : 0f;
      }
      gateFill = manager.create(fill, new Shape(clusterCount, 1));
      clusterIndex = manager.create(index);
    }

    public int clusterCount() {
      return clusterCount;
    }

    public int[] clusterOf() {
      return clusterOf.clone();
    }

    @Override
    public void close() {
      manager.close();
    }
  }

  /**
   * The discrete step: parses {@code g} with the given edge scores (one per directed input edge,
   * read without gradient) keeping at least {@code minClusters} clusters.
   */
  public static ParseResult parse(GraphTensors g, NDArray edgeScores, int minClusters) {
    return GraphParsing.parse(g.graph(), edgeScores.toFloatArray(), minClusters);
  }

  /** Builds the pooling tensors for {@code clusterOf} (values 0..clusterCount-1) on {@code g}. */
  public static Assignment assign(NDManager parent, GraphTensors g, int[] clusterOf, int clusterCount) {
    return new Assignment(parent, g, clusterOf, clusterCount);
  }

  /** Per cluster, the mean score of its internal edges, or 1 without any (clusterCount × 1). */
  public static NDArray gate(Assignment a, NDArray edgeScores) {
    NDArray s = edgeScores.reshape(-1, 1);
    if (s.getShape().get(0) == 0) {
      s = s.getManager().zeros(new Shape(1, 1));
    }
    return a.gateMatrix.matMul(s).add(a.gateFill);
  }

  /** Cluster features: gate ⊙ mean of member rows of {@code z} (clusterCount × c). */
  public static NDArray pool(Assignment a, NDArray z, NDArray edgeScores) {
    return a.memberMean.matMul(z).mul(gate(a, edgeScores));
  }

  /** Copies each cluster's row back to its members (n × c). */
  public static NDArray unpool(Assignment a, NDArray clusterFeatures) {
    return Rows.gather(clusterFeatures, a.clusterIndex);
  }
}
