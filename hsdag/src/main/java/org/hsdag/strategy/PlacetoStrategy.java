package org.hsdag.strategy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.training.GradientCollector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.gnn.Linear;
import org.hsdag.gnn.Mlp;
import org.hsdag.gnn.SparseMatrices;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchContext;
import org.hsdag.search.FailurePenalty;
import org.hsdag.search.SequentialStrategy;

/**
 * Placeto (Addanki et al. 2019), scaled to a measurement budget. An episode starts from a
 * placement (random for the first, the best so far afterwards, one of Placeto's options) and
 * visits every unit once in topological order; at each step a policy re-chooses that unit's device
 * and the step reward is the latency improvement (previous − new, divided by the first latency
 * measured). The policy embeds the graph by message passing along the DAG (forward over
 * predecessors and backward over successors, shared weights per round) from per-unit features —
 * output size, op count and type mix, current device one-hot, "done" and "current" bits — then
 * aggregates the current unit's ancestors, descendants and parallel units separately, concatenates
 * them with its own embedding and maps that through an MLP to device logits (disallowed devices
 * masked). REINFORCE with discount 1 and, as baseline, the mean return at the same step index over
 * the last 1000 episodes; Adam. Differences from the paper, forced by measuring instead of
 * simulating: no per-op compute times or start times as features (only real measurements exist),
 * and a step that keeps the unit's device costs no measurement (its reward is 0). A failed
 * placement costs what {@link FailurePenalty} says (10 s before any success, so rewards stay
 * finite).
 */
public final class PlacetoStrategy extends LearnedPlacerScaffold implements SequentialStrategy {
  /**
   * Placeto settings.
   *
   * @param hidden embedding width
   * @param rounds message-passing rounds (each forward then backward)
   * @param learningRate Adam learning rate
   * @param clipNorm global gradient-norm clip
   * @param startFromBest start episodes after the first from the best placement so far (else random)
   */
  public record Config(int hidden, int rounds, double learningRate, double clipNorm, boolean startFromBest) {
    public static final Config DEFAULT = new Config(32, 2, 1e-3, 1.0, true);
  }

  private static final int HISTORY = 1000;
  private static final int START = -1;
  private static final int BACKWARD_CHUNK = 48;

  private final Config config;
  private Linear input;
  private Linear[] self;
  private Linear[] forward;
  private Linear[] backward;
  private Mlp head;
  private NDArray predMean;
  private NDArray succMean;
  private float[][] staticFeatures;
  private float[][] relation; // per unit: [ancestors | descendants | parallel] mean weights over units

  // Episode state.
  private final List<double[]> pastReturns = new ArrayList<>();
  private final List<int[]> stepAssign = new ArrayList<>();
  private final List<Integer> stepAction = new ArrayList<>();
  private final List<Double> stepReward = new ArrayList<>();
  private int[] assign;
  private double currentCost;
  private int step;
  private boolean needStart;
  private int[] pending;
  private int pendingAction;
  private double scale;
  private int[] bestAssign;
  private double bestCost;
  private int episodes;

  public PlacetoStrategy(Grouping grouping, Config config) {
    super(grouping, config.learningRate());
    this.config = config;
  }

  @Override
  public String name() {
    return "placeto";
  }

  /** Episodes completed (policy updates done). */
  public int episodes() {
    return episodes;
  }

  @Override
  void start(SearchContext context) {
    int u = space.unitCount();
    IntGraph q = space.unitGraph();
    staticFeatures = UnitFeatures.of(space);
    relation = relations(q);
    int f = staticFeatures[0].length + devices + 2;
    int d = config.hidden();
    input = new Linear(store, "in", f, d, true);
    self = new Linear[config.rounds()];
    forward = new Linear[config.rounds()];
    backward = new Linear[config.rounds()];
    for (int r = 0; r < config.rounds(); r++) {
      self[r] = new Linear(store, "self" + r, d, d, true);
      forward[r] = new Linear(store, "fwd" + r, d, d, false);
      backward[r] = new Linear(store, "bwd" + r, d, d, false);
    }
    head = new Mlp(store, "head", 4 * d, 2 * d, d, devices);
    predMean = meanAdjacency(q, u, false);
    succMean = meanAdjacency(q, u, true);
    pastReturns.clear();
    clearEpisode();
    assign = space.randomAssignment(rng);
    needStart = true;
    pending = null;
    scale = Double.NaN;
    bestAssign = null;
    bestCost = Double.POSITIVE_INFINITY;
    episodes = 0;
  }

  private NDArray meanAdjacency(IntGraph q, int u, boolean successors) {
    int[] deg = new int[u];
    for (int k = 0; k < q.edgeCount(); k++) {
      deg[successors ? q.src(k) : q.dst(k)]++;
    }
    int m = q.edgeCount();
    int[] row = new int[m];
    int[] col = new int[m];
    float[] val = new float[m];
    for (int k = 0; k < m; k++) {
      row[k] = successors ? q.src(k) : q.dst(k);
      col[k] = successors ? q.dst(k) : q.src(k);
      val[k] = 1f / deg[row[k]];
    }
    return SparseMatrices.coo(manager, u, u, row, col, val);
  }

  private static float[][] relations(IntGraph q) {
    int u = q.nodeCount();
    BitSet[] anc = UnitFeatures.ancestors(q);
    BitSet[] desc = new BitSet[u];
    for (int v = 0; v < u; v++) {
      desc[v] = new BitSet(u);
    }
    for (int v = 0; v < u; v++) {
      for (int a = anc[v].nextSetBit(0); a >= 0; a = anc[v].nextSetBit(a + 1)) {
        desc[a].set(v);
      }
    }
    float[][] rel = new float[u][3 * u];
    for (int v = 0; v < u; v++) {
      BitSet par = new BitSet(u);
      par.set(0, u);
      par.andNot(anc[v]);
      par.andNot(desc[v]);
      par.clear(v);
      BitSet[] sets = {anc[v], desc[v], par};
      for (int s = 0; s < 3; s++) {
        int c = sets[s].cardinality();
        for (int w = sets[s].nextSetBit(0); w >= 0; w = sets[s].nextSetBit(w + 1)) {
          rel[v][s * u + w] = 1f / c;
        }
      }
    }
    return rel;
  }

  /** Logits over devices (1 × D) for placing the unit of step {@code stepIndex} given the assignment. */
  private NDArray logits(int[] assignment, int stepIndex) {
    return logits(new int[][] {assignment}, new int[] {stepIndex});
  }

  /**
   * Logits (T × D) for T states at once: state t is {@code assignments[t]} at step {@code
   * steps[t]}. The T graphs share structure, so message passing runs on a U × (T·d) matrix and the
   * per-state aggregations are one batched product.
   */
  private NDArray logits(int[][] assignments, int[] steps) {
    int t = steps.length;
    int u = space.unitCount();
    int d = config.hidden();
    int fs = staticFeatures[0].length;
    int f = fs + devices + 2;
    float[] x = new float[u * t * f];
    float[] sel = new float[t * 4 * u];
    float[] mask = new float[t * devices];
    Arrays.fill(mask, -1e9f);
    for (int s = 0; s < t; s++) {
      int unit = order[steps[s]];
      for (int v = 0; v < u; v++) {
        int base = (v * t + s) * f;
        System.arraycopy(staticFeatures[v], 0, x, base, fs);
        x[base + fs + assignments[s][v]] = 1f;
      }
      for (int i = 0; i < steps[s]; i++) {
        x[(order[i] * t + s) * f + fs + devices] = 1f; // done
      }
      x[(unit * t + s) * f + fs + devices + 1] = 1f; // current
      sel[(s * 4) * u + unit] = 1f;
      System.arraycopy(relation[unit], 0, sel, (s * 4 + 1) * u, 3 * u);
      for (int c : space.choices(unit)) {
        mask[s * devices + c] = 0f;
      }
    }
    NDArray h = Activation.relu(input.forward(manager.create(x, new Shape((long) u * t, f)))); // rows (v, s)
    for (int r = 0; r < config.rounds(); r++) {
      NDArray fwd = forward[r].forward(predMean.matMul(h.reshape(u, (long) t * d)).reshape((long) u * t, d));
      NDArray bwd = backward[r].forward(succMean.matMul(h.reshape(u, (long) t * d)).reshape((long) u * t, d));
      h = Activation.relu(self[r].forward(h).add(fwd).add(bwd));
    }
    NDArray perState = h.reshape(u, t, d).transpose(1, 0, 2); // (T, U, d)
    NDArray z = manager.create(sel, new Shape(t, 4, u)).matMul(perState).reshape(t, 4L * d);
    return head.forward(z).add(manager.create(mask, new Shape(t, devices)));
  }

  @Override
  public Placement propose() {
    if (pending != null) {
      throw new IllegalStateException("propose called twice without observe");
    }
    // Every step either proposes, keeps its unit's device (no measurement needed) or ends the
    // episode, whose next start is always proposed: this loop ends. Known placements are proposed
    // too; the engine answers them from its cache.
    while (true) {
      if (needStart) {
        int[] start = episodes > 0 && config.startFromBest() && bestAssign != null
            ? bestAssign.clone() : space.randomAssignment(rng);
        pending = start;
        pendingAction = START;
        return space.decode(start);
      }
      if (step == space.unitCount()) {
        endEpisode();
        continue;
      }
      int unit = order[step];
      int action = sample();
      int[] candidate = assign.clone();
      candidate[unit] = action;
      if (action == assign[unit]) {
        record(action, currentCost, candidate);
        continue;
      }
      pending = candidate;
      pendingAction = action;
      return space.decode(candidate);
    }
  }

  private int sample() {
    if (space.choiceCount(order[step]) == 1) {
      return space.choice(order[step], 0);
    }
    float[] logit;
    try (NDScope scope = new NDScope()) {
      logit = logits(assign, step).toFloatArray();
    }
    return Sampling.categorical(logit, rng);
  }

  @Override
  public void observe(Placement placement, Measurement measurement) {
    if (pending == null) {
      throw new IllegalStateException("observe without propose");
    }
    double c = penalty.costMillis(measurement);
    if (FailurePenalty.usable(measurement) && Double.isNaN(scale)) {
      scale = c;
    }
    int[] candidate = pending;
    pending = null;
    if (pendingAction == START) {
      beginEpisode(candidate, c);
    } else {
      record(pendingAction, c, candidate);
    }
  }

  private void beginEpisode(int[] start, double cost) {
    assign = start.clone();
    currentCost = cost;
    noteBest(assign, cost);
    clearEpisode();
    step = 0;
    needStart = false;
  }

  private void record(int action, double cost, int[] candidate) {
    stepAssign.add(assign.clone());
    stepAction.add(action);
    double s = Double.isNaN(scale) || scale <= 0 ? 1 : scale;
    stepReward.add((currentCost - cost) / s);
    assign = candidate;
    currentCost = cost;
    noteBest(candidate, cost);
    step++;
  }

  private void noteBest(int[] a, double cost) {
    if (cost < bestCost) {
      bestCost = cost;
      bestAssign = a.clone();
    }
  }

  private void clearEpisode() {
    stepAssign.clear();
    stepAction.clear();
    stepReward.clear();
  }

  private void endEpisode() {
    int t = stepReward.size();
    double[] ret = new double[t];
    double g = 0;
    for (int i = t - 1; i >= 0; i--) {
      g += stepReward.get(i);
      ret[i] = g;
    }
    double[] adv = new double[t];
    boolean any = false;
    for (int i = 0; i < t; i++) {
      double b = 0;
      int n = 0;
      for (double[] past : pastReturns) {
        if (i < past.length) {
          b += past[i];
          n++;
        }
      }
      adv[i] = ret[i] - (n > 0 ? b / n : 0);
      any |= adv[i] != 0;
    }
    if (any) {
      update(adv);
    }
    pastReturns.add(ret);
    if (pastReturns.size() > HISTORY) {
      pastReturns.remove(0);
    }
    episodes++;
    needStart = true;
  }

  // REINFORCE: minimise −Σ_t A_t log π(a_t | s_t), states batched in chunks so the autograd graph
  // of a long episode never has to be held at once (gradients accumulate across chunks).
  private void update(double[] adv) {
    List<Integer> active = new ArrayList<>();
    for (int i = 0; i < adv.length; i++) {
      if (adv[i] != 0 && space.choiceCount(order[i]) > 1) {
        active.add(i);
      }
    }
    for (int from = 0; from < active.size(); from += BACKWARD_CHUNK) {
      List<Integer> chunk = active.subList(from, Math.min(active.size(), from + BACKWARD_CHUNK));
      int t = chunk.size();
      int[][] states = new int[t][];
      int[] steps = new int[t];
      float[] pick = new float[t * devices];
      for (int k = 0; k < t; k++) {
        int i = chunk.get(k);
        states[k] = stepAssign.get(i);
        steps[k] = i;
        pick[k * devices + stepAction.get(i)] = (float) -adv[i];
      }
      try (NDScope scope = new NDScope();
          GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDArray loss = logits(states, steps).logSoftmax(1).mul(manager.create(pick, new Shape(t, devices))).sum();
        gc.backward(loss);
      }
    }
    adam.update(store, config.clipNorm());
  }

  /** Mean over all steps of an episode of the policy's probability of {@code device}, in the state {@code assignment} (for tests). */
  double meanProbability(int[] assignment, int device) {
    double s = 0;
    for (int i = 0; i < space.unitCount(); i++) {
      try (NDScope scope = new NDScope()) {
        s += logits(assignment, i).softmax(1).toFloatArray()[device];
      }
    }
    return s / space.unitCount();
  }

}
