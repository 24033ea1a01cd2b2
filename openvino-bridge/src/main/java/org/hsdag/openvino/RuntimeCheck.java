package org.hsdag.openvino;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;

/**
 * The native backend's end-to-end check on this machine ({@code hsdag check-runtime}): writes
 * {@link SelfTestModel}, compiles it on every available device and on HETERO with a two-device
 * placement, runs it on the same seeded inputs, compares every output with CPU's within a
 * tolerance, and times it.
 */
public final class RuntimeCheck {
  private RuntimeCheck() {}

  /**
   * One compiled target.
   *
   * @param target device string compiled ({@code CPU}, {@code GPU.1}, {@code HETERO:GPU.1,CPU})
   * @param placement short description of the placement
   * @param ok compiled, ran, and matched CPU within the tolerance
   * @param medianMillis median of the timed runs (NaN when it did not run)
   * @param maxAbsDiff largest absolute output difference from CPU (NaN when it did not run)
   * @param subModels HETERO sub-models (1 for a plain device)
   * @param executionDevices devices OpenVINO reports as used
   * @param error OpenVINO's message, or empty
   */
  public record TargetResult(
      String target, String placement, boolean ok, double medianMillis, double maxAbsDiff, int subModels,
      String executionDevices, String error) {}

  /**
   * The whole check.
   *
   * @param version OpenVINO build string
   * @param devices devices found
   * @param results one per target, CPU first
   * @param notes remarks (e.g. only one device, so the mixed placement ran on CPU alone)
   */
  public record Report(String version, List<DeviceInfo> devices, List<TargetResult> results, List<String> notes) {
    public boolean passed() {
      return !results.isEmpty() && results.stream().allMatch(TargetResult::ok);
    }
  }

  /**
   * Runs the check in {@code workDir} (model files are written there).
   *
   * @param runs timed inferences per target (after 3 warm-up runs)
   * @param tolerance largest allowed absolute difference from CPU's outputs (GPUs run f16)
   */
  public static Report run(OpenVinoRuntime rt, Path workDir, int runs, double tolerance, long seed) throws IOException {
    Path xml = SelfTestModel.write(workDir);
    OpGraph graph = SelfTestModel.graph();
    List<DeviceInfo> devices = rt.devices();
    List<TargetResult> results = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    try (OpenVinoRuntime.Model model = rt.readModel(xml)) {
      float[][] reference;
      try (OpenVinoRuntime.Compiled cpu = model.compile("CPU", null, false)) {
        cpu.fillInputs(seed);
        double[] t = cpu.inferTimed(3, runs);
        reference = cpu.outputs();
        results.add(
            new TargetResult("CPU", "all on CPU (reference)", true, median(t), 0.0, 1, cpu.executionDevices(), ""));
      } catch (OpenVinoException e) {
        results.add(
            new TargetResult("CPU", "all on CPU (reference)", false, Double.NaN, Double.NaN, 0, "", e.getMessage()));
        notes.add("CPU failed, so no reference outputs: nothing else was compared");
        return new Report(rt.version(), devices, results, notes);
      }
      for (DeviceInfo d : devices) {
        if (!d.name().equals("CPU")) {
          results.add(runTarget(model, d.name(), "all on " + d.name(), null, reference, runs, tolerance, seed));
        }
      }
      String other = devices.stream().map(DeviceInfo::name).filter(n -> !n.equals("CPU")).findFirst().orElse(null);
      String second = other == null ? "CPU" : other;
      if (other == null) {
        notes.add("only CPU is available: the HETERO placement ran on CPU alone (a mixed placement needs two devices)");
      }
      Placement mixed = SelfTestModel.mixedPlacement(graph, "CPU", second);
      Map<String, String> affinities = new HeteroAffinity(graph).nameMap(mixed);
      String hetero = other == null ? "HETERO:CPU" : "HETERO:" + second + ",CPU";
      String description = "up to " + SelfTestModel.MIXED_CUT_AFTER + " on CPU, the rest on " + second;
      results.add(runTarget(model, hetero, description, affinities, reference, runs, tolerance, seed));
    }
    return new Report(rt.version(), devices, results, notes);
  }

  private static TargetResult runTarget(OpenVinoRuntime.Model model, String device, String description,
      Map<String, String> affinities, float[][] reference, int runs, double tolerance, long seed) {
    try {
      if (affinities != null) {
        model.setAffinities(affinities);
      }
      // Without affinities a meta device chooses the devices itself: that compile runs on the automatic core.
      try (OpenVinoRuntime.Compiled c = affinities == null && OpenVinoRuntime.isMetaDevice(device)
          ? model.compileAutomatic(device, null, false) : model.compile(device, null, false)) {
        c.fillInputs(seed);
        double[] t = c.inferTimed(3, runs);
        double diff = maxAbsDiff(reference, c.outputs());
        boolean ok = diff <= tolerance;
        int subModels = SubModelCount.checked(c.reportedSubModels(), model.opNames().size(), List.of());
        return new TargetResult(device, description, ok, median(t), diff, subModels, c.executionDevices(),
            ok ? "" : "outputs differ from CPU by " + diff + " (tolerance " + tolerance + ")");
      }
    } catch (OpenVinoException e) {
      return new TargetResult(device, description, false, Double.NaN, Double.NaN, 0, "", e.getMessage());
    } finally {
      model.clearAffinities();
    }
  }

  /** Largest absolute element difference; infinity when the output counts or sizes differ. */
  static double maxAbsDiff(float[][] a, float[][] b) {
    if (a.length != b.length) {
      return Double.POSITIVE_INFINITY;
    }
    double max = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i].length != b[i].length) {
        return Double.POSITIVE_INFINITY;
      }
      for (int k = 0; k < a[i].length; k++) {
        double d = Math.abs((double) a[i][k] - b[i][k]);
        if (Double.isNaN(d)) {
          return Double.POSITIVE_INFINITY;
        }
        max = Math.max(max, d);
      }
    }
    return max;
  }

  static double median(double[] x) {
    if (x.length == 0) {
      return Double.NaN;
    }
    double[] c = x.clone();
    Arrays.sort(c);
    int m = c.length / 2;
    return c.length % 2 == 1 ? c[m] : (c[m - 1] + c[m]) / 2;
  }
}
