package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One primitive a device executes in a compiled model, from {@code CompiledModel::get_runtime_model()}:
 * its name (the name profiling records carry; in the CPU plugin both are the plugin node's name,
 * {@code src/plugins/intel_cpu/src/graph_dumper.cpp} and {@code Graph::GetPerfData} in
 * {@code graph.cpp}) and the original layers fused into it (rt_info {@code "originalLayersNames"},
 * {@code ov::exec_model_info::ORIGINAL_NAMES}).
 *
 * @param name the executed node's friendly name
 * @param originalNames names of the layers fused into it, in OpenVINO's order (empty when the plugin does not say)
 */
public record ExecutedNode(String name, List<String> originalNames) {
  public ExecutedNode {
    Objects.requireNonNull(name, "name");
    originalNames = originalNames == null ? List.of() : List.copyOf(originalNames);
  }

  /** Splits OpenVINO's comma-separated {@code originalLayersNames} value (blank entries dropped). */
  public static ExecutedNode of(String name, String commaSeparatedOriginals) {
    List<String> names = new ArrayList<>();
    if (commaSeparatedOriginals != null) {
      for (String s : commaSeparatedOriginals.split(",", -1)) {
        if (!s.isBlank()) {
          names.add(s.trim());
        }
      }
    }
    return new ExecutedNode(name, names);
  }
}
