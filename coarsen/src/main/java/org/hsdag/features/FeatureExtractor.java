package org.hsdag.features;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.hsdag.coarsen.Coarsening;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;

/**
 * The paper's initial node features (§2.3), computed on the original graph and aggregated to the clusters
 * of a {@link Coarsening}: one row per cluster. Groups, in column order, each switchable by
 * {@link FeatureConfig}:
 *
 * <ul>
 *   <li>{@code op:<type>} — one-hot op type over the fixed {@link OpTypeVocabulary}.
 *   <li>{@code shape:0..5}, {@code shape:rank}, {@code shape:log_elems} — the first output port's shape
 *       (the input shape for ops without outputs, e.g. Result), outermost first, padded with 0 to a fixed
 *       rank of {@value #SHAPE_RANK} (the same width for every model; a deeper shape folds its leading dims
 *       into slot 0 by product). Static dims are ln(1 + d); a dynamic dim is -1, distinct from both padding
 *       and any static size. {@code shape:rank} is rank / {@value #SHAPE_RANK}; {@code shape:log_elems} is
 *       ln(1 + element count), dynamic dims counted as 1.
 *   <li>{@code in:0..7}, {@code in:8+}, {@code out:0..7}, {@code out:8+} — one-hot number of distinct
 *       producer / consumer ops, capped at {@value #DEGREE_CAP} with an overflow slot.
 *   <li>{@code fractal_dim} — {@link FractalDimension} with its documented radius and work bound.
 *   <li>{@code pos:0..d_pos-1} — sinusoidal encoding (eq. 5) of the 1-based topological index.
 *   <li>{@code cluster:log_size} — always present: ln(member count), 0 for a singleton.
 * </ul>
 *
 * A cluster's row is the mean of its members' rows (so the op-type block becomes the fraction of each type,
 * as in the HSDAG code) plus the log size column.
 */
public final class FeatureExtractor {
  /** Fixed padded rank of the output-shape block. */
  public static final int SHAPE_RANK = 6;

  /** Degrees 0..DEGREE_CAP-1 get their own slot; larger ones share the overflow slot. */
  public static final int DEGREE_CAP = 8;

  private final FeatureConfig config;
  private final FractalDimension fractal;

  public FeatureExtractor(FeatureConfig config) {
    this(config, FractalDimension.withDefaults());
  }

  public FeatureExtractor(FeatureConfig config, FractalDimension fractal) {
    this.config = Objects.requireNonNull(config, "config");
    this.fractal = Objects.requireNonNull(fractal, "fractal");
  }

  public FeatureConfig config() {
    return config;
  }

  /** Column names for this configuration (independent of the graph). */
  public List<String> columns() {
    List<String> cols = new ArrayList<>();
    if (config.opType()) {
      for (String t : OpTypeVocabulary.TYPES) {
        cols.add("op:" + t);
      }
    }
    if (config.outputShape()) {
      for (int i = 0; i < SHAPE_RANK; i++) {
        cols.add("shape:" + i);
      }
      cols.add("shape:rank");
      cols.add("shape:log_elems");
    }
    if (config.degrees()) {
      for (String dir : new String[] {"in", "out"}) {
        for (int d = 0; d < DEGREE_CAP; d++) {
          cols.add(dir + ":" + d);
        }
        cols.add(dir + ":" + DEGREE_CAP + "+");
      }
    }
    if (config.fractalDimension()) {
      cols.add("fractal_dim");
    }
    if (config.nodeId()) {
      for (int k = 0; k < config.positionalDims(); k++) {
        cols.add("pos:" + k);
      }
    }
    cols.add("cluster:log_size");
    return cols;
  }

  /** One row per node of g (every node its own cluster). */
  public FeatureMatrix extractNodes(OpGraph g) {
    return extract(g, Coarsening.identity(IntGraph.of(g)));
  }

  /**
   * One row per cluster of {@code c}, which must be a coarsening of {@code g}.
   *
   * @throws IllegalArgumentException when c does not cover g's nodes
   */
  public FeatureMatrix extract(OpGraph g, Coarsening c) {
    int n = g.nodeCount();
    if (c.nodeCount() != n) {
      throw new IllegalArgumentException(
          "coarsening covers " + c.nodeCount() + " nodes but the graph has " + n);
    }
    List<String> cols = columns();
    int width = cols.size();
    int k = c.clusterCount();
    float[] sum = new float[k * width];
    int[] clusterOf = c.clusterOf();
    double[] dims = config.fractalDimension() ? fractal.compute(IntGraph.of(g)) : null;
    double[] frequencies = positionalFrequencies(config.positionalDims());
    for (int v = 0; v < n; v++) {
      int base = clusterOf[v] * width;
      int col = 0;
      OpNode node = g.node(v);
      if (config.opType()) {
        sum[base + col + OpTypeVocabulary.indexOf(node.type())] += 1f;
        col += OpTypeVocabulary.size();
      }
      if (config.outputShape()) {
        addShape(sum, base + col, shapeOf(node));
        col += SHAPE_RANK + 2;
      }
      if (config.degrees()) {
        sum[base + col + Math.min(distinct(g.predecessors(v)), DEGREE_CAP)] += 1f;
        col += DEGREE_CAP + 1;
        sum[base + col + Math.min(distinct(g.successors(v)), DEGREE_CAP)] += 1f;
        col += DEGREE_CAP + 1;
      }
      if (config.fractalDimension()) {
        sum[base + col] += (float) dims[v];
        col++;
      }
      if (config.nodeId()) {
        int pos = g.topologicalRank(v) + 1;
        for (int j = 0; j < frequencies.length; j++) {
          double angle = pos * frequencies[j];
          sum[base + col + j] += (float) ((j & 1) == 0 ? Math.sin(angle) : Math.cos(angle));
        }
        col += frequencies.length;
      }
    }
    int[] sizes = c.clusterSizes();
    for (int cl = 0; cl < k; cl++) {
      int base = cl * width;
      float inv = 1f / sizes[cl];
      for (int j = 0; j < width - 1; j++) {
        sum[base + j] *= inv;
      }
      sum[base + width - 1] = (float) Math.log(sizes[cl]);
    }
    return new FeatureMatrix(cols, k, sum);
  }

  /** The angular frequency of each encoding column: 1 / 10000^(2i/d) for columns 2i and 2i+1 (eq. 5). */
  static double[] positionalFrequencies(int d) {
    double[] f = new double[d];
    for (int k = 0; k < d; k++) {
      int i = k / 2;
      f[k] = 1.0 / Math.pow(10000.0, (2.0 * i) / d);
    }
    return f;
  }

  /** The dims of the first output port, else of the first input port, else a scalar. */
  static long[] shapeOf(OpNode node) {
    List<Port> ports = node.outputs().isEmpty() ? node.inputs() : node.outputs();
    return ports.isEmpty() ? new long[0] : ports.get(0).dims();
  }

  /** Adds the SHAPE_RANK padded slots, the rank column and the log element count at {@code at}. */
  static void addShape(float[] into, int at, long[] dims) {
    int rank = dims.length;
    int fold = Math.max(0, rank - SHAPE_RANK); // leading dims beyond the fixed rank fold into slot 0
    long folded = 1;
    boolean foldedDynamic = false;
    for (int i = 0; i <= fold && i < rank; i++) {
      if (dims[i] < 0) {
        foldedDynamic = true;
      } else {
        folded *= dims[i];
      }
    }
    for (int slot = 0; slot < Math.min(rank, SHAPE_RANK); slot++) {
      long d;
      boolean dynamic;
      if (slot == 0) {
        d = folded;
        dynamic = foldedDynamic;
      } else {
        d = dims[slot + fold];
        dynamic = d < 0;
      }
      into[at + slot] += dynamic ? -1f : (float) Math.log1p((double) d);
    }
    double logElems = 0;
    for (long d : dims) {
      logElems += d > 0 ? Math.log((double) d) : (d == 0 ? Double.NEGATIVE_INFINITY : 0);
    }
    // ln(1 + count) computed from ln(count) without overflowing huge products.
    double logCount = Double.isInfinite(logElems) ? 0 : logElems + Math.log1p(Math.exp(-logElems));
    into[at + SHAPE_RANK] += (float) rank / SHAPE_RANK;
    into[at + SHAPE_RANK + 1] += (float) logCount;
  }

  private static int distinct(int[] neighbours) {
    if (neighbours.length < 2) {
      return neighbours.length;
    }
    int[] s = neighbours.clone();
    java.util.Arrays.sort(s);
    int count = 1;
    for (int i = 1; i < s.length; i++) {
      if (s[i] != s[i - 1]) {
        count++;
      }
    }
    return count;
  }
}
