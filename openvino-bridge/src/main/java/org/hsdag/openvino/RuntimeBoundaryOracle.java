package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.hsdag.cost.BoundaryOracle;
import org.hsdag.cost.CachedBoundaryOracle;
import org.hsdag.ir.OpGraph;

/**
 * The runtime as the judge of HETERO's boundaries (docs/hetero-rules.md §3): the split's cuts are
 * rebuilt on a copy of the model OpenVINO read, as HETERO's subgraph collector builds them, and the
 * runtime's own shape inference says which crossing tensors stay static ({@link
 * OpenVinoRuntime.Model#boundaryShapes}); nothing is compiled. Cuts into nodes the runtime's model
 * lacks (layers its reader merged away) are left out: they are no boundary there.
 */
final class RuntimeBoundaryOracle implements BoundaryOracle {
  /** The source every verdict names. */
  static final String SOURCE = "the runtime's shape inference";

  /** Answers kept per model, by cut set: a search asks about the same splits again and again. */
  static final int CACHE = 4096;

  private final OpGraph graph;
  /** Held while the runtime's model is used: the backend measures on the same model. */
  private final Object lock;
  private final Supplier<OpenVinoRuntime.Model> model;
  /** The runtime's op index of each graph node, or -1 (absent or its name not unique there); read on first use. */
  private int[] opOfNode;
  private int[] inputsOfOp;

  /** The oracle of {@code graph} (the runtime's {@code model}) behind a cache of {@value #CACHE} cut sets. */
  static BoundaryOracle cached(OpGraph graph, Object lock, Supplier<OpenVinoRuntime.Model> model) {
    return new CachedBoundaryOracle(new RuntimeBoundaryOracle(graph, lock, model), CACHE);
  }

  /** {@code model} is asked at the first verdict, under {@code lock}: building a cost model reads no runtime model. */
  RuntimeBoundaryOracle(OpGraph graph, Object lock, Supplier<OpenVinoRuntime.Model> model) {
    this.graph = graph;
    this.lock = lock;
    this.model = model;
  }

  private void mapNodes() {
    if (opOfNode != null) {
      return;
    }
    List<OpenVinoRuntime.ModelOp> read = model.get().ops();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < read.size(); i++) {
      Integer old = index.put(read.get(i).name(), i);
      if (old != null) {
        index.put(read.get(i).name(), -1);
      }
    }
    int[] map = new int[graph.nodeCount()];
    for (int v = 0; v < map.length; v++) {
      map[v] = index.getOrDefault(graph.node(v).name(), -1);
    }
    inputsOfOp = read.stream().mapToInt(OpenVinoRuntime.ModelOp::inputs).toArray();
    opOfNode = map;
  }

  @Override
  public Verdict judge(List<Cut> cuts) {
    synchronized (lock) {
      mapNodes();
      return judgeMapped(cuts);
    }
  }

  private Verdict judgeMapped(List<Cut> cuts) {
    List<Integer> asked = new ArrayList<>();
    for (int k = 0; k < cuts.size(); k++) {
      Cut c = cuts.get(k);
      int op = c.consumer() < opOfNode.length ? opOfNode[c.consumer()] : -1;
      if (op >= 0 && c.port() < inputsOfOp[op]) {
        asked.add(k);
      }
    }
    int[] consumers = new int[asked.size()];
    int[] ports = new int[asked.size()];
    for (int j = 0; j < consumers.length; j++) {
      Cut c = cuts.get(asked.get(j));
      consumers[j] = opOfNode[c.consumer()];
      ports[j] = c.port();
    }
    OpenVinoRuntime.BoundaryShapes b;
    try {
      b = model.get().boundaryShapes(consumers, ports);
    } catch (OpenVinoException e) {
      // The cut model does not even infer: no sub-model of it could be compiled either.
      return asked.isEmpty() ? new Verdict(-1, "", -1) : new Verdict(asked.get(0), "none: " + e.getMessage(), -1);
    }
    for (int j = 0; j < consumers.length; j++) {
      if (!b.isStatic(j)) {
        return new Verdict(asked.get(j), b.shapes().get(j), b.subModels());
      }
    }
    return new Verdict(-1, "", b.subModels());
  }

  /** The runtime's model is read and given the input sizes ({@link StaticInputs}): its shape inference answers. */
  @Override
  public java.util.Optional<String> inputSizeProblem() {
    synchronized (lock) {
      try {
        mapNodes();
        return java.util.Optional.empty();
      } catch (IllegalStateException e) {
        return java.util.Optional.of(e.getMessage());
      }
    }
  }

  @Override
  public String source() {
    return SOURCE;
  }
}
