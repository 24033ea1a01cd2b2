package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.OpGraph;

/**
 * How much any split could gain over the fastest single device, under the additive cost model:
 * why a run returns one device alone.
 *
 * <p>A split runs each op on some device and pays boundary copies and sub-model starts on top; one
 * device alone pays neither beyond what every placement pays (the model's inputs and outputs, the
 * request). So a split's latency is at least the sum, over ops, of each op's cheapest kernel on any
 * device (fused into its producer where it may be), and its gain over device {@code d} alone is
 * at most {@link #gainMicros}: the sum over the ops some other device runs faster than {@code d}
 * of the difference, plus what the model's own inputs and outputs could save on a cheaper link and
 * a sub-model on a device quicker to start. When {@code d} is at least as fast on every op and has
 * the cheapest link and start (the twin devices of a CPU have equal ones), that is 0: no split can
 * pay.
 *
 * @param device the single device the bound is over: the model's fastest, or the one asked for (the measured winner)
 * @param singleMicros its predicted latency alone
 * @param fastest the model's fastest single device (may differ from {@code device} when a measured winner is asked for)
 * @param fastestMicros that device's predicted latency alone
 * @param gainMicros the most a split could gain over it (≥ 0)
 * @param fasterOps ops another device runs faster than {@code device}
 * @param classes per op class (the IR op type), the kernel time on each device alone, µs, in device order
 * @param deviceNames the model's devices
 */
public record SplitBound(String device, double singleMicros, String fastest, double fastestMicros,
    double gainMicros, int fasterOps, Map<String, double[]> classes, List<String> deviceNames) {

  public SplitBound {
    classes = Map.copyOf(classes);
    deviceNames = List.copyOf(deviceNames);
  }

  /** The bound of {@code proxy}'s model, or null when no device runs every op alone. */
  public static SplitBound of(PlacementProxy proxy) {
    return of(proxy.graph(), proxy.model());
  }

  /** The bound of {@code model} of {@code graph}, or null when no device runs every op alone. */
  public static SplitBound of(OpGraph graph, HeteroCostModel model) {
    int best = fastest(model);
    return best < 0 ? null : over(graph, model, best, best);
  }

  /**
   * The bound over {@code device} alone (e.g. the device a run measured fastest, which the model may
   * not rank first), or null when that device cannot run every op alone.
   */
  public static SplitBound over(PlacementProxy proxy, String device) {
    HeteroCostModel model = proxy.model();
    int d = model.deviceNames().indexOf(device);
    if (d < 0 || !aloneMicros(model, d).isPresent()) {
      return null;
    }
    return over(proxy.graph(), model, d, fastest(model));
  }

  private static int fastest(HeteroCostModel model) {
    int best = -1;
    double bestMicros = Double.POSITIVE_INFINITY;
    for (int d = 0; d < model.deviceCount(); d++) {
      OptionalDouble t = aloneMicros(model, d);
      if (t.isPresent() && t.getAsDouble() < bestMicros) {
        best = d;
        bestMicros = t.getAsDouble();
      }
    }
    return best;
  }

  private static OptionalDouble aloneMicros(HeteroCostModel model, int d) {
    int[] all = new int[model.opCount()];
    Arrays.fill(all, d);
    HeteroCostModel.Evaluation e = model.evaluate(all);
    return e.ok() ? OptionalDouble.of(e.micros()) : OptionalDouble.empty();
  }

  private static SplitBound over(OpGraph graph, HeteroCostModel model, int best, int fastest) {
    int n = model.opCount();
    int dc = model.deviceCount();
    double gain = 0;
    int faster = 0;
    Map<String, double[]> classes = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      double alone = alone(model, i, best);
      double cheapest = alone;
      for (int d = 0; d < dc; d++) {
        if (model.supported(i, d)) {
          double t = model.fuseInto(i) >= 0 ? Math.min(model.micros(i, d), model.fusedMicros(i, d))
              : model.micros(i, d);
          cheapest = Math.min(cheapest, t);
        }
      }
      if (cheapest < alone) {
        gain += alone - cheapest;
        faster++;
      }
      double[] perDevice = classes.computeIfAbsent(graph.node(model.node(i)).type(), k -> new double[dc]);
      for (int d = 0; d < dc; d++) {
        perDevice[d] += model.supported(i, d) ? alone(model, i, d) : Double.POSITIVE_INFINITY;
      }
    }
    gain += edgeSavings(model, best);
    return new SplitBound(model.deviceNames().get(best), aloneMicros(model, best).getAsDouble(),
        model.deviceNames().get(fastest), aloneMicros(model, fastest).getAsDouble(), gain, faster, classes,
        model.deviceNames());
  }

  /**
   * What a split could save over device {@code d} alone outside the kernels: the model's own inputs
   * and outputs copied over a cheaper link than {@code d}'s, and sub-model starts: a split runs on at
   * least two devices, so it starts at least the two cheapest starts of two devices, which saves
   * something only when {@code d}'s one start costs more than both (never with two devices).
   */
  private static double edgeSavings(HeteroCostModel m, int d) {
    double saving = 0;
    for (int t = 0; t < m.tensorCount(); t++) {
      if (m.tensorProducer(t) < 0 || m.tensorResults(t) > 0) {
        double cheapest = m.copyMicros(d, m.tensorBytes(t));
        for (int e = 0; e < m.deviceCount(); e++) {
          cheapest = Math.min(cheapest, m.copyMicros(e, m.tensorBytes(t)));
        }
        saving += m.copyMicros(d, m.tensorBytes(t)) - cheapest;
      }
    }
    double[] starts = new double[m.deviceCount()];
    for (int e = 0; e < starts.length; e++) {
      starts[e] = m.subModelOverhead(e);
    }
    Arrays.sort(starts);
    double splitStarts = starts.length >= 2 ? starts[0] + starts[1] : Double.POSITIVE_INFINITY;
    return saving + Math.max(0, m.subModelOverhead(d) - splitStarts);
  }

  /** Kernel time of op {@code i} when every op runs on {@code d} (fused into its producer where it fuses). */
  private static double alone(HeteroCostModel m, int i, int d) {
    return m.fuseInto(i) >= 0 ? m.fusedMicros(i, d) : m.micros(i, d);
  }

  /** The most a split could gain, as a share of the single device's latency. */
  public double gainShare() {
    return gainMicros / singleMicros;
  }

  /** Whether the device is at least as fast as every other on every op: no split can pay at all. */
  public boolean noSplitCanPay() {
    return gainMicros <= 0;
  }

  /** {@code 2.86}, or two significant digits below 0.01 ({@code 0.0012}): a positive ratio never prints as 0.00. */
  static String ratioText(double ratio) {
    return ratio >= 0.01 ? String.format(Locale.ROOT, "%.2f", ratio)
        : new java.math.BigDecimal(ratio).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
  }

  /**
   * {@code CPU is faster than CPU2 on every op class (Convolution 2.9x, MatMul 1.8x, ...); under the
   * additive cost model no split can beat CPU alone}, or the bound when some op is faster elsewhere.
   * Op classes whose ratio is not a positive number (no time on a device, or none it can run) are
   * left out of the ratios; a device the model ranks ahead of {@code device} is named.
   */
  public String explain() {
    int d = deviceNames.indexOf(device);
    List<String> others = new ArrayList<>(deviceNames);
    others.remove(device);
    List<Map.Entry<String, double[]>> heavy = new ArrayList<>(classes.entrySet());
    heavy.sort((a, b) -> Double.compare(b.getValue()[d], a.getValue()[d]));
    boolean everyClass = heavy.stream().allMatch(e -> isFastest(e.getValue(), d));
    List<String> ratios = new ArrayList<>();
    for (Map.Entry<String, double[]> e : heavy) {
      double ratio = otherFastest(e.getValue(), d) / e.getValue()[d];
      if (ratios.size() < 4 && Double.isFinite(ratio) && ratio > 0) {
        ratios.add(e.getKey() + " " + ratioText(ratio) + "x");
      }
    }
    String vs = String.join(", ", others);
    String perClass = ratios.isEmpty() ? "no op class that both run"
        : String.join(", ", ratios) + (heavy.size() > ratios.size() ? ", ..." : "");
    // Never call a device the fastest when the model ranks another first (e.g. against the measured winner).
    String ranking = device.equals(fastest) ? (everyClass ? "" : device + " alone is the fastest device by the "
        + "cost model; ") : String.format(Locale.ROOT, "the cost model ranks %s alone (%.3f ms) ahead of %s alone "
            + "(%.3f ms); ", fastest, fastestMicros / 1000, device, singleMicros / 1000);
    String head = ranking + (everyClass
        ? device + " is faster than " + vs + " on every op class (" + vs + " kernel time / " + device + "'s: "
            + perClass + ")"
        : "per op class, " + vs + " kernel time / " + device + "'s: " + perClass);
    if (noSplitCanPay()) {
      return head + "; and on every op, so under the additive cost model no split can beat " + device + " alone";
    }
    if (fasterOps == 0) {
      return head + String.format(Locale.ROOT, "; no op is faster elsewhere: only cheaper input and output copies "
          + "could let a split gain, at most %.1f %% (%.3f ms) over %s alone under the additive cost model",
          100 * gainShare(), gainMicros / 1000, device);
    }
    return head + String.format(Locale.ROOT, "; %d ops are faster elsewhere, so a split could gain at most %.1f %% "
        + "(%.3f ms) over %s alone under the additive cost model", fasterOps, 100 * gainShare(), gainMicros / 1000,
        device);
  }

  private static double otherFastest(double[] perDevice, int d) {
    double other = Double.POSITIVE_INFINITY;
    for (int k = 0; k < perDevice.length; k++) {
      if (k != d) {
        other = Math.min(other, perDevice[k]);
      }
    }
    return other;
  }

  private static boolean isFastest(double[] perDevice, int d) {
    for (double t : perDevice) {
      if (t < perDevice[d]) {
        return false;
      }
    }
    return true;
  }
}
