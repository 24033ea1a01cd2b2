package org.hsdag.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.hsdag.backend.Backends;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.bench.report.BenchReport;
import org.hsdag.bench.report.BenchResults;
import org.hsdag.bench.run.BenchRunner;
import org.hsdag.cli.ExitCodes;
import org.hsdag.cli.UserInputException;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.strategy.Strategies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag bench}: every method on every model at an equal measurement budget and several
 * seeds, on one backend and profile, written as the HSDAG paper's Table 2 / Table 3 layouts with
 * the paper's own numbers beside ours, best-so-far plots, Markdown, HTML and JSON.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Compare placement methods (paper Tables 2 and 3) at equal measurement budgets.",
        "Models are IR .xml files or catalog names (default: resnet50, inception_v3, bert_base)."})
public final class BenchCommand implements Callable<Integer> {
  @Parameters(arity = "0..*", paramLabel = "MODEL", description = "IR .xml files or catalog model names")
  List<String> models = new ArrayList<>();

  @Option(names = "--methods", split = ",", paramLabel = "NAME",
      description = "Methods to run, or 'all' (default), 'baselines', 'ablations'. Known: ${COMPLETION-CANDIDATES}",
      completionCandidates = MethodNames.class)
  List<String> methods = new ArrayList<>(List.of("all"));

  @Option(names = "--budget", defaultValue = "500", description = "Measurements per run (default: ${DEFAULT-VALUE})")
  int budget;

  @Option(names = "--seeds", defaultValue = "3", description = "Runs per method and model (default: ${DEFAULT-VALUE})")
  int seeds;

  @Option(names = "--seed", defaultValue = "1", description = "Master seed the run seeds are drawn from (default: ${DEFAULT-VALUE})")
  long masterSeed;

  @Option(names = "--backend", defaultValue = "sim", description = "sim, openvino or auto (default: ${DEFAULT-VALUE})")
  String backendName;

  @Option(names = "--profile", defaultValue = Backends.DEFAULT_PROFILE, description = "Simulator profile name or JSON (default: ${DEFAULT-VALUE})")
  String profile;

  @Option(names = "--devices", description = "Devices to place on, e.g. CPU,GPU.1 (default: every device of the backend)")
  String devices;

  @Option(names = "--reference-factor", defaultValue = "10",
      description = "Budget multiple of the best-known BRKGA reference run per model; 0 skips it (default: ${DEFAULT-VALUE})")
  int referenceFactor;

  @Option(names = {"--final-rounds", "--final-repeats"}, defaultValue = "3",
      description = "Re-measure each run's best placement in this many rounds; its latency is their median (default: ${DEFAULT-VALUE})")
  int finalRounds;

  @Option(names = "--out", defaultValue = "runs/bench", description = "Output folder (default: ${DEFAULT-VALUE})")
  Path out;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** Completion candidates for {@code --methods}. */
  static final class MethodNames extends ArrayList<String> {
    MethodNames() {
      super(Strategies.all().stream().map(Strategies.Entry::name).toList());
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (budget < 1 || seeds < 1 || referenceFactor < 0 || finalRounds < 1) {
      throw new UserInputException("Expected --budget >= 1, --seeds >= 1, --reference-factor >= 0, --final-rounds >= 1");
    }
    List<String> methodNames = resolveMethods(methods);
    List<BenchRunner.NamedGraph> graphs = loadModels(models);
    try (LatencyBackend backend = openBackend(err)) {
      DeviceSet ds = devices == null ? new DeviceSet(backend.devices().stream().map(d -> d.name()).toList()) : DeviceSet.parse(devices);
      SplittableRandom master = new SplittableRandom(masterSeed);
      List<Long> seedList = new ArrayList<>();
      for (int i = 0; i < seeds; i++) {
        seedList.add(master.nextLong() & Long.MAX_VALUE);
      }
      String label = backend.simulated() ? "SIMULATED" : "measured on hardware";
      o.printf("bench: %d methods x %d models x %d seeds, budget %d, devices %s, backend %s, profile %s (%s)%n", methodNames.size(),
          graphs.size(), seeds, budget, ds, backend.name(), backend.profile(), label);
      o.flush();
      BenchRunner.Plan plan = new BenchRunner.Plan(methodNames, budget, seedList, ds, MeasurementProtocol.PAPER, finalRounds, referenceFactor);
      BenchResults results = new BenchRunner(backend, line -> {
        o.println(line);
        o.flush();
      }).run(plan, graphs);
      Files.createDirectories(out);
      List<Path> written = new BenchReport(results).writeAll(out);
      for (Path p : written) {
        o.println("wrote " + p);
      }
      o.printf("all numbers: backend %s, profile %s (%s)%n", backend.name(), backend.profile(), label);
    }
    return ExitCodes.OK;
  }

  private LatencyBackend openBackend(PrintWriter err) {
    try {
      return Backends.open(backendName, profile, org.hsdag.sim.SimOptions.DEFAULT, notice -> {
        err.println("hsdag: " + notice);
        err.flush();
      });
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
  }

  static List<String> resolveMethods(List<String> requested) {
    List<String> out = new ArrayList<>();
    for (String r : requested) {
      String n = r.trim().toLowerCase(Locale.ROOT);
      List<String> add = switch (n) {
        case "all" -> tableOrder();
        case "baselines" -> names(Strategies.Family.BASELINE);
        case "ablations" -> names(Strategies.Family.HSDAG, Strategies.Family.ABLATION);
        default -> List.of(Strategies.get(n).name());
      };
      for (String a : add) {
        if (!out.contains(a)) {
          out.add(a);
        }
      }
    }
    // CPU-only is the speedup reference of both tables.
    if (!out.contains("cpu")) {
      out.add(0, "cpu");
    }
    // Table order.
    List<String> ordered = new ArrayList<>(tableOrder());
    ordered.retainAll(out);
    return ordered;
  }

  private static List<String> tableOrder() {
    return Strategies.all().stream().map(Strategies.Entry::name).toList();
  }

  private static List<String> names(Strategies.Family... families) {
    List<Strategies.Family> f = List.of(families);
    return Strategies.all().stream().filter(e -> f.contains(e.family())).map(Strategies.Entry::name).toList();
  }

  static List<BenchRunner.NamedGraph> loadModels(List<String> args) throws java.io.IOException {
    List<String> names = args.isEmpty() ? List.of("resnet50", "inception_v3", "bert_base") : args;
    List<BenchRunner.NamedGraph> out = new ArrayList<>();
    for (String a : names) {
      if (ModelCatalog.names().contains(a)) {
        out.add(new BenchRunner.NamedGraph(a, ModelCatalog.get(a).build().graph()));
      } else {
        Path p = Path.of(a);
        if (!Files.isRegularFile(p)) {
          throw new UserInputException("model '" + a + "' is neither a file nor a catalog model (" + String.join(", ", ModelCatalog.names()) + ")");
        }
        OpGraph g = new IrReader().read(p);
        String base = p.getFileName().toString().replaceFirst("\\.xml$", "");
        out.add(new BenchRunner.NamedGraph(base, g));
      }
    }
    return out;
  }
}
