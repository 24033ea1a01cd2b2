package org.hsdag.bench.real;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.backend.InputShapes;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.SplitPlacements;
import org.hsdag.plan.PlacementProxy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag bench refusals}: how often the prediction "the runtime runs / refuses this split"
 * ({@link HeteroRefusal}, docs/hetero-rules.md) agrees with the real OpenVINO runtime, judged both by the
 * runtime's own shape inference on the split's boundaries (no compile) and by hsdag's rules, on random
 * contiguous two-device placements (a few runs along the ops' topological order). Each placement is
 * handed to the runtime as hsdag hands every placement (constants and Parameters follow their
 * consumers, Results their producers) and run once.
 *
 * <pre>
 * ./hsdag.sh bench refusals MODEL... [--placements 100] [--test-device CPU2:precision=f32]
 * </pre>
 */
@Command(name = "refusals", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Check hsdag's 'HETERO refuses this split' prediction against the real runtime on random contiguous "
        + "CPU/test-device placements.")
public final class RefusalAgreement implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "MODEL", description = "IR .xml files or catalog model names")
  List<String> models = new ArrayList<>();

  @Option(names = "--placements", defaultValue = "100",
      description = "Random contiguous placements per model. Default: ${DEFAULT-VALUE}.")
  int placements;

  @Option(names = "--max-changes", defaultValue = "6",
      description = "Most device changes along the op order in one placement. Default: ${DEFAULT-VALUE}.")
  int maxChanges;

  @Option(names = "--test-device", defaultValue = "CPU2:precision=f32",
      description = "The second device: the CPU plugin registered again. Default: ${DEFAULT-VALUE}.")
  String testDevice;

  @Mixin
  InputShapeOptions inputShapeOptions = new InputShapeOptions();

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the placements. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--each", description = "Print every placement's prediction and the runtime's answer.")
  boolean each;

  @Option(names = "--dump", paramLabel = "DIR",
      description = "Write each placement's affinity map (friendly name -> device) to DIR/MODEL-I.json.")
  java.nio.file.Path dump;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    TestDevice second = TestDevice.parse(testDevice);
    DeviceSet pair = DeviceSet.of("CPU", second.name());
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withSeed(seed).withTestDevices(List.of(second));
    // Each model's dynamic inputs are sized on their own (checked before any measurement), so each gets its own backend.
    List<RealRuntimeFigures.Model> read = new ArrayList<>();
    List<InputShapes.Resolution> shapes = new ArrayList<>();
    for (String name : models) {
      RealRuntimeFigures.Model m = RealRuntimeFigures.model(name);
      read.add(m);
      shapes.add(inputShapeOptions.resolve(m.graph()));
    }
    List<String> notes = new ArrayList<>();
    for (int k = 0; k < read.size(); k++) {
      InputShapes.Resolution r = shapes.get(k);
      try (OpenVinoBackend backend = OpenVinoBackend.open(options.withInputShapes(r.sizes()), r.shapes())) {
        if (k == 0) {
          out.printf("# HETERO refusals: prediction vs real runtime (backend %s, %s; %s = %s)%n", backend.name(),
              backend.profile(), second.name(), second.describe());
          out.printf("# %d random contiguous placements per model (1-%d device changes along the op order), seed %d; "
              + "real = compile + infer request + one inference%n%n", placements, maxChanges, seed);
          out.println("| model | placements | really refused | runtime: agree | runtime: predicted refused "
              + "| runtime: missed | runtime: false | rules: agree | rules: predicted refused | rules: missed "
              + "| rules: false | sub-models equal, runtime's cuts | sub-models equal, rules | other failures |");
          out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        }
        if (r.notice() != null) {
          notes.add(read.get(k).label() + ": " + r.notice());
        }
        RealRuntimeFigures.Model m = read.get(k);
        TuneBackends.bind(backend, m.graph(), m.xml());
        row(out, backend, m, pair, notes);
      }
    }
    if (!notes.isEmpty()) {
      out.println();
      notes.forEach(n -> out.println("- " + n));
    }
    return 0;
  }

  /** One model's row: each random placement's prediction, by the runtime's shape inference and by hsdag's rules, against the runtime's answer. */
  private void row(PrintWriter out, OpenVinoBackend backend, RealRuntimeFigures.Model m, DeviceSet pair,
      List<String> notes) throws java.io.IOException {
    MeasurementProtocol once = new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0);
    PlacementProxy proxy = PlacementProxy.of(m.graph(), backend.costModel(m.graph()), pair);
    HeteroCostModel oracle = proxy.model();
    HeteroCostModel rules = oracle.withBoundaryOracle(null);
    List<int[]> ps;
    try {
      ps = SplitPlacements.generate(proxy.model().opCount(), placements, 0, maxChanges, seed);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(m.label() + ": " + e.getMessage() + " (lower --placements or --max-changes)");
    }
    Tally byOracle = new Tally();
    Tally byRules = new Tally();
    int refused = 0;
    int other = 0;
    int ran = 0;
    int countsEqual = 0;
    int oracleCountsEqual = 0;
    for (int i = 0; i < ps.size(); i++) {
      int[] ops = ps.get(i);
      Placement p = proxy.placement(ops);
      if (dump != null) {
        java.nio.file.Files.createDirectories(dump);
        java.nio.file.Files.writeString(dump.resolve(m.label() + "-" + i + ".json"),
            new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
                new org.hsdag.placement.HeteroAffinity(m.graph()).nameMap(p)));
      }
      java.util.Optional<String> oracleSays = oracle.refusalReason(m.graph(), ops);
      java.util.Optional<String> rulesSay = rules.refusalReason(m.graph(), ops);
      Measurement real = backend.measure(m.graph(), p, once);
      boolean realRefused = !real.ok() && isRefusal(real.reason());
      if (!real.ok() && !realRefused) {
        other++;
        notes.add(m.label() + " #" + i + ": other failure: " + real.reason());
      }
      refused += realRefused ? 1 : 0;
      byOracle.add(oracleSays, realRefused, real, m.label() + " #" + i + " (runtime)", notes);
      byRules.add(rulesSay, realRefused, real, m.label() + " #" + i + " (rules)", notes);
      int predictedCount = rules.subModels(ops, new int[ops.length]);
      int oracleCount = oracle.oracleSubModels(ops);
      if (real.ok()) {
        ran++;
        countsEqual += predictedCount == real.subModels() ? 1 : 0;
        oracleCountsEqual += oracleCount == real.subModels() ? 1 : 0;
      }
      if (each) {
        out.printf(Locale.ROOT, "%s #%d: %d changes, sub-models %d (rules) %d (runtime's cuts) %d real; runtime's "
            + "shape inference: %s, rules: %s, real %s%n", m.label(), i, SplitPlacements.changes(ops), predictedCount,
            oracleCount, real.subModels(), oracleSays.isPresent() ? "refused" : "ok",
            rulesSay.isPresent() ? "refused" : "ok", real.ok() ? "ok" : "failed: " + real.reason());
        out.flush();
      }
    }
    out.printf(Locale.ROOT, "| %s | %d | %d | %s | %s | %d of %d | %d of %d | %d |%n", m.label(), ps.size(), refused,
        byOracle.cells(ps.size()), byRules.cells(ps.size()), oracleCountsEqual, ran, countsEqual, ran, other);
    out.flush();
  }

  /** Agreement of one judge with the runtime's answers. */
  private static final class Tally {
    int agree;
    int predicted;
    int missed;
    int falseAlarm;

    void add(java.util.Optional<String> says, boolean realRefused, Measurement real, String label,
        List<String> notes) {
      predicted += says.isPresent() ? 1 : 0;
      if (says.isPresent() == realRefused) {
        agree++;
      } else if (realRefused) {
        missed++;
        notes.add(label + ": predicted ok, refused: " + real.reason());
      } else {
        falseAlarm++;
        notes.add(label + ": predicted refused (" + says.get() + "), ran");
      }
    }

    /** agree (%) | predicted refused | missed | false alarms. */
    String cells(int total) {
      return String.format(Locale.ROOT, "%d (%.1f %%) | %d | %d | %d", agree, 100.0 * agree / total, predicted,
          missed, falseAlarm);
    }
  }

  /** A real failure of the kind the rule predicts: HETERO's infer request refusing a boundary tensor. */
  static boolean isRefusal(String reason) {
    return reason.contains("Can't set the input tensor") || reason.contains("are incompatible");
  }
}
