package org.hsdag.cost;

import java.util.List;
import java.util.Optional;

/**
 * Who judges the tensors that cross HETERO's sub-models of one split: does each keep a static shape
 * inside its producer's sub-model (docs/hetero-rules.md §3)? Where OpenVINO is loaded, the runtime's
 * own shape inference answers (the openvino backend); without one, {@link HeteroSplit} falls back on
 * hsdag's rules ({@link ShapeBoundaries}). No OpenVINO type appears here.
 */
public interface BoundaryOracle {
  /** The source named when hsdag's own rules answer. */
  String RULES = "hsdag's rules";

  /**
   * One cut: input {@code port} (in input order) of graph node {@code consumer} is fed from another
   * sub-model.
   */
  record Cut(int consumer, int port) {}

  /**
   * The runtime's answer on one split's cuts.
   *
   * @param firstDynamic index into the cuts of the first tensor whose shape is dynamic inside its
   *     producer's sub-model (HETERO refuses the split), or -1 when every one is static
   * @param shape that tensor's shape there (OpenVINO's notation, e.g. {@code [2,?]}), or empty
   * @param subModels the sub-models the cuts make, as the runtime counts them (components holding a
   *     Parameter or a Result), or -1 when unknown
   */
  record Verdict(int firstDynamic, String shape, int subModels) {
    /** Whether HETERO refuses the split. */
    public boolean refused() {
      return firstDynamic >= 0;
    }
  }

  /** Judges the cuts of one split (the boundaries of its sub-models, in the split's edge order). */
  Verdict judge(List<Cut> cuts);

  /**
   * Why the runtime's shape inference refuses the model's inputs at the sizes it was given (one
   * line naming the input), or empty when it takes them or no runtime answers (hsdag's rules).
   */
  default Optional<String> inputSizeProblem() {
    return Optional.empty();
  }

  /** Who answers, for messages: e.g. "the runtime's shape inference". */
  String source();
}
