package org.hsdag.policy;

import java.util.Objects;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.features.FeatureConfig;

/**
 * Every knob of the HSDAG policy and its REINFORCE training. Defaults are the improved variant
 * (reward baseline, entropy bonus, gradient clipping, damped state refinement); {@link
 * #paperFaithful()} turns all of those off and reproduces the paper/reference behaviour (eq. 14
 * with raw rewards, undamped Z_v ← Z_v + Z_cluster(v), failures as 1e10 s), except that
 * single-device placements stay legal and the cluster count keeps its lower bound.
 *
 * @param coarsening co-location rule applied before the policy sees the graph
 * @param features which node-feature groups feed the encoder
 * @param hidden width of the GCN encoder, edge scorer and cluster embeddings
 * @param gcnLayers number of GCN layers in the encoder (≥ 1)
 * @param placerHidden hidden width of the MLP placer
 * @param learningRate Adam learning rate
 * @param gamma discount γ of eq. 14 (weight γ^i on the i-th buffered step, i from 1)
 * @param stepsPerUpdate x of eq. 14: measurements buffered per update; the refinement state is
 *     reset after each update (an episode)
 * @param baseline subtract a moving-average reward and divide by a moving standard deviation
 * @param entropyBonus add entropyWeight × policy entropy to the objective
 * @param entropyWeight coefficient of the entropy bonus
 * @param imitationWeight self-imitation (Oh et al., ICML 2018): each update also raises the
 *     log-probability of the best-rewarded decision so far by this weight times its advantage
 *     over the baseline, when positive (capped at {@value #MAX_IMITATION_ADVANTAGE}); 0 is the
 *     paper's plain REINFORCE. Measurements are too dear to forget the best one found.
 * @param segmentMoves after each episode, this many placements that move a stretch of nodes along
 *     the graph's topological order onto one device (alternately where a run ends and elsewhere),
 *     around the measured placement a latency model fitted to the run ranks fastest, are measured
 *     too (0 in the paper, and no model). HETERO runs sub-models in sequence, so the optimum is a few
 *     long same-device runs; moving a stretch is a move no single-group flip can make without first
 *     getting worse. A warm start makes none ({@code WarmStartStrategy}).
 * @param gradientClip clip gradients to global L2 norm clipNorm
 * @param clipNorm the clipping threshold
 * @param refinementDecay ρ in Z ← ρ (Z + Z_cluster); 1 is the paper's plain sum
 * @param minClusters lower bound on the number of parsed clusters (never below 2 unless the graph
 *     has fewer nodes), so the policy never collapses to one cluster
 * @param minClusterFraction the bound also covers this fraction of the policy graph's nodes:
 *     clusters ≥ max(minClusters, ⌈fraction · n⌉); parsing then cuts its lowest-scoring kept edges
 * @param paperFaithful true when built by {@link Builder#paperFaithful()}; recorded for logs
 * @param seed fixed seed, or null to use the seed the tuner passes in its context
 * @param torchThreads intra-op threads for libtorch (0 leaves the engine default; default 1: the
 *     policy's tensors are small, and two OpenMP threads on a loaded 2-core machine made a step of a
 *     1,000-node graph 12x slower, 3.3 s instead of 0.27 s); pinned, runs are bit-identical across
 *     machines
 */
public record HsdagConfig(
    CoarseningMode coarsening,
    FeatureConfig features,
    int hidden,
    int gcnLayers,
    int placerHidden,
    double learningRate,
    double gamma,
    int stepsPerUpdate,
    boolean baseline,
    boolean entropyBonus,
    double entropyWeight,
    double imitationWeight,
    int segmentMoves,
    boolean gradientClip,
    double clipNorm,
    double refinementDecay,
    int minClusters,
    double minClusterFraction,
    boolean paperFaithful,
    Long seed,
    int torchThreads) {

  /** Self-imitation weight of the improved variant. */
  public static final double DEFAULT_IMITATION_WEIGHT = 1.0;

  /** Segment moves per episode in the improved variant. */
  public static final int DEFAULT_SEGMENT_MOVES = 2;

  /** The largest advantage the self-imitation term uses, so that one lucky outlier cannot dominate an update. */
  public static final double MAX_IMITATION_ADVANTAGE = 3.0;

  public HsdagConfig {
    Objects.requireNonNull(coarsening, "coarsening");
    Objects.requireNonNull(features, "features");
    require(hidden >= 1, "hidden must be >= 1 (got " + hidden + ")");
    require(gcnLayers >= 1, "gcnLayers must be >= 1 (got " + gcnLayers + ")");
    require(placerHidden >= 1, "placerHidden must be >= 1 (got " + placerHidden + ")");
    require(learningRate > 0 && Double.isFinite(learningRate), "learningRate must be > 0 (got " + learningRate + ")");
    require(gamma > 0 && gamma <= 1, "gamma must be in (0, 1] (got " + gamma + ")");
    require(stepsPerUpdate >= 1, "stepsPerUpdate must be >= 1 (got " + stepsPerUpdate + ")");
    require(entropyWeight >= 0, "entropyWeight must be >= 0 (got " + entropyWeight + ")");
    require(imitationWeight >= 0 && Double.isFinite(imitationWeight),
        "imitationWeight must be >= 0 (got " + imitationWeight + ")");
    require(segmentMoves >= 0, "segmentMoves must be >= 0 (got " + segmentMoves + ")");
    require(clipNorm > 0, "clipNorm must be > 0 (got " + clipNorm + ")");
    require(refinementDecay >= 0 && refinementDecay <= 1,
        "refinementDecay must be in [0, 1] (got " + refinementDecay + ")");
    require(minClusters >= 2, "minClusters must be >= 2 (got " + minClusters + ")");
    require(minClusterFraction >= 0 && minClusterFraction <= 1,
        "minClusterFraction must be in [0, 1] (got " + minClusterFraction + ")");
    require(torchThreads >= 0, "torchThreads must be >= 0 (got " + torchThreads + ")");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The cluster-count lower bound for a policy graph of {@code nodes} nodes (at most nodes). */
  public int clusterLowerBound(int nodes) {
    return Math.max(1, Math.min(nodes, Math.max(minClusters, (int) Math.ceil(minClusterFraction * nodes))));
  }

  /** The defaults (improved variant). */
  public static HsdagConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.coarsening = coarsening;
    b.features = features;
    b.hidden = hidden;
    b.gcnLayers = gcnLayers;
    b.placerHidden = placerHidden;
    b.learningRate = learningRate;
    b.gamma = gamma;
    b.stepsPerUpdate = stepsPerUpdate;
    b.baseline = baseline;
    b.entropyBonus = entropyBonus;
    b.entropyWeight = entropyWeight;
    b.imitationWeight = imitationWeight;
    b.segmentMoves = segmentMoves;
    b.gradientClip = gradientClip;
    b.clipNorm = clipNorm;
    b.refinementDecay = refinementDecay;
    b.minClusters = minClusters;
    b.minClusterFraction = minClusterFraction;
    b.paperFaithful = paperFaithful;
    b.seed = seed;
    b.torchThreads = torchThreads;
    return b;
  }

  /** Mutable builder for {@link HsdagConfig}. */
  public static final class Builder {
    private CoarseningMode coarsening = CoarseningMode.HSDAG;
    private FeatureConfig features = FeatureConfig.DEFAULT;
    private int hidden = 64;
    private int gcnLayers = 2;
    private int placerHidden = 64;
    private double learningRate = 1e-3;
    private double gamma = 0.95;
    private int stepsPerUpdate = 5;
    private boolean baseline = true;
    private boolean entropyBonus = true;
    private double entropyWeight = 0.01;
    private double imitationWeight = DEFAULT_IMITATION_WEIGHT;
    private int segmentMoves = DEFAULT_SEGMENT_MOVES;
    private boolean gradientClip = true;
    private double clipNorm = 1.0;
    private double refinementDecay = 0.5;
    private int minClusters = 2;
    private double minClusterFraction = 0.25;
    private boolean paperFaithful;
    private Long seed;
    private int torchThreads = 1;

    public Builder coarsening(CoarseningMode v) {
      coarsening = v;
      return this;
    }
    public Builder features(FeatureConfig v) {
      features = v;
      return this;
    }
    public Builder hidden(int v) {
      hidden = v;
      return this;
    }
    public Builder gcnLayers(int v) {
      gcnLayers = v;
      return this;
    }
    public Builder placerHidden(int v) {
      placerHidden = v;
      return this;
    }
    public Builder learningRate(double v) {
      learningRate = v;
      return this;
    }
    public Builder gamma(double v) {
      gamma = v;
      return this;
    }
    public Builder stepsPerUpdate(int v) {
      stepsPerUpdate = v;
      return this;
    }
    public Builder baseline(boolean v) {
      baseline = v;
      return this;
    }
    public Builder entropyBonus(boolean v) {
      entropyBonus = v;
      return this;
    }
    public Builder entropyWeight(double v) {
      entropyWeight = v;
      return this;
    }
    public Builder imitationWeight(double v) {
      imitationWeight = v;
      return this;
    }
    public Builder segmentMoves(int v) {
      segmentMoves = v;
      return this;
    }
    public Builder gradientClip(boolean v) {
      gradientClip = v;
      return this;
    }
    public Builder clipNorm(double v) {
      clipNorm = v;
      return this;
    }
    public Builder refinementDecay(double v) {
      refinementDecay = v;
      return this;
    }
    public Builder minClusters(int v) {
      minClusters = v;
      return this;
    }
    public Builder minClusterFraction(double v) {
      minClusterFraction = v;
      return this;
    }
    public Builder seed(Long v) {
      seed = v;
      return this;
    }
    public Builder torchThreads(int v) {
      torchThreads = v;
      return this;
    }

    /**
     * The paper's training as published: no baseline, no entropy bonus, no self-imitation, no
     * segment moves, no clipping, plain-sum refinement, γ = 0.95 and 20 steps per update (one reference-code episode).
     */
    public Builder paperFaithful() {
      paperFaithful = true;
      baseline = false;
      entropyBonus = false;
      imitationWeight = 0;
      segmentMoves = 0;
      gradientClip = false;
      refinementDecay = 1.0;
      gamma = 0.95;
      stepsPerUpdate = 20;
      return this;
    }

    public HsdagConfig build() {
      return new HsdagConfig(coarsening, features, hidden, gcnLayers, placerHidden, learningRate, gamma, stepsPerUpdate,
          baseline, entropyBonus, entropyWeight, imitationWeight, segmentMoves, gradientClip, clipNorm, refinementDecay,
          minClusters, minClusterFraction, paperFaithful,
          seed, torchThreads);
    }
  }
}
