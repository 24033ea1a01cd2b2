package org.hsdag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link GCNConv} against PyTorch Geometric 2.8.0's {@code GCNConv} itself: {@code
 * ../shared/pyg-golden/<graph>.json} holds, in float64, the input x, PyG's parameters, the output
 * and the gradients of sum(output ⊙ loss_weights) with respect to x, the weight and the bias, on
 * graphs with a repeated edge, an isolated node and two real IRs. The layer runs in float64 here
 * so that the comparison at 1e-5 measures the algorithm, not float32 rounding.
 */
class PygGoldenTest {
  private static final double TOLERANCE = 1e-5;

  static JsonNode golden(String name) throws IOException {
    Path dir = Samples.sharedDir().resolve("pyg-golden");
    Path file = dir.resolve(name + ".json");
    assumeTrue(Files.isRegularFile(file), "skipped: PyG golden file " + file.toAbsolutePath()
        + " not found (../shared/pyg-golden is absent)");
    return new ObjectMapper().readTree(file.toFile());
  }

  static int[][] edges(JsonNode pairs) {
    int[][] e = new int[2][pairs.size()];
    for (int k = 0; k < pairs.size(); k++) {
      e[0][k] = pairs.get(k).get(0).asInt();
      e[1][k] = pairs.get(k).get(1).asInt();
    }
    return e;
  }

  /** Row-major values of a vector or matrix. */
  static double[] flat(JsonNode node) {
    List<Double> out = new ArrayList<>();
    for (JsonNode row : node) {
      if (row.isArray()) {
        row.forEach(v -> out.add(v.asDouble()));
      } else {
        out.add(row.asDouble());
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The (rows × cols) matrix m transposed: PyG's lin.weight is (out × in), ours (in × out). */
  static double[] transpose(double[] m, int rows, int cols) {
    double[] t = new double[m.length];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        t[j * rows + i] = m[i * cols + j];
      }
    }
    return t;
  }

  static double maxAbsError(double[] expected, double[] actual) {
    assertTrue(expected.length == actual.length, "sizes " + expected.length + " vs " + actual.length);
    double max = 0;
    for (int i = 0; i < expected.length; i++) {
      max = Math.max(max, Math.abs(expected[i] - actual[i]));
    }
    return max;
  }

  @ParameterizedTest
  @ValueSource(strings = {"tiny", "random_dag_200", "resnet50_ir", "yolo11n_ir"})
  void gcnConvMatchesPyTorchGeometric(String name) throws IOException {
    JsonNode gold = golden(name);
    int n = gold.get("nodes").asInt();
    int[][] directed = edges(gold.get("edges_directed"));
    IntGraph graph = new IntGraph(n, directed[0], directed[1]);
    double[] x = flat(gold.get("x"));
    int in = x.length / n;
    JsonNode layer = gold.get("layers").get("gcn");
    double[] weight = flat(layer.get("param.lin.weight"));
    int out = weight.length / in;
    try (NDManager manager = NDManager.newBaseManager();
        GraphTensors tensors = new GraphTensors(manager, graph, DataType.FLOAT64);
        ParameterStore store = new ParameterStore(manager, 1, DataType.FLOAT64)) {
      // PyG's GCNConv saw to_undirected(edges_directed): our symmetrisation must give the same neighbours.
      int[][] undirected = edges(gold.get("edges_undirected"));
      List<TreeSet<Integer>> expectedNeighbours = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        expectedNeighbours.add(new TreeSet<>());
      }
      for (int k = 0; k < undirected[0].length; k++) {
        expectedNeighbours.get(undirected[1][k]).add(undirected[0][k]);
      }
      for (int v = 0; v < n; v++) {
        assertArrayEquals(expectedNeighbours.get(v).stream().mapToInt(Integer::intValue).toArray(),
            tensors.neighbours(v), name + ": neighbours of node " + v);
      }
      GCNConv conv = new GCNConv(store, "gcn", in, out);
      store.load("gcn.lin.weight", transpose(weight, out, in));
      store.load("gcn.bias", flat(layer.get("param.bias")));
      NDArray xs = manager.create(x, new Shape(n, in));
      xs.setRequiresGradient(true);
      double[] output;
      try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray y = conv.forward(tensors, xs);
        output = y.toDoubleArray();
        gc.backward(y.mul(manager.create(flat(gold.get("loss_weights")), y.getShape())).sum());
      }
      double[] errors = {
          maxAbsError(flat(layer.get("output")), output),
          maxAbsError(flat(layer.get("grad_x")), xs.getGradient().toDoubleArray()),
          maxAbsError(transpose(flat(layer.get("grad.lin.weight")), out, in),
              conv.weight().getGradient().toDoubleArray()),
          maxAbsError(flat(layer.get("grad.bias")), conv.bias().getGradient().toDoubleArray()),
      };
      String summary = String.format("%s gcn max abs error: output %.2e, grad x %.2e, grad weight %.2e, grad bias %.2e",
          name, errors[0], errors[1], errors[2], errors[3]);
      System.out.println(summary);
      for (double e : errors) {
        assertTrue(e <= TOLERANCE, summary);
      }
    }
  }
}
