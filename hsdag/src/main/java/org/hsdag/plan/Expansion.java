package org.hsdag.plan;

import java.util.Arrays;

/**
 * Minimum cuts over a {@link CutModel}: the α-expansion move (every op either keeps its device or
 * moves to α, whichever set of choices minimises the energy, solved exactly as one s-t cut) and
 * the two solvers built on it.
 *
 * <p>In the move's network the source side means "keep", the sink side "move to α". Kernel times
 * are terminal edges; a fusion pair is a pairwise term (submodular: a saving only when both share a
 * device). A tensor's copy terms are "some consumer moves/keeps" conditions: with one consumer a
 * single edge, with several one auxiliary node per condition, so a tensor leaving its device pays
 * its copy out once whatever number of consumers cross. Every term of a move stays submodular
 * because the copy costs only depend on which devices occur, not how often.
 */
final class Expansion {
  /** Capacities are integers in picoseconds. */
  private static final double SCALE = 1e6;

  /** α-expansion stops after this many full cycles over the devices even if one still improved. */
  private static final int MAX_CYCLES = 20;
  /** A move counts as an improvement only beyond this relative change of the energy (floating-point noise is not one). */
  private static final double RELATIVE_TOLERANCE = 1e-9;

  private Expansion() {}

  /**
   * The exact minimum of the energy over two devices 0 and 1: starts every op on device 0 (on 1
   * where 0 cannot run it) and makes one expansion move to 1, which can reach every labeling.
   *
   * @return a device per op, or null when some op runs on neither device
   */
  static int[] twoDevices(CutModel m) {
    if (m.devices != 2) {
      throw new IllegalArgumentException("two-device cut needs a two-device model (got " + m.devices + ")");
    }
    int[] label = new int[m.ops];
    for (int i = 0; i < m.ops; i++) {
      if (!m.model.supported(i, 0)) {
        if (!m.model.supported(i, 1)) {
          return null;
        }
        label[i] = 1;
      }
    }
    return move(m, label, 1);
  }

  /**
   * α-expansion from {@code start} (a feasible labeling): cycles through the devices, applying
   * each expansion move that lowers the energy, until a full cycle changes nothing.
   */
  static int[] alphaExpansion(CutModel m, int[] start) {
    int[] label = start.clone();
    double energy = m.energy(label);
    boolean improved = true;
    int cycles = 0;
    while (improved && cycles++ < MAX_CYCLES) {
      improved = false;
      for (int alpha = 0; alpha < m.devices; alpha++) {
        int[] next = move(m, label, alpha);
        double e = m.energy(next);
        if (e < energy - RELATIVE_TOLERANCE * Math.max(1, Math.abs(energy))) {
          label = next;
          energy = e;
          improved = true;
        }
      }
    }
    return label;
  }

  /** The best labeling reachable from {@code label} by one expansion move to {@code alpha}. */
  static int[] move(CutModel m, int[] label, int alpha) {
    MoveNetwork net = new MoveNetwork(m, label, alpha);
    net.build();
    return net.solve();
  }

  /** One expansion move's network. Variables: y_i = 0 keep label[i], y_i = 1 move to α. */
  private static final class MoveNetwork {
    private final CutModel m;
    private final int[] label;
    private final int alpha;
    private final double[] keep;
    private final double[] moveTo;
    private final MaxFlow flow;
    private final int[] stamp;
    private int stampValue;
    private int[] set = new int[8];
    private int setSize;

    MoveNetwork(CutModel m, int[] label, int alpha) {
      this.m = m;
      this.label = label;
      this.alpha = alpha;
      keep = new double[m.ops];
      moveTo = new double[m.ops];
      stamp = new int[m.ops];
      flow = new MaxFlow(m.ops, 4 * m.ops + 2 * m.model.tensorCount());
    }

    private int lab(int i, int y) {
      return y == 1 ? alpha : label[i];
    }

    void build() {
      for (int i = 0; i < m.ops; i++) {
        keep[i] = m.unary(i, label[i]);
        moveTo[i] = m.unary(i, alpha);
        int f = m.model.fuseInto(i);
        if (f >= 0) {
          pairwise(i, f, m.fusionTerm(i, lab(i, 0), lab(f, 0)), m.fusionTerm(i, lab(i, 0), lab(f, 1)),
              m.fusionTerm(i, lab(i, 1), lab(f, 0)), m.fusionTerm(i, lab(i, 1), lab(f, 1)));
        }
      }
      for (int t = 0; t < m.model.tensorCount(); t++) {
        tensor(t);
      }
      for (int i = 0; i < m.ops; i++) {
        // Terminal edges after normalising: cost when moved = source edge, when kept = sink edge.
        double lo = Math.min(keep[i], moveTo[i]);
        flow.addEdge(flow.source(), i, capacity(moveTo[i] - lo));
        flow.addEdge(i, flow.sink(), capacity(keep[i] - lo));
      }
    }

    int[] solve() {
      flow.solve();
      int[] next = label.clone();
      for (int i = 0; i < m.ops; i++) {
        if (!flow.sourceSide(i)) {
          next[i] = alpha;
        }
      }
      return next;
    }

    private static long capacity(double micros) {
      if (Double.isInfinite(micros) || Double.isNaN(micros)) {
        return MaxFlow.INF;
      }
      return Math.round(micros * SCALE);
    }

    /** E(y_i, y_j) as unary terms plus an edge i → j (cut when i keeps and j moves). */
    private void pairwise(int i, int j, double e00, double e01, double e10, double e11) {
      addUnary(i, e10 - e00);
      addUnary(j, e11 - e10);
      double w = e01 + e10 - e00 - e11;
      if (w < -1e-9) {
        throw new IllegalStateException("non-submodular fusion term on ops " + i + ", " + j);
      }
      flow.addEdge(i, j, capacity(w));
    }

    /** Adds {@code delta · y_i}. */
    private void addUnary(int i, double delta) {
      if (delta >= 0) {
        moveTo[i] += delta;
      } else {
        keep[i] -= delta;
      }
    }

    /** See the case analysis in {@link CutModel}: each copy condition as a representable term. */
    private void tensor(int t) {
      int p = m.model.tensorProducer(t);
      int n = m.model.tensorConsumerCount(t);
      if (n == 0 && p < 0) {
        return;
      }
      int base = t * m.devices;
      int beta = p >= 0 ? label[p] : -1;
      boolean results = m.model.tensorResults(t) > 0;
      boolean consumerOnAlpha = false;
      boolean consumerOffBeta = false;
      long present = 0;
      for (int k = 0; k < n; k++) {
        int lc = label[m.model.tensorConsumer(t, k)];
        consumerOnAlpha |= lc == alpha;
        consumerOffBeta |= lc != beta;
        present |= 1L << lc;
      }
      // Copies into d ≠ α: some consumer keeps its device d (and, if the producer is on d, it moves).
      for (long s = present & ~(1L << alpha); s != 0; s &= s - 1) {
        int d = Long.numberOfTrailingZeros(s);
        collect(t, d, false);
        if (beta == d) {
          moveAndAnyKeep(p, m.in[base + d]);
        } else {
          anyKeep(m.in[base + d]);
        }
      }
      // Copy into α: the producer (not on α) keeps, and some consumer is or gets on α.
      if (beta != alpha) {
        double w = m.in[base + alpha];
        if (p >= 0 && consumerOnAlpha) {
          keep[p] += w;
        } else if (p < 0 && consumerOnAlpha) {
          // constant
        } else {
          collect(t, alpha, true);
          if (p >= 0) {
            keepAndAnyMove(p, w);
          } else {
            anyMove(w);
          }
        }
      }
      if (p < 0) {
        return;
      }
      // Copy out of the producer's device.
      if (beta == alpha) {
        if (!results) {
          collect(t, alpha, true);
          anyKeep(m.out[base + alpha]);
        }
        return;
      }
      if (results) {
        moveTo[p] += m.out[base + alpha];
      } else {
        collect(t, alpha, true);
        moveAndAnyKeep(p, m.out[base + alpha]);
      }
      if (results || consumerOffBeta) {
        keep[p] += m.out[base + beta];
      } else {
        collect(t, beta, false);
        keepAndAnyMove(p, m.out[base + beta]);
      }
    }

    /** Distinct consumers of t whose label is {@code d} ({@code not}: whose label is not d) into {@link #set}. */
    private void collect(int t, int d, boolean not) {
      stampValue++;
      setSize = 0;
      int n = m.model.tensorConsumerCount(t);
      for (int k = 0; k < n; k++) {
        int c = m.model.tensorConsumer(t, k);
        if ((label[c] == d) != not && stamp[c] != stampValue) {
          stamp[c] = stampValue;
          if (setSize == set.length) {
            set = Arrays.copyOf(set, setSize * 2);
          }
          set[setSize++] = c;
        }
      }
    }

    /** w · [some op of the set keeps]. */
    private void anyKeep(double w) {
      if (setSize == 0 || w <= 0) {
        return;
      }
      if (setSize == 1) {
        keep[set[0]] += w;
        return;
      }
      int b = flow.addNode();
      for (int k = 0; k < setSize; k++) {
        flow.addEdge(set[k], b, MaxFlow.INF);
      }
      flow.addEdge(b, flow.sink(), capacity(w));
    }

    /** w · [some op of the set moves]. */
    private void anyMove(double w) {
      if (setSize == 0 || w <= 0) {
        return;
      }
      if (setSize == 1) {
        moveTo[set[0]] += w;
        return;
      }
      int a = flow.addNode();
      flow.addEdge(flow.source(), a, capacity(w));
      for (int k = 0; k < setSize; k++) {
        flow.addEdge(a, set[k], MaxFlow.INF);
      }
    }

    /** w · [p keeps and some op of the set moves]. */
    private void keepAndAnyMove(int p, double w) {
      if (setSize == 0 || w <= 0) {
        return;
      }
      if (setSize == 1) {
        flow.addEdge(p, set[0], capacity(w));
        return;
      }
      int a = flow.addNode();
      flow.addEdge(p, a, capacity(w));
      for (int k = 0; k < setSize; k++) {
        flow.addEdge(a, set[k], MaxFlow.INF);
      }
    }

    /** w · [p moves and some op of the set keeps]. */
    private void moveAndAnyKeep(int p, double w) {
      if (setSize == 0 || w <= 0) {
        return;
      }
      if (setSize == 1) {
        flow.addEdge(set[0], p, capacity(w));
        return;
      }
      int b = flow.addNode();
      for (int k = 0; k < setSize; k++) {
        flow.addEdge(set[k], b, MaxFlow.INF);
      }
      flow.addEdge(b, p, capacity(w));
    }
  }
}
