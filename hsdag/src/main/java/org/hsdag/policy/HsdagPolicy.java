package org.hsdag.policy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.training.GradientCollector;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.gnn.EdgeScorer;
import org.hsdag.gnn.GCNConv;
import org.hsdag.gnn.GraphParsingPool;
import org.hsdag.gnn.GraphTensors;
import org.hsdag.gnn.Mlp;
import org.hsdag.gnn.ParameterStore;
import org.hsdag.gnn.Scalars;
import org.hsdag.parsing.ParseResult;

/**
 * The HSDAG network on one (coarsened) graph: standardised node features → GCN encoder (+ the
 * refinement state) → edge scores (eq. 7) → discrete graph parsing with a lower bound on the
 * cluster count → gated mean-pooled cluster embeddings → MLP placer → a masked device distribution
 * per cluster, sampled by Gumbel-max from a Java {@link SplittableRandom}.
 *
 * <p>State refinement (§2.5): after each step the detached cluster embedding is added to its
 * members, Z ← ρ (Z + Z_cluster(v)), and the next step parses again. ρ = 1 is the paper; the
 * default ρ = 0.5 keeps the state bounded (with ρ = 1 it roughly doubles every step). {@link
 * #resetState()} starts a new episode.
 *
 * <p>Device masks: a cluster may use the devices every member supports. When its members have no
 * device in common, it samples from the union instead and the caller moves each op whose device it
 * cannot run to that op's first supported device (see HsdagStrategy in the strategy package); the log-probability
 * still refers to the sampled cluster decision.
 */
public final class HsdagPolicy implements AutoCloseable {
  private static final float MASKED = -1e9f;

  private final NDManager manager;
  private final ParameterStore store;
  private final GraphTensors graph;
  private final NDArray features;
  private final NDArray aggregatedFeatures;
  private final List<GCNConv> encoder = new ArrayList<>();
  private final EdgeScorer scorer;
  private final Mlp placer;
  private final long[] nodeMask;
  private final int deviceCount;
  private final int hidden;
  private final int minClusters;
  private final float refinementDecay;
  private NDArray state;
  // Forward passes of the network run so far (sampling and re-scoring), for the cost checks of tests and benchmarks.
  private long forwardPasses;
  // Wall time of the sampling forward passes so far, by part (nanoseconds), for the step benchmark.
  private long encodeNanos;
  private long poolNanos;
  private long placeNanos;

  /** One sampled decision (its arrays copied in and out); owns {@code state}, the refinement state it was taken in. */
  public static final class Decision implements AutoCloseable {
    private final int[] clusterOf;
    private final int clusterCount;
    private final int[] devicePerCluster;
    private final long[] clusterMask;
    private final double logProb;
    private final NDArray state;

    public Decision(int[] clusterOf, int clusterCount, int[] devicePerCluster, long[] clusterMask, double logProb,
        NDArray state) {
      this.clusterOf = clusterOf.clone();
      this.clusterCount = clusterCount;
      this.devicePerCluster = devicePerCluster.clone();
      this.clusterMask = clusterMask.clone();
      this.logProb = logProb;
      this.state = state;
    }

    public int[] clusterOf() {
      return clusterOf.clone();
    }

    public int clusterCount() {
      return clusterCount;
    }

    public int[] devicePerCluster() {
      return devicePerCluster.clone();
    }

    public long[] clusterMask() {
      return clusterMask.clone();
    }

    public double logProb() {
      return logProb;
    }

    public NDArray state() {
      return state;
    }

    @Override
    public void close() {
      state.close();
    }
  }

  /**
   * Differentiable log-probability of a decision and the policy entropy (both scalars); close it
   * after the backward pass (it holds the step's pooling tensors).
   */
  public record Scored(NDArray logProb, NDArray entropy, GraphParsingPool.Assignment assignment)
      implements
        AutoCloseable {
    @Override
    public void close() {
      logProb.close();
      entropy.close();
      assignment.close();
    }
  }

  /**
   * @param graph the graph the policy places (usually the co-location quotient)
   * @param featureRows row-major features, one row per node of {@code graph}
   * @param featureColumns features per row
   * @param nodeMask per node, bit d set when device d may run every op of the node
   * @param deviceCount number of devices (≤ 63)
   */
  public HsdagPolicy(
      NDManager parent, HsdagConfig config, IntGraph graph, float[] featureRows, int featureColumns, long[] nodeMask,
      int deviceCount, long seed) {
    int n = graph.nodeCount();
    if (n < 1) {
      throw new IllegalArgumentException("the policy needs at least one node");
    }
    if (featureRows.length != n * featureColumns || nodeMask.length != n) {
      throw new IllegalArgumentException("features/masks do not match " + n + " nodes");
    }
    this.manager = parent.newSubManager();
    this.store = new ParameterStore(manager, seed);
    this.graph = new GraphTensors(manager, graph);
    this.nodeMask = nodeMask.clone();
    this.deviceCount = deviceCount;
    this.hidden = config.hidden();
    this.minClusters = config.clusterLowerBound(graph.nodeCount());
    this.refinementDecay = (float) config.refinementDecay();
    this.features = manager.create(standardise(featureRows, n, featureColumns), new Shape(n, featureColumns));
    this.aggregatedFeatures = this.graph.gcnAdjacency().matMul(features);
    int in = featureColumns;
    for (int l = 0; l < config.gcnLayers(); l++) {
      encoder.add(new GCNConv(store, "encoder." + l, in, hidden));
      in = hidden;
    }
    this.scorer = new EdgeScorer(store, "edge", hidden);
    this.placer = new Mlp(store, "placer", hidden, config.placerHidden(), deviceCount);
    this.state = manager.zeros(new Shape(n, hidden));
  }

  /** Zero-mean unit-variance columns (constant columns become 0), so no feature dominates. */
  static float[] standardise(float[] x, int rows, int cols) {
    float[] out = new float[x.length];
    for (int c = 0; c < cols; c++) {
      double mean = 0;
      for (int r = 0; r < rows; r++) {
        mean += x[r * cols + c];
      }
      mean /= rows;
      double var = 0;
      for (int r = 0; r < rows; r++) {
        double d = x[r * cols + c] - mean;
        var += d * d;
      }
      double sd = Math.sqrt(var / rows);
      for (int r = 0; r < rows; r++) {
        out[r * cols + c] = sd > 1e-12 ? (float) ((x[r * cols + c] - mean) / sd) : 0f;
      }
    }
    return out;
  }

  public ParameterStore parameters() {
    return store;
  }

  public int nodeCount() {
    return graph.nodeCount();
  }

  public int hidden() {
    return hidden;
  }

  public int deviceCount() {
    return deviceCount;
  }

  /** Forward passes of the network so far: one per decision sampled and one per decision re-scored. */
  public long forwardPasses() {
    return forwardPasses;
  }

  /**
   * Where the sampling forward passes ({@link #act}, {@link #actRecorded}) spent their wall time so
   * far, in milliseconds (libtorch on the CPU runs each op before returning, so the parts are honest).
   *
   * @param encoderMillis the GCN encoder and the refinement state
   * @param poolingMillis edge scores, graph parsing, cluster assignment and pooling
   * @param placerMillis the MLP placer's masked log-probabilities, the Gumbel-max sampling and the next state
   */
  public record ForwardTimes(double encoderMillis, double poolingMillis, double placerMillis) {}

  /** The sampling forward passes' time so far, by part. */
  public ForwardTimes forwardTimes() {
    return new ForwardTimes(encodeNanos / 1e6, poolNanos / 1e6, placeNanos / 1e6);
  }

  /** The current refinement state (n × hidden); owned by the policy. */
  public NDArray state() {
    return state;
  }

  /** Replaces the refinement state with the given values (for restore). */
  public void setState(float[] values) {
    NDArray fresh = manager.create(values, new Shape(graph.nodeCount(), hidden));
    state.close();
    state = fresh;
  }

  /** Starts a new episode: refinement state back to zero. */
  public void resetState() {
    NDArray fresh = manager.zeros(new Shape(graph.nodeCount(), hidden));
    state.close();
    state = fresh;
  }

  private NDArray encode(NDArray stateIn) {
    NDArray z = null;
    for (int l = 0; l < encoder.size(); l++) {
      z = l == 0 ? encoder.get(0).forwardPreAggregated(aggregatedFeatures) : encoder.get(l).forward(graph, z);
      z = Activation.relu(z);
    }
    return z.add(stateIn);
  }

  /** Devices a cluster may use (see {@link org.hsdag.backend.SupportMatrix#foldMasks}). */
  long[] clusterMasks(int[] clusterOf, int clusterCount) {
    return org.hsdag.backend.SupportMatrix.foldMasks(nodeMask, clusterOf, clusterCount, deviceCount);
  }

  private NDArray logProbabilities(NDArray pooled, long[] clusterMask) {
    int k = clusterMask.length;
    float[] penalty = new float[k * deviceCount];
    for (int c = 0; c < k; c++) {
      for (int d = 0; d < deviceCount; d++) {
        penalty[c * deviceCount + d] = (clusterMask[c] >>> d & 1L) != 0 ? 0f : MASKED;
      }
    }
    NDArray logits = placer.forward(pooled).add(manager.create(penalty, new Shape(k, deviceCount)));
    return logits.logSoftmax(1);
  }

  /**
   * Samples one decision in the current state and advances the state (no gradient is recorded).
   * The caller owns the returned decision and must close it.
   */
  public Decision act(SplittableRandom rng) {
    return sample(rng, false).decision();
  }

  /**
   * Like {@link #act} but runs the forward pass under a gradient collector and also returns its
   * differentiable score, equal to what {@link #score} would compute for the decision while the
   * parameters stay unchanged. Lets an update that follows right away skip a second forward pass.
   * The caller owns both parts of the result; no gradient collector may be open when called.
   */
  public Recorded actRecorded(SplittableRandom rng) {
    return sample(rng, true);
  }

  /** A decision and, when recorded, its differentiable score (else null). */
  public record Recorded(Decision decision, Scored scored) {}

  private Recorded sample(SplittableRandom rng, boolean record) {
    forwardPasses++;
    NDArray used = state.duplicate();
    int[] clusterOf;
    int k;
    long[] masks;
    int[] devices;
    double logProb = 0;
    NDArray next;
    Scored scored = null;
    try (NDScope scope = new NDScope();
        GradientCollector gc = record ? Engine.getInstance().newGradientCollector() : null) {
      long t0 = System.nanoTime();
      NDArray z = encode(used);
      long t1 = System.nanoTime();
      encodeNanos += t1 - t0;
      NDArray scores = scorer.forward(graph, z);
      ParseResult parse = GraphParsingPool.parse(graph, scores, minClusters);
      clusterOf = parse.clusterOf();
      k = parse.clusterCount();
      masks = clusterMasks(clusterOf, k);
      GraphParsingPool.Assignment a = GraphParsingPool.assign(manager, graph, clusterOf, k);
      try {
        NDArray pooled = GraphParsingPool.pool(a, z, scores);
        long t2 = System.nanoTime();
        poolNanos += t2 - t1;
        NDArray logpTensor = logProbabilities(pooled, masks);
        float[] logp = logpTensor.toFloatArray();
        devices = new int[k];
        for (int c = 0; c < k; c++) {
          int best = -1;
          double bestScore = Double.NEGATIVE_INFINITY;
          for (int d = 0; d < deviceCount; d++) {
            double u = ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53;
            double score = logp[c * deviceCount + d] - Math.log(-Math.log(u));
            if ((masks[c] >>> d & 1L) != 0 && score > bestScore) {
              bestScore = score;
              best = d;
            }
          }
          devices[c] = best;
          logProb += logp[c * deviceCount + best];
        }
        // Detached: the refinement state never carries gradient (same values either way).
        NDArray clusters = record ? pooled.stopGradient() : pooled;
        next = Scalars.mul(used.add(GraphParsingPool.unpool(a, clusters)), refinementDecay);
        NDScope.unregister(next);
        if (record) {
          scored = scored(logpTensor, devices, a);
          // Autograd holds what backward needs; tensors that wrap Java buffers must be copies (see scored).
          NDScope.unregister(scored.logProb(), scored.entropy());
        }
        placeNanos += System.nanoTime() - t2;
      } finally {
        if (scored == null) {
          a.close();
        }
      }
    }
    NDScope.unregister(used);
    state.close();
    state = next;
    return new Recorded(new Decision(clusterOf, k, devices, masks, logProb, used), scored);
  }

  /**
   * Recomputes, with gradient, the log-probability of {@code decision} (same state, same clusters)
   * and the summed per-cluster entropy. Call inside a gradient collector and an NDScope.
   */
  public Scored score(Decision decision) {
    forwardPasses++;
    NDArray z = encode(decision.state());
    NDArray scores = scorer.forward(graph, z);
    GraphParsingPool.Assignment a = GraphParsingPool.assign(manager, graph, decision.clusterOf(),
        decision.clusterCount());
    NDArray pooled = GraphParsingPool.pool(a, z, scores);
    return scored(logProbabilities(pooled, decision.clusterMask()), decision.devicePerCluster(), a);
  }

  private Scored scored(NDArray logp, int[] devicePerCluster, GraphParsingPool.Assignment a) {
    long[] chosen = new long[devicePerCluster.length];
    for (int c = 0; c < chosen.length; c++) {
      chosen[c] = devicePerCluster[c];
    }
    // gather's backward reads this index; create() wraps a Java-owned buffer that the enclosing
    // scope frees, and a recorded step runs backward later, so give the index its own storage.
    NDArray index = manager.create(chosen).reshape(-1, 1).duplicate();
    NDArray picked = logp.gather(index, 1).sum();
    NDArray entropy = logp.exp().mul(logp).sum().neg();
    return new Scored(picked, entropy, a);
  }

  @Override
  public void close() {
    state.close();
    manager.close();
  }
}
