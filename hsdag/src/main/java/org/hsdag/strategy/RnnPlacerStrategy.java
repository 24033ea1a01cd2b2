package org.hsdag.strategy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import java.util.Arrays;
import org.hsdag.backend.Measurement;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SearchStrategy;

/**
 * The RNN-based placer of Mirhoseini et al. (2017), scaled to a measurement budget: a
 * sequence-to-sequence model reads the (co-located) units in topological order with an LSTM
 * encoder and emits one device per unit with an LSTM decoder fed the previous device's embedding,
 * using content-based (multiplicative) attention over all encoder states. Placements are sampled in
 * batches, one batch per ask (up to the limit); the reward is √latency (divided by √ of the first
 * latency), and REINFORCE with a moving average baseline (decay 0.9) minimises Σ (R − b) log p — i.e. it raises the probability of
 * placements faster than the baseline. (The HSDAG reference notebook minimised −√latency·log p,
 * which reinforces slow placements; that sign error is fixed here and pinned by a test.) Adam with
 * global-norm clipping 1.0. Sampling runs the decoder step by step in plain Java on the current
 * weights; the update re-runs it teacher-forced in DJL with torch's fused LSTM, and a test checks
 * both give the same log-probabilities.
 */
public final class RnnPlacerStrategy extends LearnedPlacerScaffold implements SearchStrategy {
  /**
   * RNN placer settings.
   *
   * @param embedding unit and device embedding width
   * @param hidden LSTM width
   * @param samplesPerUpdate placements sampled per policy update
   * @param learningRate Adam learning rate
   * @param baselineDecay moving-average decay of the reward baseline
   */
  public record Config(int embedding, int hidden, int samplesPerUpdate, double learningRate, double baselineDecay) {
    public static final Config DEFAULT = new Config(32, 32, 20, 0.01, 0.9);
  }

  private final Config config;
  private int units;
  private float[] inputFeatures; // U x F in order
  private int featureWidth;
  private float[] maskFlat; // U x D in order: 0 allowed, -1e9 not

  private int[][] batchActions; // [sample][position]
  private double[] batchCost;
  private double[] batchLogProb;
  private int asked; // samples of the batch proposed so far
  private int told; // samples of the batch measured so far
  private double baseline = Double.NaN;
  private double scale = Double.NaN;
  private int updates;

  public RnnPlacerStrategy(Grouping grouping, Config config) {
    super(grouping, config.learningRate());
    this.config = config;
  }

  @Override
  public String name() {
    return "rnn";
  }

  /** Policy updates done. */
  public int updates() {
    return updates;
  }

  @Override
  void start(SearchContext context) {
    units = space.unitCount();
    IntGraph q = space.unitGraph();
    float[][] stat = UnitFeatures.of(space);
    int[] indeg = new int[units];
    int[] outdeg = new int[units];
    for (int k = 0; k < q.edgeCount(); k++) {
      outdeg[q.src(k)]++;
      indeg[q.dst(k)]++;
    }
    featureWidth = stat[0].length + 3;
    inputFeatures = new float[units * featureWidth];
    maskFlat = new float[units * devices];
    Arrays.fill(maskFlat, -1e9f);
    for (int t = 0; t < units; t++) {
      int u = order[t];
      System.arraycopy(stat[u], 0, inputFeatures, t * featureWidth, stat[u].length);
      inputFeatures[t * featureWidth + stat[u].length] = (float) Math.log1p(indeg[u]) / 3f;
      inputFeatures[t * featureWidth + stat[u].length + 1] = (float) Math.log1p(outdeg[u]) / 3f;
      inputFeatures[t * featureWidth + stat[u].length + 2] = units > 1 ? t / (float) (units - 1) : 0f;
      for (int c : space.choices(u)) {
        maskFlat[t * devices + c] = 0f;
      }
    }
    int e = config.embedding();
    int h = config.hidden();
    store.glorot("emb.w", featureWidth, e);
    store.zeros("emb.b", new Shape(e));
    for (String p : new String[] {"enc", "dec"}) {
      store.glorot(p + ".w_ih", 4 * h, e);
      store.glorot(p + ".w_hh", 4 * h, h);
      store.zeros(p + ".b_ih", new Shape(4L * h));
      store.zeros(p + ".b_hh", new Shape(4L * h));
    }
    store.glorot("dev", devices + 1, e);
    store.glorot("att", h, h);
    store.glorot("comb.w", 2 * h, h);
    store.zeros("comb.b", new Shape(h));
    store.glorot("out.w", h, devices);
    store.zeros("out.b", new Shape(devices));
    batchActions = null;
    baseline = Double.NaN;
    scale = Double.NaN;
    updates = 0;
  }

  // ---- encoder (DJL) ----

  private NDList encode() {
    int h = config.hidden();
    NDArray x = manager.create(inputFeatures, new Shape(1, units, featureWidth));
    NDArray emb = x.matMul(store.get("emb.w")).add(store.get("emb.b"));
    NDList state = new NDList(manager.zeros(new Shape(1, 1, h)), manager.zeros(new Shape(1, 1, h)));
    return emb.getNDArrayInternal().lstm(emb, state, params("enc"), true, 1, 0.0, true, false, true);
  }

  private NDList params(String p) {
    return new NDList(store.get(p + ".w_ih"), store.get(p + ".w_hh"), store.get(p + ".b_ih"), store.get(p + ".b_hh"));
  }

  // ---- sampling (plain Java on the current weights) ----

  private void sampleBatch() {
    int k = config.samplesPerUpdate();
    float[] henc;
    float[] h0;
    float[] c0;
    try (NDScope scope = new NDScope()) {
      NDList enc = encode();
      henc = enc.get(0).toFloatArray();
      h0 = enc.get(1).toFloatArray();
      c0 = enc.get(2).toFloatArray();
    }
    Weights w = new Weights();
    batchActions = new int[k][];
    batchCost = new double[k];
    batchLogProb = new double[k];
    for (int s = 0; s < k; s++) {
      int[] actions = new int[units];
      batchLogProb[s] = decode(w, henc, h0, c0, actions, true);
      batchActions[s] = actions;
    }
    asked = 0;
    told = 0;
  }

  /** Current parameter values as Java arrays. */
  private final class Weights {
    final float[] decWih = store.values("dec.w_ih");
    final float[] decWhh = store.values("dec.w_hh");
    final float[] decBih = store.values("dec.b_ih");
    final float[] decBhh = store.values("dec.b_hh");
    final float[] dev = store.values("dev");
    final float[] att = store.values("att");
    final float[] combW = store.values("comb.w");
    final float[] combB = store.values("comb.b");
    final float[] outW = store.values("out.w");
    final float[] outB = store.values("out.b");
  }

  /**
   * Runs the decoder over all positions; when {@code sample} draws each action, otherwise scores
   * the given ones. Returns Σ log p(action).
   */
  private double decode(Weights w, float[] henc, float[] h0, float[] c0, int[] actions, boolean sample) {
    int h = config.hidden();
    float[] hs = h0.clone();
    float[] cs = c0.clone();
    float[] gates = new float[4 * h];
    float[] q = new float[h];
    float[] score = new float[units];
    float[] z = new float[2 * h];
    float[] out = new float[h];
    float[] logits = new float[devices];
    double logProb = 0;
    int prev = devices; // start token
    for (int t = 0; t < units; t++) {
      lstmStep(w, prev, hs, cs, gates);
      attend(w, hs, henc, q, score, z);
      for (int j = 0; j < h; j++) {
        double s = w.combB[j];
        for (int i = 0; i < 2 * h; i++) {
          s += z[i] * w.combW[i * h + j];
        }
        out[j] = (float) Math.tanh(s);
      }
      for (int d = 0; d < devices; d++) {
        double s = w.outB[d] + maskFlat[t * devices + d];
        for (int j = 0; j < h; j++) {
          s += out[j] * w.outW[j * devices + d];
        }
        logits[d] = (float) s;
      }
      if (sample) {
        actions[t] = Sampling.categorical(logits, rng);
      }
      logProb += logSoftmaxAt(logits, actions[t]);
      prev = actions[t];
    }
    return logProb;
  }

  /** One decoder LSTM step on the previous action's embedding; updates {@code hs} and {@code cs}. */
  private void lstmStep(Weights w, int prev, float[] hs, float[] cs, float[] gates) {
    int h = config.hidden();
    int e = config.embedding();
    for (int r = 0; r < 4 * h; r++) {
      double g = w.decBih[r] + w.decBhh[r];
      for (int c = 0; c < e; c++) {
        g += w.decWih[r * e + c] * w.dev[prev * e + c];
      }
      for (int c = 0; c < h; c++) {
        g += w.decWhh[r * h + c] * hs[c];
      }
      gates[r] = (float) g;
    }
    // torch gate order: input, forget, cell, output
    for (int j = 0; j < h; j++) {
      double i = sigmoid(gates[j]);
      double f = sigmoid(gates[h + j]);
      double gg = Math.tanh(gates[2 * h + j]);
      double o = sigmoid(gates[3 * h + j]);
      cs[j] = (float) (f * cs[j] + i * gg);
      hs[j] = (float) (o * Math.tanh(cs[j]));
    }
  }

  /** Attention over the encoder states: {@code z} = [hs, context]; {@code q}, {@code score} are scratch. */
  private void attend(Weights w, float[] hs, float[] henc, float[] q, float[] score, float[] z) {
    int h = config.hidden();
    for (int j = 0; j < h; j++) {
      double s = 0;
      for (int i = 0; i < h; i++) {
        s += hs[i] * w.att[i * h + j];
      }
      q[j] = (float) s;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int u = 0; u < units; u++) {
      double s = 0;
      for (int j = 0; j < h; j++) {
        s += q[j] * henc[u * h + j];
      }
      score[u] = (float) s;
      max = Math.max(max, s);
    }
    double sum = 0;
    for (int u = 0; u < units; u++) {
      double a = Math.exp(score[u] - max);
      score[u] = (float) a;
      sum += a;
    }
    System.arraycopy(hs, 0, z, 0, h);
    Arrays.fill(z, h, 2 * h, 0f);
    for (int u = 0; u < units; u++) {
      float a = (float) (score[u] / sum);
      for (int j = 0; j < h; j++) {
        z[h + j] += a * henc[u * h + j];
      }
    }
  }

  private static double sigmoid(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  private static double logSoftmaxAt(float[] logits, int k) {
    double max = Double.NEGATIVE_INFINITY;
    for (float l : logits) {
      max = Math.max(max, l);
    }
    double s = 0;
    for (float l : logits) {
      s += Math.exp(l - max);
    }
    return logits[k] - max - Math.log(s);
  }

  private int[] assignment(int[] actionsInOrder) {
    int[] a = new int[units];
    for (int t = 0; t < units; t++) {
      a[order[t]] = actionsInOrder[t];
    }
    return a;
  }

  // ---- teacher-forced log-probabilities (DJL, differentiable) ----

  /** Σ_t log p(a_t) per sample, shape (K). */
  private NDArray logProbs(int[][] actions) {
    int k = actions.length;
    int h = config.hidden();
    int e = config.embedding();
    NDList enc = encode();
    NDArray henc = enc.get(0).reshape(units, h);
    float[] prevOneHot = new float[k * units * (devices + 1)];
    float[] pick = new float[k * units * devices];
    for (int s = 0; s < k; s++) {
      for (int t = 0; t < units; t++) {
        int prev = t == 0 ? devices : actions[s][t - 1];
        prevOneHot[(s * units + t) * (devices + 1) + prev] = 1f;
        pick[(s * units + t) * devices + actions[s][t]] = 1f;
      }
    }
    NDArray decIn = manager.create(prevOneHot, new Shape((long) k * units, devices + 1)).matMul(store.get("dev"))
        .reshape(k, units, e);
    NDArray h0 = enc.get(1).repeat(1, k);
    NDArray c0 = enc.get(2).repeat(1, k);
    NDArray states = decIn.getNDArrayInternal()
        .lstm(decIn, new NDList(h0, c0), params("dec"), true, 1, 0.0, true, false, true).get(0);
    NDArray scores = states.matMul(store.get("att")).matMul(henc.transpose());
    NDArray ctx = scores.softmax(2).matMul(henc);
    NDArray out = states.concat(ctx, 2).matMul(store.get("comb.w")).add(store.get("comb.b")).tanh();
    NDArray logits = out.matMul(store.get("out.w")).add(store.get("out.b"))
        .add(manager.create(maskFlat, new Shape(units, devices)));
    NDArray logp = logits.logSoftmax(2);
    return logp.mul(manager.create(pick, new Shape(k, units, devices))).sum(new int[] {1, 2});
  }

  /** Teacher-forced log-probabilities of the last sampled batch, and the sampler's (for tests). */
  double[][] lastBatchLogProbs() {
    double[] djl;
    try (NDScope scope = new NDScope()) {
      float[] f = logProbs(batchActions).toFloatArray();
      djl = new double[f.length];
      for (int i = 0; i < f.length; i++) {
        djl[i] = f[i];
      }
    }
    return new double[][] {djl, batchLogProb.clone()};
  }

  /** Samples a batch without measuring it (for tests). */
  void sampleForTest() {
    sampleBatch();
  }

  /** Mean per-unit log-probability of putting every unit on {@code device} where allowed (for tests). */
  double meanLogProbOfAll(int device) {
    int[][] a = new int[1][units];
    for (int t = 0; t < units; t++) {
      a[0][t] = space.isChoice(order[t], device) ? device : space.choice(order[t], 0);
    }
    try (NDScope scope = new NDScope()) {
      return logProbs(a).toFloatArray()[0] / units;
    }
  }

  // ---- ask / tell ----

  @Override
  public List<Placement> ask(int limit) {
    if (batchActions == null) {
      sampleBatch();
    }
    List<Placement> out = new ArrayList<>();
    while (asked < batchActions.length && out.size() < limit) {
      out.add(space.decode(assignment(batchActions[asked++])));
    }
    return out;
  }

  @Override
  public void tell(List<Placement> batch, List<Measurement> results) {
    for (Measurement m : results) {
      double c = penalty.costMillis(m);
      if (FailurePenalty.usable(m) && Double.isNaN(scale)) {
        scale = c;
      }
      batchCost[told++] = c;
    }
    if (told == batchActions.length) {
      finishBatch();
    }
  }

  private void finishBatch() {
    int k = batchActions.length;
    double s = Double.isNaN(scale) || scale <= 0 ? 1 : Math.sqrt(scale);
    double[] reward = new double[k];
    double mean = 0;
    for (int i = 0; i < k; i++) {
      reward[i] = Math.sqrt(batchCost[i]) / s;
      mean += reward[i] / k;
    }
    if (Double.isNaN(baseline)) {
      baseline = mean;
    }
    float[] adv = new float[k];
    boolean any = false;
    for (int i = 0; i < k; i++) {
      adv[i] = (float) (baseline - reward[i]); // positive when faster than the baseline
      any |= adv[i] != 0;
    }
    if (any) {
      try (NDScope scope = new NDScope();
          GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray loss = org.hsdag.gnn.Scalars.mul(logProbs(batchActions).mul(manager.create(adv)).sum(), -1.0 / k);
        gc.backward(loss);
      }
      adam.update(store, 1.0);
      updates++;
    }
    baseline = config.baselineDecay() * baseline + (1 - config.baselineDecay()) * mean;
    batchActions = null;
  }

}
