package org.hsdag.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.io.AtomicFiles;
import org.hsdag.backend.InputShapes;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.CalibrationFit;
import org.hsdag.openvino.CalibrationRecords;
import org.hsdag.openvino.CalibrationRun;
import org.hsdag.openvino.CalibrationThroughput;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag calibrate model.xml --devices CPU,GPU.1 -o my-machine.json}: profiles the model on
 * each device of this machine through OpenVINO (per-layer records, wall latencies, CPU/device
 * split runs) and writes a simulator profile fitted to them, so tuning can run offline on the
 * simulator and be verified on hardware. {@code --from-records} refits saved measurements without
 * OpenVINO.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Fit a simulator profile to per-layer profiling of MODEL on this machine.",
        "Profiling needs the native openvino backend; measurements saved earlier with --records can be fitted anywhere "
            + "(--from-records)."})
public final class CalibrateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MODEL",
      description = "OpenVINO IR model (.xml) to profile, its .bin next to it.")
  Path model;

  @Option(names = "--devices", paramLabel = "LIST", defaultValue = "CPU",
      description = "Devices to profile, e.g. CPU,GPU.1 (default: ${DEFAULT-VALUE}).")
  String devices;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE", required = true, description = "Profile file (.json) to write.")
  Path output;

  @Option(names = "--name", paramLabel = "NAME",
      description = "Profile name (default: the output file name without .json).")
  String name;

  @Option(names = "--base-profile", paramLabel = "NAME|FILE", defaultValue = "paper",
      description = "Profile giving peak FLOP/s, bandwidth and unfitted values (default: ${DEFAULT-VALUE}).")
  String baseProfile;

  @Option(names = "--records", paramLabel = "FILE",
      description = "Also save the raw measurements here (refit later with --from-records).")
  Path records;

  @Option(names = "--from-records", paramLabel = "FILE",
      description = "Fit saved measurements instead of measuring (no OpenVINO needed).")
  Path fromRecords;

  @Mixin
  RealBackendOption realBackend = new RealBackendOption();

  @Mixin
  TestDeviceOptions testDeviceOptions;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "20",
      description = "Timed runs per wall latency (default: ${DEFAULT-VALUE}).")
  int runs;

  /** Kept so scripts that pass it still run: kernels are now profiled as a tune's cost model profiles them. */
  @Option(names = "--profiled-runs", paramLabel = "N", hidden = true)
  Integer profiledRuns;

  @Option(names = "--splits", paramLabel = "N", defaultValue = "0",
      description = "Extra CPU/device prefix split runs per non-CPU device (the designed HETERO runs that fit start and copy costs are always measured; default: ${DEFAULT-VALUE}).")
  int splits;

  @Option(names = "--requests", paramLabel = "K", defaultValue = "4",
      description = "Also measure each device alone with 1..K requests in flight under the throughput hint, for its "
          + "gain from the plugin's streams (0: not measured; default: ${DEFAULT-VALUE}).")
  int requests;

  @Mixin
  InputShapeOptions inputShapeOptions;

  /** The per-machine profile database: kernel times it holds are not profiled again; those profiled feed it. */
  @Mixin
  CostModelStoreOptions costModelStore;

  /** The seed of the random input data, the one default every command shares. */
  @Mixin
  SeedOptions seedOptions;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    realBackend.require("calibrate");
    if (runs < 1 || splits < 0 || requests < 0) {
      throw new UserInputException("--runs must be >= 1, --splits and --requests >= 0");
    }
    if (profiledRuns != null) {
      err.println("hsdag: note: --profiled-runs is no longer used: calibrate profiles each device as tune's cost "
          + "model does (and through the profile database)");
    }
    DeviceSet deviceSet;
    try {
      deviceSet = DeviceSet.parse(devices);
    } catch (InvalidPlacementException e) {
      throw new UserInputException("--devices: " + e.getMessage());
    }
    DeviceProfile base;
    try {
      base = DeviceProfile.load(baseProfile);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--base-profile: " + e.getMessage());
    }
    model = ModelArgument.resolve(model);
    OpGraph graph = ModelArgument.read(model);
    // The sizes every other command announces and compiles (InputShapes), not a default of its own.
    InputShapes.Resolution resolution = inputShapeOptions.resolve(graph);
    ShapeAssumption shapes = resolution.shapes();

    CalibrationRecords recs;
    if (fromRecords != null) {
      try {
        recs = selectDevices(CalibrationRecords.read(fromRecords), deviceSet);
      } catch (IllegalArgumentException e) {
        throw new UserInputException(e.getMessage());
      }
    } else {
      recs = measureRecords(out, err, graph, deviceSet, base, resolution);
      if (recs == null) {
        return ExitCodes.FAILURE;
      }
      if (records != null) {
        recs.write(records);
      }
    }

    CalibrationFit fit = new CalibrationFit(graph, base, shapes);
    CalibrationFit.Result result = fit.fit(recs);
    String profileName = name != null ? name : output.getFileName().toString().replaceFirst("\\.json$", "");
    List<String> sources = new ArrayList<>();
    sources.add("hsdag calibrate on " + recs.model() + " (" + recs.source() + ")");
    sources.add("peak FLOP/s, memory bandwidth and request overhead from profile " + base.name());
    sources.addAll(result.notes());
    List<String> gains = new ArrayList<>();
    DeviceProfile profile = CalibrationThroughput.withGains(fit.toProfile(profileName,
        "calibrated from per-layer profiling of " + recs.model(), sources, result), recs, gains);
    AtomicFiles.writeString(output, profile.toJson() + "\n");

    out.printf("calibrated profile %s from %s (%s)%n", profileName, recs.model(), recs.source());
    for (CalibrationFit.DeviceFit f : result.devices()) {
      out.printf(Locale.ROOT,
          "  %-6s launch %.1f us, sub-model %.1f us, link %.1f us + %.2f GB/s, fitted %s; %d records matched, %d plugin-internal%n",
          f.device(), f.launchOverheadUs(), f.subModelOverheadUs(), f.linkLatencyUs(), f.linkBandwidthGBs(),
          f.fittedClasses().isEmpty() ? "no class" : String.join(",", f.fittedClasses()), f.matchedRecords(),
          f.unmatchedRecords());
    }
    for (String gain : gains) {
      out.println("  " + gain);
    }
    for (String note : result.notes()) {
      out.println("  note: " + note);
    }
    out.println("wrote " + output + (records != null && fromRecords == null ? " and " + records : "")
        + "; use it with --backend sim --profile " + output);
    out.flush();
    return ExitCodes.OK;
  }

  /** Runs the model on the real runtime and profiles it; null (after saying why on {@code err}) when it cannot. */
  private CalibrationRecords measureRecords(PrintWriter out, PrintWriter err, OpGraph graph, DeviceSet deviceSet,
      DeviceProfile base,
      InputShapes.Resolution resolution) {
    OpenVinoAvailability availability = OpenVinoAvailability.probe();
    if (!availability.available()) {
      err.println("hsdag: " + availability.oneLine());
      err.flush();
      return null;
    }
    TuneBackends.requireWeights(model, "calibration runs the model");
    CalibrationRun run;
    try {
      run = new CalibrationRun(runs, splits, seedOptions.seed(), resolution.sizes(), requests);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--input-shape: " + e.getMessage());
    }
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      testDeviceOptions.testDevices().forEach(rt::registerTestDevice);
      CalibrationRun.ProfileStore store = new CalibrationRun.ProfileStore(costModelStore.store().database(),
          costModelStore.freshProfile, testDeviceOptions.testDevices(), notice -> {
            out.println("  " + notice);
            out.flush();
          });
      return run.measure(rt, graph, model, deviceSet.names(), base, resolution.shapes(), store);
    } catch (org.hsdag.openvino.OpenVinoException e) {
      err.println("hsdag: calibration failed: " + e.getMessage());
      err.flush();
      return null;
    }
  }

  /** The records of the requested devices, in that order. */
  private static CalibrationRecords selectDevices(CalibrationRecords recs, DeviceSet devices) {
    List<CalibrationRecords.DeviceRun> runs = new ArrayList<>();
    for (String d : devices.names()) {
      CalibrationRecords.DeviceRun r = recs.run(d);
      if (r == null) {
        throw new IllegalArgumentException("the records have no run on " + d + " (they have: "
            + String.join(",", recs.devices().stream().map(CalibrationRecords.DeviceRun::device).toList()) + ")");
      }
      runs.add(r);
    }
    List<CalibrationRecords.SplitRun> splits = recs.splits().stream().filter(s -> devices.contains(s.device()))
        .toList();
    List<CalibrationRecords.DesignedRun> designed = recs.designed().stream()
        .filter(r -> devices.names().containsAll(r.deviceNames())).toList();
    return new CalibrationRecords(recs.model(), recs.source(), runs, splits, designed);
  }
}
