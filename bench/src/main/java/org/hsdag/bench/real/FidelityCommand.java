package org.hsdag.bench.real;

import org.hsdag.backend.CostModelSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cli.BackendOptions;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.ModelArgument;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.plan.Proxies;
import org.hsdag.plan.ProxyUnavailableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import org.hsdag.cli.CostModelStoreOptions;

/**
 * {@code hsdag bench fidelity MODEL… --devices A,B [--proxy-profile FILE] [--out FILE | --json]}: how far the
 * planner's cost model can be trusted on this backend ({@link Fidelity}), before spending a tune on it, and where
 * it misses ({@link FidelityJson}).
 */
@Command(name = "fidelity", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"How well the planner's cost model predicts measured placements: realistic two-device placements "
        + "(both single devices, a few contiguous runs along the layer order) measured in interleaved rounds, with "
        + "Spearman's rho, median and max |error| of the prediction, the measurements' own round-to-round rho (the noise "
        + "floor) and the machine's load. --out FILE (or --json on stdout) gives every placement's prediction and "
        + "measurement as JSON.",
        "Models are IR .xml files or catalog names."})
public final class FidelityCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "MODEL", description = "IR .xml files or catalog model names")
  List<String> models = new ArrayList<>();

  @Option(names = "--devices", paramLabel = "A,B", required = true,
      description = "The two devices the placements use, e.g. CPU,GPU or CPU,CPU2 with --test-device.")
  String devices;

  @Mixin
  BackendOptions backendOptions = new BackendOptions();

  @Mixin
  InputShapeOptions inputShapeOptions = new InputShapeOptions();

  // Op records come from (and go to) the profile database; the fit to designed splits is rebuilt every run.
  @Mixin
  CostModelStoreOptions costModelStore = new CostModelStoreOptions();

  @Option(names = "--proxy-profile", paramLabel = "NAME|FILE",
      description = "Judge the cost model of this simulator profile (e.g. from 'hsdag calibrate') instead of the "
          + "backend's own.")
  String proxyProfile;

  @Option(names = "--placements", defaultValue = "30",
      description = "Placements per model that must run (failed ones are replaced). Default: ${DEFAULT-VALUE}.")
  int placements;

  @Option(names = "--rounds", defaultValue = "5", description = "Interleaved rounds. Default: ${DEFAULT-VALUE}.")
  int rounds;

  @Option(names = "--runs", defaultValue = "10",
      description = "Timed runs per measurement (after 1 warm-up; median). Default: ${DEFAULT-VALUE}.")
  int runs;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the placements. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--details", description = "Also list every placement with its prediction and measurement.")
  boolean details;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE",
      description = "Also write every placement's prediction and measurement, with each model's figures, as JSON to "
          + "FILE (must not exist yet).")
  Path outFile;

  @Option(names = "--json", description = "Print that JSON on stdout; progress and the table go to stderr.")
  boolean json;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = json ? spec.commandLine().getErr() : spec.commandLine().getOut();
    checkOutFile();
    DeviceSet pair;
    try {
      pair = DeviceSet.parse(devices);
    } catch (InvalidPlacementException e) {
      throw new UserInputException("--devices: " + e.getMessage());
    }
    if (pair.size() != 2) {
      throw new UserInputException("--devices: fidelity compares two devices (got " + pair.size() + ")");
    }
    Fidelity.Settings settings;
    try {
      settings = new Fidelity.Settings(placements, rounds, runs, seed);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
    // Each model's dynamic inputs are sized on their own (checked before any measurement), so each gets its own backend.
    List<Path> files = new ArrayList<>();
    List<OpGraph> graphs = new ArrayList<>();
    List<InputShapes.Resolution> shapes = new ArrayList<>();
    for (String name : models) {
      Path xml = ModelArgument.resolve(Path.of(name));
      OpGraph g = ModelArgument.read(xml);
      files.add(xml);
      graphs.add(g);
      shapes.add(inputShapeOptions.resolve(g));
    }
    List<Fidelity.Result> results = new ArrayList<>();
    List<FidelityJson.Model> jsonModels = new ArrayList<>();
    FidelityJson.Run run = null;
    for (int i = 0; i < models.size(); i++) {
      try (LatencyBackend backend = backendOptions.open(seed, shapes.get(i), pair.names(), 2,
          notice -> out.println("# " + notice))) {
        if (i == 0) {
          run = new FidelityJson.Run(backend.name(), backend.profile(), backend.simulated(),
              backendOptions.testDevices().stream().map(Object::toString).toList(), pair.names(), settings);
          out.printf("# Cost-model fidelity: backend %s, %s (%s)%n", backend.name(), backend.profile(),
              backend.simulated() ? "simulated" : "real hardware, not simulated");
          out.printf("# devices %s; %d placements per model, %d interleaved rounds, each '%s'; real = the fastest "
              + "round (the rounds' median in its own columns), error = predicted / real - 1; load = 1-minute load average at start and end%n",
              pair.heteroString(), placements, rounds, settings.protocol().describe());
        }
        costModelStore.useProfileDatabase(backend, notice -> out.println("# " + notice));
        FidelityJson.Model m = measure(out, backend, models.get(i), files.get(i), graphs.get(i), shapes.get(i), pair,
            settings);
        CostModelStoreOptions.databaseLine(backend, graphs.get(i)).ifPresent(l -> out.println("# " + l));
        results.add(m.result());
        jsonModels.add(m);
      }
    }
    out.println();
    Fidelity.printHeader(out);
    results.forEach(r -> Fidelity.printRow(out, r));
    if (details) {
      out.println();
      results.forEach(r -> Fidelity.printDetails(out, r));
    }
    if (outFile != null) {
      FidelityJson.write(outFile, run, jsonModels);
      out.println("wrote " + outFile);
    }
    out.flush();
    if (json) {
      PrintWriter stdout = spec.commandLine().getOut();
      stdout.print(FidelityJson.text(run, jsonModels));
      stdout.flush();
    }
    return 0;
  }

  /** A bad --out fails before an hour of measurements, and an earlier run's file is never replaced. */
  private void checkOutFile() throws IOException {
    if (outFile == null) {
      return;
    }
    if (Files.isDirectory(outFile)) {
      throw new UserInputException("--out " + outFile + " is a folder; give a file name such as fidelity.json");
    }
    if (Files.exists(outFile)) {
      throw new UserInputException("--out " + outFile + " already exists; choose another file (it is kept)");
    }
    Path folder = outFile.toAbsolutePath().getParent();
    try {
      AtomicFiles.checkWritableFolder(folder);
    } catch (IOException e) {
      throw new UserInputException("--out " + outFile + ": cannot write there (" + IoErrors.describe(e) + ")");
    }
  }

  private FidelityJson.Model measure(PrintWriter out, LatencyBackend backend, String name, Path xml, OpGraph g,
      InputShapes.Resolution shapes, DeviceSet pair, Fidelity.Settings settings) throws IOException {
    if (shapes.notice() != null) {
      out.println("# " + name + ": " + shapes.notice());
    }
    // Writes a catalog model's stand-in weights when the backend compiles the file.
    TuneBackends.bind(backend, g, xml);
    Proxies.Resolved proxy;
    try {
      proxy = Proxies.resolve(backend, g, pair, proxyProfile, shapes.shapes());
    } catch (ProxyUnavailableException | IllegalArgumentException e) {
      throw new UserInputException(name + ": " + e.getMessage());
    }
    out.printf("# %s: %s%n", name, proxy.source());
    out.flush();
    Fidelity.Result r = Fidelity.run(backend, g, name, proxy.proxy(), settings);
    out.printf(Locale.ROOT,
        "# %s: rho %.3f (noise floor %.3f), median |error| %.1f %%, max %.1f %%, %d ran, %d failed, load %.2f-%.2f%n",
        name, r.rho(), r.noiseRho(), 100 * r.medianAbsError(), 100 * r.maxAbsError(), r.rows().size(),
        r.failures().size(), r.loadStart(), r.loadEnd());
    out.flush();
    String builtFrom = proxyProfile == null ? backend.capability(CostModelSource.class)
        .flatMap(c -> c.costModelMeasurements(g)).orElse(null) : null;
    return new FidelityJson.Model(r, proxy.source(), builtFrom);
  }
}
