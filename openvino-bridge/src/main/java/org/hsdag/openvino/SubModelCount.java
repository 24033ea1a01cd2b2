package org.hsdag.openvino;

import java.util.List;

/**
 * The HETERO sub-model count, checked. {@code HETERO_NUMBER_OF_SUBMODELS} is a {@code size_t}
 * computed as the compiled sub-models minus a plugin-wide counter that automatic compiles and
 * queries increase and nothing resets ({@code src/plugins/hetero/src/plugin.cpp},
 * {@code query_model_update}: {@code independent_submodel_size++} for every Parameter without
 * users), so it can come out too low or wrap around. The profiling records of a HETERO inference
 * carry the sub-model index as a {@code "subgraph<k>: "} prefix ({@link ProfilingRecord#subgraph}),
 * which counts what actually ran.
 */
public final class SubModelCount {
  private SubModelCount() {}

  /**
   * The count to report: the profiling records' when they have sub-model indices (what ran), else
   * the reported value when it is between 1 and {@code opCount}, else 0 (unknown, never a wrong
   * number).
   *
   * @param reported the property's value read as an unsigned 64-bit number
   * @param opCount ops in the model (no compile has more sub-models than ops)
   * @param profile profiling records of an inference (empty when profiling was off)
   */
  public static int checked(long reported, int opCount, List<ProfilingRecord> profile) {
    int highest = -1;
    for (ProfilingRecord r : profile) {
      highest = Math.max(highest, r.subgraph());
    }
    if (highest >= 0) {
      return highest + 1;
    }
    boolean plausible = Long.compareUnsigned(reported, 1) >= 0 && Long.compareUnsigned(reported, opCount) <= 0;
    return plausible ? (int) reported : 0;
  }
}
