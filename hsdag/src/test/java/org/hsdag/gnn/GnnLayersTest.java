package org.hsdag.gnn;

import static org.hsdag.gnn.Ref.assertClose;
import static org.hsdag.gnn.Ref.d;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.hsdag.coarsen.IntGraph;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every layer against a dense double-precision reference on a small graph: forward values, and
 * autograd gradients against central differences of the reference.
 */
class GnnLayersTest {
  // 0-1 twice (both directions), 1-2, 2-3, 0-2, a self-loop on 3, node 4 isolated.
  static final IntGraph GRAPH = new IntGraph(5, new int[] {0, 1, 1, 2, 3, 0}, new int[] {1, 0, 2, 3, 3, 2});
  static final double[][] ADJ = {
      {0, 1, 1, 0, 0},
      {1, 0, 1, 0, 0},
      {1, 1, 0, 1, 0},
      {0, 0, 1, 0, 0},
      {0, 0, 0, 0, 0},
  };
  static final int N = 5;
  static final int F = 3;
  static final int H = 4;

  NDManager manager;
  GraphTensors graph;
  ParameterStore store;

  @BeforeEach
  void setUp() {
    manager = NDManager.newBaseManager();
    graph = new GraphTensors(manager, GRAPH);
    store = new ParameterStore(manager, 7);
  }

  @AfterEach
  void tearDown() {
    manager.close();
  }

  static double[] gcnNormalised() {
    double[] deg = new double[N];
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        deg[i] += ADJ[i][j];
      }
      deg[i] += 1;
    }
    double[] a = new double[N * N];
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        a[i * N + j] = (ADJ[i][j] + (i == j ? 1 : 0)) / Math.sqrt(deg[i] * deg[j]);
      }
    }
    return a;
  }

  /** Runs forward+backward of sum(out ⊙ R) with x requiring gradient; returns out. */
  float[] forwardBackward(NDArray x, Function<NDArray, NDArray> layer, float[] r) {
    float[] out;
    try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
      NDArray y = layer.apply(x);
      out = y.toFloatArray();
      gc.backward(y.mul(manager.create(r, y.getShape())).sum());
    }
    return out;
  }

  NDArray input(long seed, int rows, int cols) {
    NDArray x = manager.create(Ref.values(seed, rows * cols), new Shape(rows, cols));
    x.setRequiresGradient(true);
    return x;
  }

  /** Compares values and gradients for a reference over [x, params...] concatenated. */
  void check(ToDoubleFunction<double[]> loss, Function<double[], double[]> forward, float[] out, NDArray x,
      NDArray... params) {
    double[][] parts = new double[params.length + 1][];
    parts[0] = d(x.toFloatArray());
    for (int i = 0; i < params.length; i++) {
      parts[i + 1] = d(params[i].toFloatArray());
    }
    double[] at = Ref.concat(parts);
    assertClose(forward.apply(at), out, 1e-5, "forward");
    double[] num = Ref.numericalGradient(loss, at);
    int o = 0;
    NDArray[] all = new NDArray[params.length + 1];
    all[0] = x;
    System.arraycopy(params, 0, all, 1, params.length);
    for (NDArray p : all) {
      int len = Math.toIntExact(p.size());
      assertClose(Ref.slice(num, o, len), p.getGradient().toFloatArray(), 1e-3, "grad " + p.getName());
      o += len;
    }
  }

  @Test
  void graphTensorsSymmetriseDeduplicateAndNormalise() {
    assertArrayEquals(new int[] {1, 2}, graph.neighbours(0));
    assertArrayEquals(new int[] {0, 1, 3}, graph.neighbours(2));
    assertArrayEquals(new int[] {2}, graph.neighbours(3));
    assertEquals(0, graph.degree(4));
    float[] dense = graph.gcnAdjacency().matMul(manager.eye(N)).toFloatArray();
    // Hand-computed entries: degrees with self-loop are 3, 3, 4, 2, 1.
    assertEquals(1.0 / 3, dense[1], 1e-6);
    assertEquals(1.0 / Math.sqrt(8), dense[2 * N + 3], 1e-6);
    assertEquals(1.0 / 2, dense[3 * N + 3], 1e-6);
    assertEquals(1.0, dense[4 * N + 4], 1e-6);
    assertClose(gcnNormalised(), dense, 1e-6, "D^-1/2 (A+I) D^-1/2");
  }

  @Test
  void gcnConvMatchesDenseReference() {
    GCNConv conv = new GCNConv(store, "gcn", F, H);
    NDArray x = input(1, N, F);
    float[] r = Ref.values(2, N * H);
    float[] out = forwardBackward(x, v -> conv.forward(graph, v), r);
    Function<double[], double[]> ref = at -> {
      double[] xs = Ref.slice(at, 0, N * F);
      double[] w = Ref.slice(at, N * F, F * H);
      double[] b = Ref.slice(at, N * F + F * H, H);
      return Ref.addRow(Ref.matmul(gcnNormalised(), Ref.matmul(xs, w, N, F, H), N, N, H), b, N, H);
    };
    check(at -> Ref.dot(ref.apply(at), d(r)), ref, out, x, conv.weight(), conv.bias());
  }

  @Test
  void mlpMatchesDenseReference() {
    Mlp mlp = new Mlp(store, "mlp", F, H, 2);
    NDArray x = input(8, N, F);
    float[] r = Ref.values(9, N * 2);
    float[] out = forwardBackward(x, mlp::forward, r);
    Linear l0 = mlp.layers().get(0);
    Linear l1 = mlp.layers().get(1);
    Function<double[], double[]> ref = at -> {
      int o = 0;
      double[] xs = Ref.slice(at, o, N * F);
      double[] w0 = Ref.slice(at, o += N * F, F * H);
      double[] b0 = Ref.slice(at, o += F * H, H);
      double[] w1 = Ref.slice(at, o += H, H * 2);
      double[] b1 = Ref.slice(at, o + H * 2, 2);
      double[] h = Ref.relu(Ref.addRow(Ref.matmul(xs, w0, N, F, H), b0, N, H));
      return Ref.addRow(Ref.matmul(h, w1, N, H, 2), b1, N, 2);
    };
    check(at -> Ref.dot(ref.apply(at), d(r)), ref, out, x, l0.weight(), l0.bias(), l1.weight(), l1.bias());
  }

  static double[] edgeScores(double[] z, double[] w0, double[] b0, double[] w1, double[] b1, double skip) {
    int e = GRAPH.edgeCount();
    double[] prod = new double[e * H];
    for (int k = 0; k < e; k++) {
      for (int t = 0; t < H; t++) {
        prod[k * H + t] = z[GRAPH.src(k) * H + t] * z[GRAPH.dst(k) * H + t];
      }
    }
    double[] h = Ref.relu(Ref.addRow(Ref.matmul(prod, w0, e, H, H), b0, e, H));
    double[] logit = Ref.addRow(Ref.matmul(h, w1, e, H, 1), b1, e, 1);
    double[] s = new double[e];
    for (int k = 0; k < e; k++) {
      double dot = 0;
      for (int t = 0; t < H; t++) {
        dot += prod[k * H + t];
      }
      s[k] = 1 / (1 + Math.exp(-(logit[k] + skip * dot)));
    }
    return s;
  }

  @Test
  void edgeScorerMatchesDenseReferenceAndIsSymmetric() {
    EdgeScorer scorer = new EdgeScorer(store, "edge", H);
    NDArray z = input(10, N, H);
    int e = GRAPH.edgeCount();
    float[] r = Ref.values(11, e);
    float[] out = forwardBackward(z, v -> scorer.forward(graph, v), r);
    assertEquals(out[0], out[1], 0f, "edges 0->1 and 1->0 score alike");
    Linear l0 = scorer.mlp().layers().get(0);
    Linear l1 = scorer.mlp().layers().get(1);
    Function<double[], double[]> ref = at -> {
      int o = 0;
      double[] zs = Ref.slice(at, o, N * H);
      double[] w0 = Ref.slice(at, o += N * H, H * H);
      double[] b0 = Ref.slice(at, o += H * H, H);
      double[] w1 = Ref.slice(at, o += H, H);
      double[] b1 = Ref.slice(at, o += H, 1);
      return edgeScores(zs, w0, b0, w1, b1, at[o + 1]);
    };
    check(at -> Ref.dot(ref.apply(at), d(r)), ref, out, z, l0.weight(), l0.bias(), l1.weight(), l1.bias(),
        scorer.skipScale());
  }

  @Test
  void graphParsingPoolGatesMeanPoolingByInternalEdgeScores() {
    // Clusters {0,1}, {2,3}, {4}: internal edges 0,1 (0-1 both ways), 3 (2->3); 4 (3->3) is a self-loop.
    int[] clusterOf = {0, 0, 1, 1, 2};
    NDArray z = input(12, N, H);
    NDArray scores = manager.create(new float[] {0.9f, 0.7f, 0.2f, 0.6f, 0.3f, 0.4f});
    scores.setRequiresGradient(true);
    float[] r = Ref.values(13, 3 * H);
    // The discrete step finds exactly these clusters: 0 and 1 keep edge 0-1 (0.9), 2 and 3 keep 2->3 (0.6).
    assertArrayEquals(clusterOf, GraphParsingPool.parse(graph, scores, 1).clusterOf());
    float[] out;
    float[] unpooled;
    try (GraphParsingPool.Assignment a = GraphParsingPool.assign(manager, graph, clusterOf, 3)) {
      // Hand-computed gates: (0.9+0.7)/2, 0.6 alone, singleton 1.
      assertClose(new double[] {0.8, 0.6, 1.0}, GraphParsingPool.gate(a, scores).toFloatArray(), 1e-6, "gates");
      try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray pooled = GraphParsingPool.pool(a, z, scores);
        out = pooled.toFloatArray();
        unpooled = GraphParsingPool.unpool(a, pooled).toFloatArray();
        gc.backward(pooled.mul(manager.create(r, pooled.getShape())).sum());
      }
    }
    Function<double[], double[]> ref = at -> {
      double[] o = new double[3 * H];
      double[] g = {(at[N * H] + at[N * H + 1]) / 2, at[N * H + 3], 1};
      int[] size = {2, 2, 1};
      for (int v = 0; v < N; v++) {
        for (int t = 0; t < H; t++) {
          o[clusterOf[v] * H + t] += at[v * H + t] / size[clusterOf[v]] * g[clusterOf[v]];
        }
      }
      return o;
    };
    check(at -> Ref.dot(ref.apply(at), d(r)), ref, out, z, scores);
    for (int v = 0; v < N; v++) {
      for (int t = 0; t < H; t++) {
        assertEquals(out[clusterOf[v] * H + t], unpooled[v * H + t], 0f);
      }
    }
  }
}
