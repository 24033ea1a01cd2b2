package org.hsdag.train;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.training.GradientCollector;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.backend.Measurement;
import org.hsdag.gnn.Adam;
import org.hsdag.gnn.ParameterStore;
import org.hsdag.gnn.Scalars;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.DataArrays;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.policy.HsdagPolicy;
import org.hsdag.policy.HsdagPolicy.Decision;
import org.hsdag.random.SplitMix64;
import org.hsdag.search.Estimate;
import org.hsdag.search.FailurePenalty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online REINFORCE for an {@link HsdagPolicy} (paper §2.5, eq. 14): each proposal samples a
 * decision with a per-step RNG derived from (seed, step), so the whole trajectory follows from the
 * seed; each observation turns the measurement into a reward ({@link RewardModel}); every {@code
 * stepsPerUpdate} observations the loss −Σ_i γ^i A_i log p(P_i) (A_i = r_i in paper-faithful mode,
 * the baseline-normalised advantage otherwise), minus the entropy bonus, is back-propagated step by
 * step, with the self-imitation term on the best-rewarded decision so far ({@link
 * HsdagConfig#imitationWeight()}), and one Adam update is made; the refinement state then resets
 * (a new episode).
 *
 * <p>Everything that determines the future — parameters, Adam moments, step counters, the
 * refinement state, the buffered steps, baseline and penalty statistics — is written by {@link
 * #save} and read by {@link #restore}, so a restored run continues bit-identically.
 */
public final class ReinforceTrainer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReinforceTrainer.class);
  private static final String STATE_FILE = "hsdag-trainer.bin";
  // 3 adds the best decision (self-imitation); 2 is read as having none.
  private static final int FORMAT = 3;

  private final HsdagPolicy policy;
  private final HsdagConfig config;
  private final long seed;
  private final Adam adam;
  private final RewardModel rewards;
  private final RewardBaseline baseline = new RewardBaseline(0.1);
  private final List<Decision> buffer = new ArrayList<>();
  private final List<Double> bufferRewards = new ArrayList<>();
  // Proposed and not yet observed, oldest first: a whole episode may be proposed before its results.
  private final ArrayDeque<Decision> pending = new ArrayDeque<>();
  // Each step's differentiable score, recorded while sampling it (null after a restore), parallel to
  // buffer and pending: valid because the parameters do not change within an episode, so the update
  // needs no second forward pass.
  private final List<HsdagPolicy.Scored> bufferScores = new ArrayList<>();
  private final ArrayDeque<java.util.Optional<HsdagPolicy.Scored>> pendingScores = new ArrayDeque<>();
  private long proposals;
  private long failures;
  private double lastLoss = Double.NaN;
  private double lastGradientNorm = Double.NaN;
  // The best-rewarded decision so far (a copy the trainer owns), kept for self-imitation.
  private Decision best;
  private double bestReward = Double.NEGATIVE_INFINITY;

  public ReinforceTrainer(NDManager manager, HsdagPolicy policy, HsdagConfig config, long seed) {
    this.policy = policy;
    this.config = config;
    this.seed = seed;
    this.adam = new Adam(manager, config.learningRate());
    this.rewards = new RewardModel(config.paperFaithful());
  }

  /** A fresh generator for proposal {@code step}, fixed by (seed, step) alone. */
  static SplittableRandom rngFor(long seed, long step) {
    return new SplittableRandom(SplitMix64.stream(seed, step));
  }

  /**
   * Samples the next decision; the trainer keeps it until {@link #observe}. Decisions of one episode
   * may be proposed before any is observed (the state refinement does not depend on rewards), up to
   * {@link #openSteps()}.
   */
  public Decision propose() {
    if (openSteps() == 0) {
      throw new IllegalStateException("the episode is fully proposed; observe its measurements first");
    }
    HsdagPolicy.Recorded step = policy.actRecorded(rngFor(seed, proposals));
    Decision d = step.decision();
    pending.addLast(d);
    pendingScores.addLast(java.util.Optional.of(step.scored()));
    proposals++;
    return d;
  }

  /** Decisions the current episode still needs proposed before its update. */
  public int openSteps() {
    return config.stepsPerUpdate() - buffer.size() - pending.size();
  }

  /**
   * Records the measurement of the oldest pending decision and updates the policy when the buffer
   * is full. Failed measurements are penalised and logged, never thrown.
   *
   * @return the reward given
   */
  public double observe(Measurement m) {
    if (pending.isEmpty()) {
      throw new IllegalStateException("observe() without a pending proposal");
    }
    double r = rewards.reward(m);
    if (!FailurePenalty.usable(m)) {
      failures++;
      // Failures are counted and reported with their reasons by the run; the log line is for --verbose.
      LOG.info("measurement {} failed ({}); penalty reward {}", proposals, m.ok() ? "non-finite latency" : m.reason(),
          r);
    }
    Decision taken = pending.pollFirst();
    HsdagPolicy.Scored score = pendingScores.pollFirst().orElse(null);
    // Self-imitation follows measurements: an estimate told for a vetoed proposal is never the best.
    if (config.imitationWeight() > 0 && FailurePenalty.usable(m) && !Estimate.is(m) && r > bestReward) {
      keepBest(taken, r);
    }
    buffer.add(taken);
    bufferScores.add(score);
    bufferRewards.add(r);
    if (buffer.size() >= config.stepsPerUpdate()) {
      update();
    }
    return r;
  }

  private void update() {
    int x = buffer.size();
    double[] r = new double[x];
    for (int i = 0; i < x; i++) {
      r[i] = bufferRewards.get(i);
    }
    double[] signal = config.baseline() ? baseline.advantages(r) : r;
    double loss = 0;
    for (int i = 0; i < x; i++) {
      double weight = Math.pow(config.gamma(), i + 1) * signal[i];
      HsdagPolicy.Scored kept = bufferScores.get(i);
      bufferScores.set(i, null);
      try (NDScope scope = new NDScope();
          GradientCollector gc = Engine.getInstance().newGradientCollector();
          HsdagPolicy.Scored s = kept != null ? kept : policy.score(buffer.get(i))) {
        NDArray l = Scalars.mul(s.logProb(), -weight);
        if (config.entropyBonus()) {
          l = l.sub(Scalars.mul(s.entropy(), config.entropyWeight()));
        }
        loss += l.getFloat();
        gc.backward(l);
      }
    }
    bufferScores.clear();
    loss += imitateBest();
    lastLoss = loss;
    lastGradientNorm = adam.update(policy.parameters(), config.gradientClip() ? config.clipNorm() : 0);
    for (Decision d : buffer) {
      d.close();
    }
    buffer.clear();
    bufferRewards.clear();
    policy.resetState();
  }

  private void keepBest(Decision d, double reward) {
    if (best != null) {
      best.close();
    }
    NDArray state = d.state().duplicate();
    state.detach();
    best = new Decision(d.clusterOf(), d.clusterCount(), d.devicePerCluster(), d.clusterMask(),
        d.logProb(), state);
    bestReward = reward;
  }

  /** Back-propagates the self-imitation term of the best decision so far; returns its loss (0 when none). */
  private double imitateBest() {
    if (best == null || config.imitationWeight() == 0) {
      return 0;
    }
    double advantage = bestReward;
    if (config.baseline()) {
      double sd = Math.sqrt(baseline.variance());
      advantage = (bestReward - baseline.mean()) / Math.max(sd, 1e-6 * Math.abs(baseline.mean()) + 1e-12);
    }
    advantage = Math.min(HsdagConfig.MAX_IMITATION_ADVANTAGE, advantage);
    if (!(advantage > 0)) {
      return 0;
    }
    try (NDScope scope = new NDScope();
        GradientCollector gc = Engine.getInstance().newGradientCollector();
        HsdagPolicy.Scored s = policy.score(best)) {
      NDArray l = Scalars.mul(s.logProb(), -config.imitationWeight() * advantage);
      gc.backward(l);
      return l.getFloat();
    }
  }

  /** Drops the best decision kept for self-imitation (after training on estimates rather than measurements). */
  public void forgetBest() {
    if (best != null) {
      best.close();
      best = null;
    }
    bestReward = Double.NEGATIVE_INFINITY;
  }

  /** The reward of the best decision kept for self-imitation (−∞ when none). */
  public double bestReward() {
    return bestReward;
  }

  /** Decisions sampled so far. */
  public long proposals() {
    return proposals;
  }

  /** Adam updates made so far. */
  public long updates() {
    return adam.step();
  }

  public long failures() {
    return failures;
  }

  /** Loss of the last update (NaN before the first). */
  public double lastLoss() {
    return lastLoss;
  }

  /** Global gradient norm before clipping at the last update (NaN before the first). */
  public double lastGradientNorm() {
    return lastGradientNorm;
  }

  public HsdagPolicy policy() {
    return policy;
  }

  /** Writes the complete training state to {@code dir}/hsdag-trainer.bin (atomically). */
  public void save(Path dir) throws IOException {
    Files.createDirectories(dir);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(FORMAT);
      out.writeLong(seed);
      out.writeLong(proposals);
      out.writeLong(failures);
      ParameterStore store = policy.parameters();
      out.writeInt(store.all().size());
      for (Map.Entry<String, NDArray> e : store.all().entrySet()) {
        out.writeUTF(e.getKey());
        long size = e.getValue().size();
        writeFloats(out, e.getValue().toFloatArray());
        writeFloats(out, adam.mean(e.getKey(), size));
        writeFloats(out, adam.variance(e.getKey(), size));
      }
      out.writeLong(adam.step());
      writeFloats(out, policy.state().toFloatArray());
      List<Decision> steps = new ArrayList<>(buffer);
      steps.addAll(pending);
      out.writeInt(steps.size());
      out.writeInt(pending.size());
      for (int i = 0; i < steps.size(); i++) {
        writeDecision(out, steps.get(i));
        out.writeDouble(i < bufferRewards.size() ? bufferRewards.get(i) : Double.NaN);
      }
      out.writeBoolean(baseline.initialised());
      out.writeDouble(baseline.mean());
      out.writeDouble(baseline.variance());
      out.writeDouble(rewards.slowestMillis());
      out.writeDouble(lastLoss);
      out.writeDouble(lastGradientNorm);
      out.writeBoolean(best != null);
      if (best != null) {
        writeDecision(out, best);
        out.writeDouble(bestReward);
      }
    }
    AtomicFiles.writeBytes(dir.resolve(STATE_FILE), bytes.toByteArray());
  }

  /** Reads what {@link #save} wrote into this freshly built trainer (same graph and config). */
  public void restore(Path dir) throws IOException {
    Path file = dir.resolve(STATE_FILE);
    if (!Files.isRegularFile(file)) {
      throw new IOException("no HSDAG trainer state at " + file);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
      int format = in.readInt();
      if (format != FORMAT && format != 2) {
        throw new IOException("unsupported HSDAG trainer state format " + format + " in " + file);
      }
      long savedSeed = in.readLong();
      if (savedSeed != seed) {
        throw new IOException("state in " + file + " was saved with seed " + savedSeed + ", this run uses " + seed);
      }
      proposals = in.readLong();
      failures = in.readLong();
      ParameterStore store = policy.parameters();
      int count = in.readInt();
      if (count != store.all().size()) {
        throw new IOException("state in " + file + " has " + count + " parameters, the policy " + store.all().size());
      }
      Map<String, float[]> means = new HashMap<>();
      Map<String, float[]> variances = new HashMap<>();
      for (int i = 0; i < count; i++) {
        String name = in.readUTF();
        float[] values = readFloats(in);
        store.load(name, values);
        means.put(name, readFloats(in));
        variances.put(name, readFloats(in));
      }
      adam.restore(store, means, variances, in.readLong());
      policy.setState(readFloats(in));
      for (Decision d : buffer) {
        d.close();
      }
      buffer.clear();
      bufferRewards.clear();
      for (Decision d : pending) {
        d.close();
      }
      pending.clear();
      dropRecorded();
      int steps = in.readInt();
      int pendingCount = in.readInt();
      for (int i = 0; i < steps; i++) {
        Decision d = readDecision(in);
        double reward = in.readDouble();
        if (i >= steps - pendingCount) {
          pending.addLast(d);
          pendingScores.addLast(java.util.Optional.empty());
        } else {
          buffer.add(d);
          bufferScores.add(null);
          bufferRewards.add(reward);
        }
      }
      baseline.restore(in.readBoolean(), in.readDouble(), in.readDouble());
      rewards.restore(in.readDouble());
      lastLoss = in.readDouble();
      lastGradientNorm = in.readDouble();
      forgetBest();
      if (format >= 3 && in.readBoolean()) {
        best = readDecision(in);
        bestReward = in.readDouble();
      }
    }
  }

  private static void writeDecision(DataOutputStream out, Decision d) throws IOException {
    DataArrays.writeInts(out, d.clusterOf());
    out.writeInt(d.clusterCount());
    DataArrays.writeInts(out, d.devicePerCluster());
    out.writeInt(d.clusterMask().length);
    for (long mask : d.clusterMask()) {
      out.writeLong(mask);
    }
    out.writeDouble(d.logProb());
    writeFloats(out, d.state().toFloatArray());
  }

  private Decision readDecision(DataInputStream in) throws IOException {
    int[] clusterOf = DataArrays.readInts(in);
    int k = in.readInt();
    int[] devices = DataArrays.readInts(in);
    long[] masks = new long[in.readInt()];
    for (int j = 0; j < masks.length; j++) {
      masks[j] = in.readLong();
    }
    double logProb = in.readDouble();
    float[] state = readFloats(in);
    return new Decision(clusterOf, k, devices, masks, logProb,
        policy.state().getManager().create(state, policy.state().getShape()));
  }

  private static void writeFloats(DataOutputStream out, float[] v) throws IOException {
    out.writeInt(v.length);
    for (float f : v) {
      out.writeInt(Float.floatToRawIntBits(f));
    }
  }

  private static float[] readFloats(DataInputStream in) throws IOException {
    float[] v = new float[in.readInt()];
    for (int i = 0; i < v.length; i++) {
      v[i] = Float.intBitsToFloat(in.readInt());
    }
    return v;
  }

  /** Closes the recorded scores of the buffered and pending steps. */
  private void dropRecorded() {
    for (HsdagPolicy.Scored sc : bufferScores) {
      if (sc != null) {
        sc.close();
      }
    }
    bufferScores.clear();
    for (java.util.Optional<HsdagPolicy.Scored> sc : pendingScores) {
      sc.ifPresent(HsdagPolicy.Scored::close);
    }
    pendingScores.clear();
  }

  @Override
  public void close() {
    dropRecorded();
    forgetBest();
    for (Decision d : buffer) {
      d.close();
    }
    buffer.clear();
    for (Decision d : pending) {
      d.close();
    }
    pending.clear();
    adam.close();
  }
}
