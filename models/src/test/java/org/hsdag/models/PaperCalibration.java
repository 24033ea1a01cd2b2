package org.hsdag.models;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.sim.Calibration;
import org.hsdag.sim.Calibration.Row;
import org.hsdag.sim.Calibration.Target;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.cost.SimGraph;
import org.hsdag.sim.SimOptions;

/**
 * Calibration of the sim {@code paper} profile on the generated benchmark models at the inputs the
 * HSDAG code timed (notes/placement-systems.md §1.2, step 8: random 1×3×299×299 images for the
 * CNNs, the tokenised sentence "Hello, my dog is cute" = 8 tokens for BERT): the catalog models
 * {@code resnet50_299} (the bundled {@code resnet50} is 224×224), {@code inception_v3} and
 * {@code bert_base_8} (the bundled {@code bert_base} has 128 tokens). Lives in the models module's
 * tests because it needs both the builders and the simulator.
 *
 * <pre>
 * mvn -o -q -pl models -am test -Dtest=PaperCalibrationTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false [-Dhsdag.calibration.refit=OUT.json]
 * java -cp ... org.hsdag.models.PaperCalibration [--profile NAME|FILE] [--fit] [--write OUT.json]
 * </pre>
 */
public final class PaperCalibration {
  private static final String RESNET = "resnet50 1x3x299x299";
  private static final String INCEPTION = "inception_v3 1x3x299x299";
  private static final String BERT = "bert_base 1x8 tokens";

  /** Table 2 of the paper, keyed by the generated model and input each row is simulated on. */
  public static final List<Target> TARGETS = List.of(
      new Target("ResNet-50", RESNET, "CPU", 16.0),
      new Target("ResNet-50", RESNET, "GPU.1", 7.81),
      new Target("Inception-V3", INCEPTION, "CPU", 12.8),
      new Target("Inception-V3", INCEPTION, "GPU.1", 12.0),
      new Target("BERT-base", BERT, "CPU", 6.38),
      new Target("BERT-base", BERT, "GPU.1", 2.77));

  /** Spec memory bandwidths (GB/s): DDR5-4800 dual channel; Flex 170 GDDR6. Fitted values stay at or below. */
  public static final Map<String, Double> SPEC_BANDWIDTH_GBS = Map.of("CPU", 76.8, "GPU.0", 76.8, "GPU.1", 576.0);

  private PaperCalibration() {}

  /** The three models at the paper's inputs (catalog models), keyed as {@link #TARGETS} name them. */
  public static Map<String, OpGraph> models() {
    Map<String, OpGraph> m = new LinkedHashMap<>();
    m.put(RESNET, ModelCatalog.get("resnet50_299").build().graph());
    m.put(INCEPTION, ModelCatalog.get("inception_v3").build().graph());
    m.put(BERT, ModelCatalog.get("bert_base_8").build().graph());
    return m;
  }

  /** Prints the table with the input each row was simulated on. */
  public static void print(DeviceProfile profile, List<Row> rows, PrintStream out) {
    out.printf(Locale.ROOT, "sim backend, profile '%s', noise-free: HSDAG Table 2 single-device latencies%n",
        profile.name());
    out.printf(Locale.ROOT, "%-13s %-22s %-6s %12s %9s %8s%n", "model", "input", "device", "simulated ms",
        "paper ms", "error %");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      out.printf(Locale.ROOT, "%-13s %-22s %-6s %12.3f %9.2f %+8.2f%n", r.model(), TARGETS.get(i).sample(),
          r.device(), r.simulatedMillis(), r.paperMillis(), r.errorPercent());
    }
    out.printf(Locale.ROOT, "max |error| = %.2f%%%n", Calibration.maxErrorPercent(rows));
  }

  /** The fitted constants of the calibrated devices. */
  public static void printConstants(DeviceProfile profile, PrintStream out) {
    for (String dev : List.of("CPU", "GPU.1")) {
      DeviceModel d = profile.device(dev);
      out.printf(Locale.ROOT, "  %-6s peak %.0f GFLOP/s, bandwidth %.1f GB/s, launch %.2f us, efficiency %s%n", dev,
          d.peakGflops(), d.memoryBandwidthGBs(), d.launchOverheadUs(), new TreeMap<>(d.efficiency()));
    }
  }

  /**
   * Mixed placements of ResNet-50 (299×299): CPU only, GPU.1 only, each kernel on its fastest
   * device (stand-alone kernel time), and every other kernel alternating CPU / GPU.1.
   */
  public record Mixed(double cpuMillis, double gpuMillis, double fastestMillis, int fastestSubModels,
      double alternatingMillis, int alternatingSubModels) {}

  /** Simulates {@link Mixed} on {@code profile} (devices CPU and GPU.1 only). */
  public static Mixed mixed(DeviceProfile profile, OpGraph g) {
    SimBackend sim = new SimBackend(profile, SimOptions.exact());
    int cpu = sim.deviceSet().indexOf("CPU");
    int gpu = sim.deviceSet().indexOf("GPU.1");
    int cpuProfile = profile.indexOf("CPU");
    int gpuProfile = profile.indexOf("GPU.1");
    SimGraph sg = sim.simGraph(g);
    int[] fastest = new int[g.nodeCount()];
    int[] alternating = new int[g.nodeCount()];
    int kernel = 0;
    for (int v : g.topologicalOrder()) {
      fastest[v] = sg.kernelMicros(v, cpuProfile) < sg.kernelMicros(v, gpuProfile) ? cpu : gpu;
      alternating[v] = gpu;
      if (sg.isCompute(v)) {
        alternating[v] = kernel++ % 2 == 0 ? cpu : gpu;
      }
    }
    SimGraph.Evaluation f = sim.evaluate(g, new Placement(sim.deviceSet(), fastest));
    SimGraph.Evaluation a = sim.evaluate(g, new Placement(sim.deviceSet(), alternating));
    return new Mixed(sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "CPU")),
        sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "GPU.1")), f.micros() / 1000,
        f.subModels(), a.micros() / 1000, a.subModels());
  }

  /** Prints {@link Mixed}. */
  public static void print(Mixed m, PrintStream out) {
    out.printf(Locale.ROOT, "ResNet-50 1x3x299x299 mixed placements (sim, noise-free): CPU %.3f ms, GPU.1 %.3f ms,"
        + " each kernel on its fastest device %.3f ms (%d sub-models), alternating CPU/GPU.1 %.3f ms"
        + " (%d sub-models)%n", m.cpuMillis(), m.gpuMillis(), m.fastestMillis(), m.fastestSubModels(),
        m.alternatingMillis(), m.alternatingSubModels());
  }

  /**
   * Prints the table for {@code profile}; with {@code fit}, re-fits CPU and GPU.1 from the
   * priors, prints the fitted constants and table, and writes the fitted profile to {@code write}
   * when given. Returns the (fitted) profile.
   */
  public static DeviceProfile run(DeviceProfile profile, boolean fit, Path write, PrintStream out) throws IOException {
    Map<String, OpGraph> graphs = models();
    print(profile, Calibration.table(profile, graphs, TARGETS), out);
    DeviceProfile result = profile;
    if (fit) {
      result = Calibration.fit(profile, graphs, TARGETS, SPEC_BANDWIDTH_GBS);
      out.println();
      out.println("fitted constants:");
      printConstants(result, out);
      print(result, Calibration.table(result, graphs, TARGETS), out);
      if (write != null) {
        AtomicFiles.writeString(write, result.toJson() + "\n");
        out.println("wrote " + write);
      }
    }
    print(mixed(result, graphs.get(RESNET)), out);
    return result;
  }

  /** Command line: see the class comment. */
  public static void main(String[] args) throws IOException {
    String profile = "paper";
    boolean fit = false;
    Path write = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--profile" -> profile = args[++i];
        case "--fit" -> fit = true;
        case "--write" -> write = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (usage: PaperCalibration [--profile NAME|FILE] [--fit] [--write OUT.json])");
      }
    }
    run(DeviceProfile.load(profile), fit, write, System.out);
  }
}
