package org.hsdag.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.TestDevice;
import org.hsdag.io.Pasteable;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.throughput.Objective;

/**
 * The Python lines {@code apply} prints to use a placement with OpenVINO: read the model, reshape its
 * dynamic inputs to the sizes hsdag measured (by tensor name, as {@code Model.reshape} looks them up),
 * register the test devices, set an affinity on every op the runtime has after reshaping, and compile
 * on HETERO with the hint of the objective. Reshaping can add ops the placement file does not name
 * (a constant folded from a shape): those follow their earliest consumer, else a producer, as hsdag
 * places constants ({@code HeteroAffinity}).
 *
 * @param xml the model file, as the user typed it
 * @param placementFile the placement file, as the user typed it
 * @param hetero the HETERO device string, e.g. {@code HETERO:CPU,CPU2}
 * @param testDevices test devices the placement's devices include
 * @param reshape dynamic inputs' sizes, by the name {@code reshape} takes (a tensor name, else the op's friendly name)
 * @param byTensorName whether every key of {@code reshape} is a tensor name
 * @param objective what the placement was tuned for
 * @param requests requests in flight the throughput was measured with
 * @param converted whether {@code xml} is another framework's file (ONNX, ...) the runtime's reader converts
 */
record PythonSnippet(String xml, String placementFile, String hetero, List<TestDevice> testDevices,
    Map<String, long[]> reshape, boolean byTensorName, Objective objective, int requests, boolean converted) {
  /** Indentation of every line: the block sits under its heading. */
  static final String INDENT = "    ";

  PythonSnippet {
    testDevices = List.copyOf(testDevices);
    reshape = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(reshape));
  }

  /**
   * The reshape keys of {@code graph}'s dynamic inputs {@code announced} ({@code name=1x8}, a
   * Parameter's tensor name, else its friendly name): the Parameter's first tensor name, as
   * OpenVINO's {@code Model.reshape} looks a string up among tensor names only; {@code null} when
   * one of them has none.
   */
  static Map<String, long[]> byTensorName(OpGraph graph, List<String> announced) {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (String input : announced) {
      OpNode p = parameter(graph, input.substring(0, input.lastIndexOf('=')));
      String tensor = p == null ? null : firstTensorName(p);
      if (tensor == null) {
        return null;
      }
      out.put(tensor, dims(input));
    }
    return out;
  }

  /** {@link #byTensorName}'s inputs keyed by the Parameter's friendly name (for a model whose inputs lack tensor names). */
  static Map<String, long[]> byFriendlyName(OpGraph graph, List<String> announced) {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (String input : announced) {
      String name = input.substring(0, input.lastIndexOf('='));
      OpNode p = parameter(graph, name);
      out.put(p == null ? name : p.name(), dims(input));
    }
    return out;
  }

  /** The sizes of {@code name=1x8}. */
  private static long[] dims(String input) {
    String[] dims = input.substring(input.lastIndexOf('=') + 1).split("x", -1);
    long[] shape = new long[dims.length];
    for (int a = 0; a < dims.length; a++) {
      shape[a] = Long.parseLong(dims[a]);
    }
    return shape;
  }

  /** The Parameter named {@code name} (its friendly name or one of its tensor names), or null. */
  private static OpNode parameter(OpGraph graph, String name) {
    for (OpNode n : graph.nodes()) {
      if (n.isParameter() && !n.outputs().isEmpty() && (n.name().equals(name) || tensorNames(n).contains(name))) {
        return n;
      }
    }
    return null;
  }

  /** The first tensor name of Parameter {@code p}, or null when it has none. */
  private static String firstTensorName(OpNode p) {
    List<String> tensors = tensorNames(p);
    return tensors.isEmpty() ? null : tensors.get(0);
  }

  private static List<String> tensorNames(OpNode p) {
    List<String> tensors = new ArrayList<>();
    String all = p.outputs().get(0).names();
    if (all != null) {
      for (String t : all.split(",", -1)) {
        if (!t.isBlank()) {
          tensors.add(t.trim());
        }
      }
    }
    return tensors;
  }

  /** The snippet, one line each, indented by {@link #INDENT}. */
  List<String> lines() {
    List<String> l = new ArrayList<>();
    l.add("import json, os, openvino as ov");
    l.add("core = ov.Core(); model = core.read_model(" + Pasteable.python(xml) + ")");
    if (converted) {
      // The frontend names unnamed ops by a process-wide node count; hsdag converted in a fresh process.
      l.add("# OpenVINO names the ops this file leaves unnamed (Constant_7) by the nodes this process made before:");
      l.add("# read it before any other model to get the names hsdag tuned (checked here)");
      l.add("assert set(json.load(open(" + Pasteable.python(placementFile) + "))) <= {op.get_friendly_name() for op in "
          + "model.get_ordered_ops()}, \"not the op names hsdag tuned: read this model first in the process\"");
    }
    if (!reshape.isEmpty()) {
      reshapeLines(l);
    }
    for (TestDevice t : testDevices) {
      // The pip wheel keeps its plugins in openvino/libs (an archive install: <openvino>/runtime/lib/intel64).
      l.add("core.register_plugin(os.path.join(os.path.dirname(ov.__file__), \"libs\", "
          + "\"libopenvino_intel_cpu_plugin.so\"), " + Pasteable.python(t.name()) + ")  # " + t.describe());
      l.add("core.set_property(" + Pasteable.python(t.name()) + ", {" + String.join(", ", t.properties().entrySet()
          .stream().map(e -> Pasteable.python(e.getKey()) + ": " + Pasteable.python(e.getValue())).toList()) + "})");
    }
    l.add("affinity = json.load(open(" + Pasteable.python(placementFile) + "))");
    l.add("# HETERO needs a device on every op; ops the file does not name (reshaping adds some) take their earliest");
    l.add("# consumer's device, else a producer's, as hsdag places constants");
    l.add("ops = model.get_ordered_ops(); at = {op.get_name(): k for k, op in enumerate(ops)}");
    l.add("dev = [affinity.get(op.get_friendly_name()) for op in ops]");
    l.add("for k in reversed(range(len(ops))):");
    l.add("    users = sorted(at[i.get_node().get_name()] for o in ops[k].outputs() for i in o.get_target_inputs())");
    l.add("    dev[k] = dev[k] or next((dev[u] for u in users if dev[u]), None)");
    l.add("for k, op in enumerate(ops):");
    l.add("    dev[k] = dev[k] or next((dev[at[v.get_node().get_name()]] for v in op.input_values()"
        + " if dev[at[v.get_node().get_name()]]), None)");
    l.add("    op.get_rt_info()[\"affinity\"] = dev[k]");
    if (objective == Objective.THROUGHPUT) {
      l.add("compiled = core.compile_model(model, " + Pasteable.python(hetero)
          + ", {\"PERFORMANCE_HINT\": \"THROUGHPUT\", \"PERFORMANCE_HINT_NUM_REQUESTS\": \"" + requests + "\"})");
      l.add("queue = ov.AsyncInferQueue(compiled, " + requests + ")  # " + requests
          + " requests in flight, as hsdag measured it");
      l.add("# for inputs in your_inputs: queue.start_async(inputs)   (then queue.wait_all(); results via "
          + "queue.set_callback)");
    } else {
      l.add("compiled = core.compile_model(model, " + Pasteable.python(hetero)
          + ", {\"PERFORMANCE_HINT\": \"LATENCY\"})");
      l.add("request = compiled.create_infer_request()  # request.infer({input name: array}) runs one inference");
    }
    return l.stream().map(s -> INDENT + s).toList();
  }

  private void reshapeLines(List<String> l) {
    List<String> entries = new ArrayList<>();
    reshape.forEach((name, dims) -> {
      List<String> d = new ArrayList<>();
      for (long x : dims) {
        d.add(Long.toString(x));
      }
      entries.add(Pasteable.python(name) + ": [" + String.join(", ", d) + "]");
    });
    String sizes = "{" + String.join(", ", entries) + "}";
    if (byTensorName) {
      // Compiled at the sizes hsdag announced and measured, not left dynamic.
      l.add("model.reshape(" + sizes + ")  # by tensor name, at the sizes hsdag measured");
    } else {
      l.add("sizes = " + sizes + "  # by input op name: an input here has no tensor name");
      l.add("model.reshape({p.output(0): ov.PartialShape(sizes[p.get_friendly_name()]) for p in model.get_parameters()"
          + " if p.get_friendly_name() in sizes})");
    }
  }
}
