package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.openvino.RuntimeCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag check-runtime}: proves the native OpenVINO backend works on this machine — compiles a
 * bundled model on every device and on HETERO with a mixed placement, checks the outputs match
 * CPU within a tolerance, and prints the timings (real hardware, backend openvino).
 */
@Command(name = "check-runtime", aliases = "selftest", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Check the native openvino backend on this machine's devices.",
        "Compiles a bundled model on every device and on HETERO with a mixed placement, compares the outputs with CPU "
            + "and prints the timings. Exit 0 when everything matches."})
public final class CheckRuntimeCommand implements Callable<Integer> {
  @Mixin
  RealBackendOption realBackend = new RealBackendOption();

  @Mixin
  TestDeviceOptions testDeviceOptions;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "20",
      description = "Timed runs per target (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--tolerance", paramLabel = "X", defaultValue = "0.01",
      description = "Largest allowed absolute output difference from CPU; GPUs run f16 (default: ${DEFAULT-VALUE}).")
  double tolerance;

  /** The seed of the random input data, the one default every command shares. */
  @Mixin
  SeedOptions seedOptions;

  @Option(names = "--keep", paramLabel = "DIR",
      description = "Write the bundled model to DIR and keep it (default: a temporary folder).")
  Path keep;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    realBackend.require("check-runtime");
    if (runs < 1 || !(tolerance >= 0)) {
      throw new UserInputException("--runs must be >= 1 and --tolerance >= 0");
    }
    OpenVinoAvailability availability = OpenVinoAvailability.probe();
    if (!availability.available()) {
      err.println("hsdag: " + availability.oneLine());
      err.flush();
      return ExitCodes.FAILURE;
    }
    Path dir = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("hsdag-check-runtime");
    RuntimeCheck.Report report;
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      testDeviceOptions.testDevices().forEach(rt::registerTestDevice);
      report = RuntimeCheck.run(rt, dir, runs, tolerance, seedOptions.seed());
    } finally {
      if (keep == null) {
        deleteTree(dir);
      }
    }
    out.println("hsdag check-runtime — backend openvino, OpenVINO " + report.version() + " (real hardware)");
    for (DeviceInfo d : report.devices()) {
      out.println("  device " + d.name() + ": " + d.fullName());
    }
    out.printf("  %-22s %-6s %12s %12s %5s  %s%n", "target", "result", "median ms", "max |diff|", "subm", "placement");
    for (RuntimeCheck.TargetResult r : report.results()) {
      out.printf(Locale.ROOT, "  %-22s %-6s %12.4f %12.2e %5d  %s%s%n", r.target(), r.ok() ? "ok" : "FAIL",
          r.medianMillis(),
          r.maxAbsDiff(), r.subModels(), r.placement(),
          r.error().isEmpty() ? (r.executionDevices().isEmpty() ? "" : " [ran on " + r.executionDevices() + "]")
              : " — " + r.error());
    }
    for (String note : report.notes()) {
      out.println("  note: " + note);
    }
    out.println(
        report.passed() ? "runtime check passed (" + runs + " timed runs per target, tolerance " + tolerance + ")"
            : "runtime check FAILED");
    out.flush();
    return report.passed() ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
