package org.hsdag.features;

/**
 * Which feature groups of the paper's §2.3 {@link FeatureExtractor} emits, so the Table 3 ablations are
 * one switch each. Column order follows the paper, T ‖ S ‖ Δin ‖ Δout ‖ D ‖ PE, plus a cluster-size
 * column that is always present.
 *
 * @param opType one-hot op type over the fixed {@link OpTypeVocabulary}
 * @param degrees in-degree and out-degree one-hot, capped with an overflow slot
 * @param fractalDimension the node's fractal dimension D(v) (paper eq. 4)
 * @param nodeId sinusoidal encoding of the topological index (paper eq. 5, "node ID" in Table 3)
 * @param outputShape the output shape padded to a fixed rank, log-scaled
 * @param positionalDims d_pos, the width of the sinusoidal encoding (used when nodeId is on)
 */
public record FeatureConfig(
    boolean opType, boolean degrees, boolean fractalDimension, boolean nodeId, boolean outputShape,
    int positionalDims) {

  /** Every group on, d_pos = 16. */
  public static final FeatureConfig DEFAULT = new FeatureConfig(true, true, true, true, true, 16);

  public FeatureConfig {
    if (positionalDims < 1 || positionalDims > 1024) {
      throw new IllegalArgumentException("positionalDims must be in 1..1024 (got " + positionalDims + ")");
    }
  }

  /** Table 3 "w/o output shape". */
  public FeatureConfig withoutOutputShape() {
    return new FeatureConfig(opType, degrees, fractalDimension, nodeId, false, positionalDims);
  }

  /** Table 3 "w/o node ID": no topological-index encoding. */
  public FeatureConfig withoutNodeId() {
    return new FeatureConfig(opType, degrees, fractalDimension, false, outputShape, positionalDims);
  }

  /** Table 3 "w/o graph structural features": no fractal dimension, no degrees. */
  public FeatureConfig withoutStructural() {
    return new FeatureConfig(opType, false, false, nodeId, outputShape, positionalDims);
  }
}
