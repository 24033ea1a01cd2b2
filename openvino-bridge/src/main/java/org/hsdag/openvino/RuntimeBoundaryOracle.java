package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.BoundaryOracle;
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

  /** Asks the runtime about cut inputs given as its own op indices and input ports. */
  @FunctionalInterface
  interface Shapes {
    OpenVinoRuntime.BoundaryShapes boundaryShapes(int[] consumers, int[] ports);
  }

  private final Shapes runtime;
  /** The runtime's op index of each graph node, or -1 (absent or its name not unique there). */
  private final int[] opOfNode;
  private final int[] inputsOfOp;

  RuntimeBoundaryOracle(OpGraph graph, List<OpenVinoRuntime.ModelOp> ops, Shapes runtime) {
    this.runtime = runtime;
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      Integer old = index.put(ops.get(i).name(), i);
      if (old != null) {
        index.put(ops.get(i).name(), -1);
      }
    }
    opOfNode = new int[graph.nodeCount()];
    for (int v = 0; v < opOfNode.length; v++) {
      opOfNode[v] = index.getOrDefault(graph.node(v).name(), -1);
    }
    inputsOfOp = ops.stream().mapToInt(OpenVinoRuntime.ModelOp::inputs).toArray();
  }

  @Override
  public Verdict judge(List<Cut> cuts) {
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
      b = runtime.boundaryShapes(consumers, ports);
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

  @Override
  public String source() {
    return SOURCE;
  }
}
