package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * @param device the fastest single device by the model
 * @param singleMicros its predicted latency alone
 * @param gainMicros the most a split could gain over it (≥ 0)
 * @param fasterOps ops another device runs faster than {@code device}
 * @param classes per op class (the IR op type), the kernel time on each device alone, µs, in device order
 * @param deviceNames the model's devices
 */
public record SplitBound(String device, double singleMicros, double gainMicros, int fasterOps,
    Map<String, double[]> classes, List<String> deviceNames) {

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
    int n = model.opCount();
    int dc = model.deviceCount();
    int best = -1;
    double bestMicros = Double.POSITIVE_INFINITY;
    for (int d = 0; d < dc; d++) {
      int[] all = new int[n];
      Arrays.fill(all, d);
      HeteroCostModel.Evaluation e = model.evaluate(all);
      if (e.ok() && e.micros() < bestMicros) {
        best = d;
        bestMicros = e.micros();
      }
    }
    if (best < 0) {
      return null;
    }
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
    return new SplitBound(model.deviceNames().get(best), bestMicros, gain, faster, classes, model.deviceNames());
  }

  /**
   * What a split could save over device {@code d} alone outside the kernels: the model's own inputs
   * and outputs copied over a cheaper link than {@code d}'s, and one sub-model started on a device
   * quicker to start than {@code d} (0 for twin devices).
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
    double start = m.subModelOverhead(d);
    for (int e = 0; e < m.deviceCount(); e++) {
      start = Math.min(start, m.subModelOverhead(e));
    }
    return saving + m.subModelOverhead(d) - start;
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

  /**
   * {@code CPU is faster than CPU2 on every op class (Convolution 2.9x, MatMul 1.8x, ...); under the
   * additive cost model no split can beat CPU alone}, or the bound when some op is faster elsewhere.
   */
  public String explain() {
    int d = deviceNames.indexOf(device);
    List<String> others = new ArrayList<>(deviceNames);
    others.remove(device);
    List<Map.Entry<String, double[]>> heavy = new ArrayList<>(classes.entrySet());
    heavy.sort((a, b) -> Double.compare(b.getValue()[d], a.getValue()[d]));
    boolean everyClass = heavy.stream().allMatch(e -> isFastest(e.getValue(), d));
    List<String> ratios = new ArrayList<>();
    for (Map.Entry<String, double[]> e : heavy.subList(0, Math.min(4, heavy.size()))) {
      double other = Double.POSITIVE_INFINITY;
      for (int k = 0; k < e.getValue().length; k++) {
        if (k != d) {
          other = Math.min(other, e.getValue()[k]);
        }
      }
      ratios.add(String.format(Locale.ROOT, "%s %.2fx", e.getKey(), other / e.getValue()[d]));
    }
    String vs = String.join(", ", others);
    String perClass = String.join(", ", ratios) + (heavy.size() > 4 ? ", ..." : "");
    String head = everyClass
        ? device + " is faster than " + vs + " on every op class (" + vs + " kernel time / " + device + "'s: "
            + perClass
            + ")"
        : device + " alone is the fastest device; per op class, " + vs + " kernel time / " + device + "'s: " + perClass;
    if (noSplitCanPay()) {
      return head + "; and on every op, so under the additive cost model no split can beat " + device + " alone";
    }
    return head + String.format(Locale.ROOT, "; %d ops are faster elsewhere, so a split could gain at most %.1f %% "
        + "(%.3f ms) over %s alone under the additive cost model", fasterOps, 100 * gainShare(), gainMicros / 1000,
        device);
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
