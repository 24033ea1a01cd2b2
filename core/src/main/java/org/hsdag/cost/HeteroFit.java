package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Fits what a HETERO inference costs beyond its kernels to measured placements: per device a
 * kernel scale (how far the per-op times, e.g. from profiling records, are from what the device
 * really spends), a sub-model start cost and a boundary-copy cost (latency per copy plus bytes over
 * bandwidth), and the per-request overhead. The latency {@link HeteroCostModel#evaluate} gives is
 * linear in all of them, so the fit is a least-squares problem in relative error (small and large
 * placements weigh alike) with Huber weights (a run a load burst slowed does not bend every cost;
 * {@link HeteroFitSolver}), solved exactly under the constraints every such number must meet: costs
 * non-negative, kernel scales within [{@value #MIN_KERNEL_SCALE}, {@value #MAX_KERNEL_SCALE}]. The
 * features of each measurement come from the model's own evaluator (the same HETERO split, fusion
 * and copy rules the planner uses), so the fitted model reproduces its calibration measurements as
 * closely as its form allows; the fit's error on them is part of the result. Stateless.
 */
public final class HeteroFit {
  /** Bounds of a kernel scale: outside them the per-op times are not of this device. */
  public static final double MIN_KERNEL_SCALE = 0.02;

  public static final double MAX_KERNEL_SCALE = 50.0;
  /** Kernel scales outside [1 / this, this] are reported: the profile mis-states the device. */
  static final double PLAUSIBLE_KERNEL_SCALE = 2.0;

  private HeteroFit() {}

  /**
   * One measured placement.
   *
   * @param label what it is (e.g. {@code CPU only}, {@code 2 boundaries from CPU2})
   * @param deviceOfOp the model device of each op
   * @param micros its measured latency, µs
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out
  public record Observation(String label, int[] deviceOfOp, double micros) {
    public Observation {
      deviceOfOp = deviceOfOp.clone();
      if (!(micros > 0) || Double.isInfinite(micros)) {
        throw new IllegalArgumentException("a measured latency must be > 0 (got " + micros + ")");
      }
    }

    @Override
    public int[] deviceOfOp() {
      return deviceOfOp.clone();
    }
  }

  /**
   * The fitted model and how well it reproduces the measurements it was fitted on.
   *
   * @param model the base model's kernels scaled per device, with the fitted copy, start and request costs
   * @param kernelScale per device
   * @param costs per device: fitted copy latency, µs per byte and sub-model start
   * @param requestMicros fitted per-request overhead
   * @param observations the measurements
   * @param predicted the fitted model's latency of each, µs
   * @param notes what the sanity checks found (empty when every number is plausible)
   */
  @SuppressWarnings("ArrayRecordComponent") // copied in and out
  public record Result(HeteroCostModel model, double[] kernelScale, List<HeteroDevice> costs, double requestMicros,
      List<Observation> observations, double[] predicted, List<String> notes) {
    public Result {
      kernelScale = kernelScale.clone();
      costs = List.copyOf(costs);
      observations = List.copyOf(observations);
      predicted = predicted.clone();
      notes = List.copyOf(notes);
    }

    @Override
    public double[] kernelScale() {
      return kernelScale.clone();
    }

    @Override
    public double[] predicted() {
      return predicted.clone();
    }

    /** Relative error of the fitted model on observation {@code k} (predicted / measured - 1). */
    public double error(int k) {
      return predicted[k] / observations.get(k).micros() - 1;
    }

    public double medianAbsError() {
      double[] e = new double[predicted.length];
      Arrays.setAll(e, k -> Math.abs(error(k)));
      Arrays.sort(e);
      return e.length == 0 ? 0 : e.length % 2 == 1 ? e[e.length / 2] : (e[e.length / 2 - 1] + e[e.length / 2]) / 2;
    }

    public double maxAbsError() {
      double m = 0;
      for (int k = 0; k < predicted.length; k++) {
        m = Math.max(m, Math.abs(error(k)));
      }
      return m;
    }

  }

  /**
   * Fits {@code base}'s kernel scales, copy, start and request costs to {@code observations}
   * (whatever those costs are in {@code base} is ignored).
   *
   * @throws IllegalArgumentException when there is no observation
   */
  public static Result fit(HeteroCostModel base, List<Observation> observations) {
    if (observations.isEmpty()) {
      throw new IllegalArgumentException("no measurement to fit HETERO's costs to");
    }
    int dn = base.deviceCount();
    double[][] x = new double[observations.size()][];
    double[] y = new double[observations.size()];
    Features features = new Features(base);
    for (int k = 0; k < x.length; k++) {
      x[k] = features.of(observations.get(k).deviceOfOp());
      y[k] = observations.get(k).micros();
    }
    int p = 4 * dn + 1;
    // A device alone need not run as inside a split: the splits fit the costs, each alone run its own factor.
    List<Integer> split = new ArrayList<>();
    for (int k = 0; k < x.length; k++) {
      if (aloneOn(x[k], dn) < 0) {
        split.add(k);
      }
    }
    boolean separate = split.size() >= p / 2;
    double[] theta = separate
        ? HeteroFitSolver.robust(split.stream().map(k -> x[k]).toArray(double[][]::new),
            split.stream().mapToDouble(k -> y[k]).toArray(), p, dn)
        : HeteroFitSolver.robust(x, y, p, dn);
    List<String> notes = new ArrayList<>();
    double[] scale = Arrays.copyOfRange(theta, 0, dn);
    double[] alone = separate ? aloneScales(x, y, theta, dn) : ones(dn);
    List<HeteroDevice> costs = new ArrayList<>();
    double slowest = Arrays.stream(y).max().orElse(0);
    for (int d = 0; d < dn; d++) {
      String name = base.device(d).name();
      HeteroDevice c = new HeteroDevice(name, theta[2 * dn + d], theta[3 * dn + d], theta[dn + d], alone[d]);
      costs.add(c);
      if (alone[d] > PLAUSIBLE_KERNEL_SCALE || alone[d] < 1 / PLAUSIBLE_KERNEL_SCALE) {
        notes.add(String.format(Locale.ROOT, "%s: alone it runs its kernels x%.2f as long as inside a split "
            + "(e.g. a test device's thread count holds alone only); the model keeps both", name, alone[d]));
      }
      if (scale[d] > PLAUSIBLE_KERNEL_SCALE || scale[d] < 1 / PLAUSIBLE_KERNEL_SCALE) {
        notes.add(String.format(Locale.ROOT, "%s: its kernels take x%.2f of the profiled per-op times in these runs "
            + "(the profile does not show how the device runs inside HETERO)", name, scale[d]));
      }
      if (c.subModelOverheadUs() > 0.5 * slowest) {
        notes.add(String.format(Locale.ROOT, "%s: a sub-model start of %.0f us is more than half the slowest run "
            + "(%.0f us): implausible, check the measurements", name, c.subModelOverheadUs(), slowest));
      }
    }
    HeteroCostModel fitted = apply(base, scale, costs, theta[4 * dn]);
    double[] predicted = new double[y.length];
    HeteroCostModel.Evaluator ev = fitted.evaluator();
    for (int k = 0; k < y.length; k++) {
      predicted[k] = ev.micros(observations.get(k).deviceOfOp());
    }
    if (hasSplit(x, dn) && costs.stream()
        .allMatch(c -> c.subModelOverheadUs() == 0 && c.linkLatencyUs() == 0 && c.linkMicrosPerByte() == 0)) {
      notes
          .add("the measurements include splits, yet the fit leaves every start and copy cost at 0 (splits look free)");
    }
    return new Result(fitted, scale, costs, theta[4 * dn], observations, predicted, notes);
  }

  /** {@code base} with kernels scaled per device and the given copy, start and request costs. */
  public static HeteroCostModel apply(HeteroCostModel base, double[] kernelScale, List<HeteroDevice> costs,
      double requestMicros) {
    int dn = base.deviceCount();
    int nc = base.opCount();
    double[] k = new double[dn * nc];
    for (int d = 0; d < dn; d++) {
      Arrays.fill(k, d * nc, (d + 1) * nc, kernelScale[d]);
    }
    double[] ones = new double[dn];
    Arrays.fill(ones, 1);
    return base.rescaled(k, ones, ones).withDeviceCosts(costs, requestMicros);
  }

  /** The device a placement's features show alone (sub-models on it only), or -1. */
  private static int aloneOn(double[] f, int dn) {
    int only = -1;
    for (int d = 0; d < dn; d++) {
      if (f[dn + d] > 0) {
        if (only >= 0) {
          return -1;
        }
        only = d;
      }
    }
    return only;
  }

  private static double[] ones(int n) {
    double[] a = new double[n];
    Arrays.fill(a, 1);
    return a;
  }

  /** Per device, the median over its alone runs of (measured - fitted non-kernel costs) / fitted kernels, bounded. */
  private static double[] aloneScales(double[][] x, double[] y, double[] theta, int dn) {
    double[] out = ones(dn);
    for (int d = 0; d < dn; d++) {
      List<Double> r = new ArrayList<>();
      for (int k = 0; k < x.length; k++) {
        if (aloneOn(x[k], dn) != d || !(x[k][d] * theta[d] > 0)) {
          continue;
        }
        double rest = 0;
        for (int j = dn; j < theta.length; j++) {
          rest += x[k][j] * theta[j];
        }
        r.add((y[k] - rest) / (x[k][d] * theta[d]));
      }
      if (!r.isEmpty()) {
        r.sort(null);
        double m = r.get(r.size() / 2);
        out[d] = Math.max(MIN_KERNEL_SCALE, Math.min(MAX_KERNEL_SCALE, m));
      }
    }
    return out;
  }

  /** Whether some measured placement has more than one sub-model. */
  private static boolean hasSplit(double[][] x, int dn) {
    for (int k = 0; k < x.length; k++) {
      int subs = 0;
      for (int d = 0; d < dn; d++) {
        subs += (int) x[k][dn + d];
      }
      if (subs > 1) {
        return true;
      }
    }
    return false;
  }

  /** The linear features of a placement: per device kernel µs, sub-models, copies, copied bytes; then 1. */
  static final class Features {
    private final HeteroCostModel kernels;
    private final HeteroCostModel perCopyModel;
    private final HeteroCostModel perByteModel;
    private final int dn;

    Features(HeteroCostModel base) {
      dn = base.deviceCount();
      List<HeteroDevice> zero = new ArrayList<>();
      List<HeteroDevice> copy = new ArrayList<>();
      List<HeteroDevice> byte1 = new ArrayList<>();
      for (HeteroDevice d : base.devices()) {
        zero.add(new HeteroDevice(d.name(), 0, 0, 0));
        copy.add(new HeteroDevice(d.name(), 1, 0, 0));
        byte1.add(new HeteroDevice(d.name(), 0, 1, 0));
      }
      kernels = base.withDeviceCosts(zero, 0);
      perCopyModel = base.withDeviceCosts(copy, 0);
      perByteModel = base.withDeviceCosts(byte1, 0);
    }

    double[] of(int[] dc) {
      double[] f = new double[4 * dn + 1];
      CostTerms t = kernels.terms(dc);
      for (int i = 0; i < dc.length; i++) {
        f[dc[i]] += t.opMicros(i);
      }
      CostTerms copies = perCopyModel.terms(dc);
      CostTerms bytes = perByteModel.terms(dc);
      for (int d = 0; d < dn; d++) {
        f[dn + d] = t.subModels(d);
        f[2 * dn + d] = copies.copyMicros(d);
        f[3 * dn + d] = bytes.copyMicros(d);
      }
      f[4 * dn] = 1;
      return f;
    }
  }
}
