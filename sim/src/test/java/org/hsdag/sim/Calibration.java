package org.hsdag.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * Reproducible calibration of a profile against the HSDAG paper's Table 2 (CPU-only and
 * GPU-only latency of Inception-V3, ResNet-50 and BERT-base).
 *
 * <p>The machinery (table, fit) works on any graphs keyed by {@link Target#sample()}. The shipped
 * {@code paper} profile is fitted on the generated models by
 * {@code org.hsdag.models.PaperCalibration} in the models module's tests (ResNet-50 built at
 * 1x3x299x299, Inception-V3 at 1x3x299x299, BERT-base at 8 tokens: the paper's inputs); this
 * class's own command line checks or fits a profile on IR files, by default the
 * {@code ../shared/ir-samples/} stand-ins (dynamic inputs costed at {@link ShapeAssumption#DEFAULT}).
 * See {@link #fit} for what is fitted and how. A tool for profile authors and the tests, so it lives
 * with the tests (the models module reads it from this module's test jar).
 *
 * <pre>
 * java -cp ... org.hsdag.sim.Calibration [--samples DIR] [--profile paper|FILE]
 *     [--resnet|--inception|--bert IR.xml] [--fit] [--write OUT.json]
 * </pre>
 */
public final class Calibration {
  /** One Table 2 entry. */
  public record Target(String model, String sample, String device, double paperMillis) {}

  /** One line of the calibration table. */
  public record Row(String model, String device, double simulatedMillis, double paperMillis) {
    public double errorPercent() {
      return 100.0 * (simulatedMillis - paperMillis) / paperMillis;
    }
  }

  /** The paper's Table 2 CPU-only and GPU-only (GPU.1) latencies. */
  public static final List<Target> PAPER_TABLE_2 = List.of(
      new Target("ResNet-50", "resnet-50.xml", "CPU", 16.0),
      new Target("ResNet-50", "resnet-50.xml", "GPU.1", 7.81),
      new Target("Inception-V3", "inception-v3.xml", "CPU", 12.8),
      new Target("Inception-V3", "inception-v3.xml", "GPU.1", 12.0),
      new Target("BERT-base", "roberta-base-cola.xml", "CPU", 6.38),
      new Target("BERT-base", "roberta-base-cola.xml", "GPU.1", 2.77));

  /** Upper bound of a fitted efficiency: a fraction of the device's peak cannot exceed 1. */
  public static final double MAX_EFFICIENCY = 1.0;

  private static final String[] FITTED_CLASSES = {"CONVOLUTION", "POINTWISE_CONVOLUTION", "MATMUL"};
  /** Log-space spread of a target: the fit treats Table 2 as exact to about 1%. */
  private static final double TARGET_LOG_SIGMA = 0.01;
  /** Log-space spreads of the priors: efficiencies, launch overhead, bandwidth. */
  private static final double EFFICIENCY_LOG_SIGMA = 0.35;
  private static final double LAUNCH_LOG_SIGMA = 0.5;
  private static final double BANDWIDTH_LOG_SIGMA = 0.15;

  private Calibration() {}

  /**
   * Typical constants of a device kind, toward which the fit is regularised: oneDNN-like CPU
   * kernels (k x k convolution 0.55 of peak, 1x1 0.45, MatMul 0.6, about 5 us per primitive) and
   * clDNN-like GPU kernels (0.25 / 0.25 / 0.4 of the f16 peak, about 8 us per kernel); 90% of the
   * spec memory bandwidth.
   */
  static double[] prior(DeviceModel d, double specBandwidth) {
    boolean cpu = d.kind().equalsIgnoreCase("CPU");
    return cpu ? new double[] {0.55, 0.45, 0.6, 5.0, 0.9 * specBandwidth}
        : new double[] {0.25, 0.25, 0.4, 8.0, 0.9 * specBandwidth};
  }

  /** Reads the sample models the targets name from {@code samplesDir}. */
  public static Map<String, OpGraph> readModels(Path samplesDir, List<Target> targets) {
    return readModels(samplesDir, targets, Map.of());
  }

  /**
   * Reads the models the targets name from {@code samplesDir}, except those in {@code overrides}
   * (sample file name → another IR, e.g. a generated {@code models/} IR replacing its stand-in).
   */
  public static Map<String, OpGraph> readModels(Path samplesDir, List<Target> targets, Map<String, Path> overrides) {
    Map<String, OpGraph> graphs = new LinkedHashMap<>();
    IrReader reader = new IrReader();
    for (Target t : targets) {
      graphs.computeIfAbsent(t.sample(), s -> reader.read(overrides.getOrDefault(s, samplesDir.resolve(s))));
    }
    return graphs;
  }

  /** The targets whose device {@code profile} has (a profile without GPU.1 is checked on CPU only). */
  public static List<Target> applicable(DeviceProfile profile, List<Target> targets) {
    return targets.stream().filter(t -> profile.indexOf(t.device()) >= 0).toList();
  }

  /** Noise-free single-device latency of every target on {@code profile}. */
  public static List<Row> table(DeviceProfile profile, Map<String, OpGraph> graphs, List<Target> targets) {
    SimBackend sim = new SimBackend(profile, SimOptions.exact());
    List<Row> rows = new ArrayList<>();
    for (Target t : targets) {
      OpGraph g = graphs.get(t.sample());
      if (g == null) {
        throw new IllegalArgumentException("no model for calibration target " + t.model() + " (" + t.sample() + ")");
      }
      double ms = sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), t.device()));
      rows.add(new Row(t.model(), t.device(), ms, t.paperMillis()));
    }
    return rows;
  }

  /** Largest absolute relative error of {@code rows}, in percent. */
  public static double maxErrorPercent(List<Row> rows) {
    double m = 0;
    for (Row r : rows) {
      m = Math.max(m, Math.abs(r.errorPercent()));
    }
    return m;
  }

  /**
   * Fits every device that has targets; returns the fitted profile. Per device it fits the
   * efficiencies of k x k convolutions, 1x1 convolutions and MatMuls (bounded to (0.01, 1]), the
   * launch overhead ([0.5, 60] us) and the memory bandwidth (at most the start profile's figure,
   * taken as the spec unless given, see the overload), minimising the squared log errors of the targets plus a weak pull of
   * every constant toward the typical value of its device kind ({@link #prior}): with three
   * targets and five constants per device, the prior picks the plausible fit among the exact ones.
   * Peaks, sub-model and link costs and the other classes' efficiencies are kept.
   */
  public static DeviceProfile fit(DeviceProfile start, Map<String, OpGraph> graphs, List<Target> targets) {
    return fit(start, graphs, targets, Map.of());
  }

  /**
   * {@link #fit(DeviceProfile, Map, List)} with the spec memory bandwidth (GB/s) of some devices
   * given: the bound and the prior then come from the spec rather than from the start profile, so
   * re-fitting a fitted profile gives the same constants.
   */
  public static DeviceProfile fit(DeviceProfile start, Map<String, OpGraph> graphs, List<Target> targets,
      Map<String, Double> specBandwidthGBs) {
    DeviceProfile p = start;
    Map<String, List<Target>> byDevice = new LinkedHashMap<>();
    for (Target t : targets) {
      byDevice.computeIfAbsent(t.device(), k -> new ArrayList<>()).add(t);
    }
    for (Map.Entry<String, List<Target>> e : byDevice.entrySet()) {
      double spec = specBandwidthGBs.getOrDefault(e.getKey(), p.device(e.getKey()).memoryBandwidthGBs());
      p = fitDevice(p, e.getKey(), spec, graphs, e.getValue());
    }
    return p;
  }

  private static DeviceProfile fitDevice(DeviceProfile p, String device, double specBandwidth,
      Map<String, OpGraph> graphs, List<Target> targets) {
    DeviceModel d = p.device(device);
    double[] prior = prior(d, specBandwidth);
    // Start at the prior: the fit result does not depend on what the profile held before.
    double[] x = prior.clone();
    double best = objective(p, device, x, prior, graphs, targets);
    double[] steps = {1.5, 1.2, 1.05, 1.01, 1.002};
    for (double step : steps) {
      boolean improved = true;
      for (int round = 0; round < 200 && improved; round++) {
        improved = false;
        for (int i = 0; i < x.length; i++) {
          for (double f : new double[] {step, 1 / step}) {
            double[] y = x.clone();
            y[i] = clamp(i, y[i] * f, specBandwidth);
            double o = objective(p, device, y, prior, graphs, targets);
            if (o < best - 1e-12) {
              best = o;
              x = y;
              improved = true;
            }
          }
        }
      }
    }
    return p.withDevice(apply(d, x));
  }

  private static double clamp(int i, double v, double specBandwidth) {
    if (i < FITTED_CLASSES.length) {
      return Math.min(MAX_EFFICIENCY, Math.max(0.01, v));
    }
    if (i == FITTED_CLASSES.length) {
      return Math.min(60.0, Math.max(0.5, v));
    }
    return Math.min(specBandwidth, Math.max(0.3 * specBandwidth, v));
  }

  /** Squared log errors of the targets plus the prior's pull (smooth, so coordinate search does not stall). */
  private static double objective(DeviceProfile p, String device, double[] x, double[] prior,
      Map<String, OpGraph> graphs, List<Target> targets) {
    DeviceProfile q = p.withDevice(apply(p.device(device), x));
    double sum = 0;
    for (Row r : table(q, graphs, targets)) {
      double l = Math.log(r.simulatedMillis() / r.paperMillis()) / TARGET_LOG_SIGMA;
      sum += l * l;
    }
    for (int i = 0; i < x.length; i++) {
      double sigma = i < FITTED_CLASSES.length ? EFFICIENCY_LOG_SIGMA
          : i == FITTED_CLASSES.length ? LAUNCH_LOG_SIGMA : BANDWIDTH_LOG_SIGMA;
      double l = Math.log(x[i] / prior[i]) / sigma;
      sum += l * l;
    }
    return sum;
  }

  private static DeviceModel apply(DeviceModel d, double[] x) {
    Map<String, Double> eff = new HashMap<>(d.efficiency());
    for (int i = 0; i < FITTED_CLASSES.length; i++) {
      eff.put(FITTED_CLASSES[i], round(x[i], 3));
    }
    return new DeviceModel(d.name(), d.fullName(), d.kind(), d.peakGflops(), round(x[FITTED_CLASSES.length + 1], 1),
        round(x[FITTED_CLASSES.length], 2), d.subModelOverheadUs(), d.linkLatencyUs(), d.linkBandwidthGBs(), eff,
        d.unsupportedOps(), d.dynamicShapes(), d.fusion(), d.fullOccupancyOutputs()).withMemory(d.memory())
        .withThroughputGain(d.throughputGain()).withAloneScale(d.aloneFactor());
  }

  private static double round(double v, int digits) {
    double s = Math.pow(10, digits);
    return Math.round(v * s) / s;
  }

  /** Prints the table. */
  public static void print(List<Row> rows, String profileName, PrintStream out) {
    out.printf(Locale.ROOT, "calibration of sim profile '%s' (noise-free, %s) against HSDAG Table 2%n", profileName,
        ShapeAssumption.DEFAULT);
    out.printf(Locale.ROOT, "%-13s %-6s %12s %10s %8s%n", "model", "device", "simulated ms", "paper ms", "error %");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%-13s %-6s %12.3f %10.2f %+8.2f%n", r.model(), r.device(), r.simulatedMillis(),
          r.paperMillis(), r.errorPercent());
    }
    out.printf(Locale.ROOT, "max |error| = %.2f%%%n", maxErrorPercent(rows));
  }

  /** Command line: see the class comment. */
  public static void main(String[] args) throws IOException {
    Path samples = Path.of(System.getProperty("hsdag.shared.dir", "../shared")).resolve("ir-samples");
    String profileName = "paper";
    boolean fit = false;
    Path write = null;
    Map<String, Path> overrides = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--samples" -> samples = Path.of(args[++i]);
        case "--profile" -> profileName = args[++i];
        case "--fit" -> fit = true;
        case "--write" -> write = Path.of(args[++i]);
        case "--resnet" -> overrides.put("resnet-50.xml", Path.of(args[++i]));
        case "--inception" -> overrides.put("inception-v3.xml", Path.of(args[++i]));
        case "--bert" -> overrides.put("roberta-base-cola.xml", Path.of(args[++i]));
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (usage: Calibration"
            + " [--samples DIR] [--profile NAME|FILE] [--resnet|--inception|--bert IR.xml] [--fit] [--write OUT.json])");
      }
    }
    DeviceProfile profile = DeviceProfile.load(profileName);
    List<Target> targets = applicable(profile, PAPER_TABLE_2);
    Map<String, OpGraph> graphs = readModels(samples, targets, overrides);
    print(table(profile, graphs, targets), profile.name(), System.out);
    if (fit) {
      DeviceProfile fitted = fit(profile, graphs, targets);
      System.out.println();
      System.out.println("fitted constants:");
      for (String dev : targets.stream().map(Target::device).distinct().toList()) {
        DeviceModel d = fitted.device(dev);
        System.out.printf(Locale.ROOT, "  %-6s launchOverheadUs=%.2f memoryBandwidthGBs=%.1f efficiency=%s%n", dev,
            d.launchOverheadUs(), d.memoryBandwidthGBs(),
            new java.util.TreeMap<>(d.efficiency()));
      }
      print(table(fitted, graphs, targets), fitted.name() + " (fitted)", System.out);
      if (write != null) {
        org.hsdag.io.AtomicFiles.writeString(write, fitted.toJson() + "\n");
        System.out.println("wrote " + write);
      }
    }
  }
}
