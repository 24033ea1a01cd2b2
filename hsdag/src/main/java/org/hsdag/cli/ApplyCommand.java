package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.Set;
import java.util.concurrent.Callable;
import org.hsdag.backend.TestDevice;
import org.hsdag.io.Words;
import org.hsdag.io.Pasteable;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.DeviceKinds;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.DeviceKind;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.search.Candidate;
import org.hsdag.search.FinalResult;
import org.hsdag.search.Finalist;
import org.hsdag.search.RemeasureListener;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.Verdict;
import org.hsdag.tune.RunObjective;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag apply model.xml best.json}: checks a placement against the model and the backend's
 * devices, times it against every single-device baseline (interleaved rounds), and prints how to
 * use it with OpenVINO.
 */
@Command(name = "apply", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class, sortOptions = false,
    description = {
        "Validate a placement (a JSON map: op friendly name -> device), time it against the "
            + "single-device baselines, and print how to use it with OpenVINO."},
    footerHeading = "%nExamples:%n",
    footer = {
        "  hsdag apply resnet50 runs/resnet50-20260101-120000/best.json",
        "  hsdag apply model.xml best.json --backend openvino --json"})
public final class ApplyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MODEL.xml", description = "OpenVINO IR model (.xml), or an ONNX, TensorFlow "
      + "Lite or PaddlePaddle file (converted through OpenVINO; the usage code reads the file given).")
  Path model;

  @Parameters(index = "1", paramLabel = "PLACEMENT.json", description = "Placement map, e.g. runs/<name>/best.json.")
  Path placementFile;

  @Mixin
  MeasuredRunOptions run;

  @Option(names = "--rounds", paramLabel = "R", defaultValue = "5",
      description = "Interleaved measurement rounds. Default: ${DEFAULT-VALUE}.")
  int rounds;

  @Mixin
  SeedOptions seedOptions;

  @Mixin
  ObjectiveOptions objectiveOptions;

  @Mixin
  MemoryOptions memoryOptions;

  @Mixin
  CompileCacheOptions compileCacheOptions = new CompileCacheOptions();

  @Option(names = "--json", description = "Print the measurement as JSON on stdout.")
  boolean json;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  /** The model's dynamic inputs as announced ({@code name=1x8}), for the usage code; empty for a static model. */
  private List<String> dynamicInputs = List.of();

  /** The model as the user gave it: the usage code reads that file (an ONNX file, not hsdag's IR of it). */
  private Path asGiven;

  /** The model as read, for the usage code's input names. */
  private OpGraph modelGraph;

  /** What the placement is used for, for the usage code's hint. */
  private RunObjective usageObjective = RunObjective.of(org.hsdag.throughput.Objective.LATENCY, 0);

  @Override
  public Integer call() throws Exception {
    OptionRules.requireAtLeast("--rounds", rounds, 1);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    java.util.function.Consumer<String> notices = ModelNotes.toStderr(err, json);
    asGiven = model;
    model = ModelArgument.resolve(model, notices);
    long seed = seedOptions.seed();
    OpGraph graph = ModelArgument.readWithPlacement(model, placementFile, "apply");
    Map<String, String> raw = PlacementFiles.readMap(placementFile);
    List<String> placed = raw.values().stream().map(DeviceSet::canonical).distinct().toList();
    RunObjective objective = ObjectiveSummary.forPlacement(objectiveOptions,
        spec.commandLine().getParseResult().hasMatchedOption("--objective"), placementFile);
    dynamicInputs = run.inputShapes.resolve(graph).inputs();
    modelGraph = graph;
    usageObjective = objective;
    try (Session session = Session.of(graph, run.backend.request(seed, run.inputShapes.resolve(graph))
        .requiring(placed, 1)).objective(objective, true).devices(b -> deviceSet(b, raw))
        .memoryBeyondDevices(memoryOptions).notices(notices)
        .decorate(compileCacheOptions::apply, UnaryOperator.identity()).open()) {
      LatencyBackend backend = session.backend();
      DeviceSet ds = session.devices();
      Placement placement;
      try {
        placement = Placement.fromNameMap(graph, ds, raw);
      } catch (InvalidPlacementException e) {
        throw new InvalidPlacementException(placementFile + ": " + e.getMessage());
      }
      MemoryCheck memory = session.memory();
      SearchEngine engine = session.searchEngine().protocol(run.protocol.protocol()).build();
      requireSupported(engine.support(), graph, placement, backend);
      requireFits(memory, placement, backend);
      requireRuns(graph, placement, backend);
      FinalResult fin = engine.remeasure(finalists(placement, ds, graph), rounds, seed, Map.of(),
          RemeasureListener.NONE);
      List<Candidate> results = fin.candidates();
      Candidate mine = results.get(0);
      RunObjective figures = objective.withFigures(backend, graph, results, mine);
      if (json) {
        Map<String, Object> m = toJson(backend, ds, placement, fin);
        int moved = movedByHetero(graph, placement);
        if (moved > 0) {
          m.put("moved_to_neighbours", moved);
          m.put("moved_note", movedNote(moved));
        }
        m.put("objective", figures);
        if (memory.limitsAny()) {
          m.put("memory_per_device", PlanMemory.json(memory, placement));
          m.put("memory_capacities", MemoryOptions.capacitySource(backend));
        }
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
      } else {
        printText(out, backend, ds, placement, fin, movedByHetero(graph, placement), figures);
        if (memory.limitsAny()) {
          PlanMemory.print(out, memory, placement, MemoryOptions.capacitySource(backend));
        }
      }
      out.flush();
      if (!mine.ok()) {
        err.println("hsdag: the placement failed to run: " + mine.reason());
        return ExitCodes.FAILURE;
      }
      return ExitCodes.OK;
    }
  }

  /** Refuses an op placed on a device that cannot run it. */
  private void requireSupported(SupportMatrix support, OpGraph graph, Placement placement, LatencyBackend backend) {
    for (int v = 0; v < graph.nodeCount(); v++) {
      if (!support.allowed(v, placement.deviceOf(v))) {
        OpNode n = graph.node(v);
        throw new InvalidPlacementException(placementFile + ": op '" + n.name() + "' (" + n.type() + ") is placed on "
            + placement.deviceName(v) + ", which cannot run it (backend " + backend.name() + "/" + backend.profile()
            + ")");
      }
    }
  }

  /** The placement, then each single device's baseline unless it is the placement itself. */
  private static List<Finalist> finalists(Placement placement, DeviceSet ds, OpGraph graph) {
    List<Finalist> finalists = new ArrayList<>(List.of(new Finalist("placement", false, placement, -1, null)));
    for (String d : ds.names()) {
      Placement single = Placement.allOn(ds, graph.nodeCount(), d);
      // A single-device placement is that baseline: timing it twice would print two figures for one thing.
      if (!single.equals(placement)) {
        finalists.add(new Finalist(Finalist.baselineLabel(d), true, single, -1, null));
      }
    }
    return finalists;
  }

  /** Said before measuring, and no usage code printed, for a split HETERO cannot run (docs/hetero-rules.md). */
  private void requireRuns(OpGraph graph, Placement placement, LatencyBackend backend) {
    // The runtime judges where it is loaded; hsdag's rules otherwise.
    org.hsdag.cost.BoundaryOracle oracle = backend.capability(org.hsdag.backend.CostModelSource.class)
        .flatMap(s -> s.runtimeBoundaryOracle(graph)).orElse(null);
    java.util.Optional<String> refused = org.hsdag.cost.HeteroRefusal.check(graph, placement.deviceOf(), oracle);
    if (refused.isPresent()) {
      throw new InvalidPlacementException(placementFile + ": the split cannot run: " + refused.get());
    }
  }

  /**
   * Refuses a placement the device capacities cannot hold: what a user expects from {@code apply} is
   * a placement that runs, and OpenVINO would fail it only after a long compile, or not at all
   * until the device runs out under load.
   */
  private void requireFits(MemoryCheck memory, Placement placement, LatencyBackend backend) {
    memory.violation(placement).ifPresent(why -> {
      throw new InvalidPlacementException(placementFile + " does not fit: " + why + " (capacities: "
          + MemoryOptions.capacitySource(backend) + "; --memory DEV=SIZE sets one)");
    });
  }

  /** The placement's devices plus the reference device, in the backend's order, unless --devices says otherwise. */
  private DeviceSet deviceSet(LatencyBackend backend, Map<String, String> raw) {
    List<String> available = backend.devices().stream().map(DeviceInfo::name).toList();
    Set<String> used = new LinkedHashSet<>(raw.values());
    for (String d : used) {
      if (!available.contains(d)) {
        throw new InvalidPlacementException(placementFile + ": device '" + d + "' is not available on backend "
            + backend.name() + "/" + backend.profile() + " (devices: " + String.join(", ", available) + ")");
      }
    }
    if (run.devices.given()) {
      DeviceSet ds = run.devices.resolve(backend, 1, "apply");
      for (String d : used) {
        if (!ds.contains(d)) {
          throw new UserInputException(
              "the placement uses " + d + ", which --devices " + run.devices.text() + " leaves out");
        }
      }
      return ds;
    }
    // The reference device joins so that the placement is timed against it (DeviceKind#reference).
    DeviceSet all = new DeviceSet(available);
    String reference = DeviceKind.reference(all, DeviceKinds.of(backend, all));
    List<String> names = new ArrayList<>();
    for (String d : available) {
      if (used.contains(d) || d.equals(reference)) {
        names.add(d);
      }
    }
    return new DeviceSet(names);
  }

  private Map<String, Object> toJson(LatencyBackend backend, DeviceSet ds, Placement p, FinalResult fin) {
    List<Candidate> results = fin.candidates();
    Candidate mine = results.get(0);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model", model.toString());
    m.put("placement_file", placementFile.toString());
    m.put("backend", backend.name());
    m.put("profile", backend.profile());
    m.put("simulated", backend.simulated());
    m.put("devices", ds.names());
    m.put("hetero", ds.heteroString());
    m.put("ok", mine.ok());
    m.put("latency_ms", nanToNull(mine.finalMs()));
    if (usageObjective.objective() == org.hsdag.throughput.Objective.THROUGHPUT && mine.ok()) {
      m.put("inferences_per_second", 1000.0 / mine.finalMs());
    }
    // Arrays.asList: one round has no interval, and List.of refuses its nulls.
    m.put("ci95_ms", mine.ok() ? Arrays.asList(nanToNull(mine.ciLowMs()), nanToNull(mine.ciHighMs())) : null);
    m.put("rounds_ms", mine.roundsMs());
    m.put("samples", mine.samples());
    // Rounds may exceed --rounds: candidates within noise of the fastest get more.
    m.put("statistic", "median of " + mine.rounds() + " rounds of " + run.protocol.protocol().describe());
    m.put("sub_models", mine.subModels());
    Map<String, Integer> ops = new LinkedHashMap<>();
    int[] counts = p.countsPerDevice();
    for (int d = 0; d < counts.length; d++) {
      ops.put(ds.name(d), counts[d]);
    }
    m.put("ops_per_device", ops);
    if (p.isSingleDevice()) {
      // The placement is one of the baselines: there is no split to decide on.
      String device = p.deviceName(0);
      m.put("decision", "single_device");
      m.put("decision_text", "every op is on " + device + ", so the placement is the " + Finalist.baselineLabel(device)
          + " baseline");
    } else {
      m.put("decision", fin.verdict().decision().name().toLowerCase(Locale.ROOT));
      m.put("decision_text", fin.verdict().text());
    }
    if (mine.reason() != null) {
      m.put("reason", mine.reason());
    }
    Map<String, Object> baselines = new LinkedHashMap<>();
    for (Candidate r : results.subList(1, results.size())) {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("latency_ms", nanToNull(r.finalMs()));
      if (r.ok() && mine.ok()) {
        b.put("speedup", round3(r.finalMs() / mine.finalMs()));
      }
      if (r.reason() != null) {
        b.put("reason", r.reason());
      }
      baselines.put(r.label(), b);
    }
    if (p.isSingleDevice()) {
      Map<String, Object> same = new LinkedHashMap<>();
      same.put("latency_ms", nanToNull(mine.finalMs()));
      same.put("same_as_placement", true);
      baselines.put(Finalist.baselineLabel(p.deviceName(0)), same);
    }
    m.put("baselines", baselines);
    return m;
  }

  private void printText(PrintWriter out, LatencyBackend backend, DeviceSet ds, Placement p, FinalResult fin, int moved,
      RunObjective objective) {
    List<Candidate> results = fin.candidates();
    Candidate mine = results.get(0);
    String nums = (backend.simulated() ? "simulated, " : "") + backend.name() + "/" + backend.profile();
    out.printf(Locale.ROOT, "%s with %s | backend %s, profile %s%s%n", model, placementFile, backend.name(),
        backend.profile(), backend.simulated() ? " | SIMULATED numbers, not hardware" : "");
    StringBuilder ops = new StringBuilder();
    int[] counts = p.countsPerDevice();
    for (int d = 0; d < counts.length; d++) {
      ops.append(d == 0 ? "" : ", ").append(ds.name(d)).append(' ').append(counts[d]).append(" ops");
    }
    out.println(
        "placement is valid: every one of " + p.size() + " ops is placed (" + ops + ") on a device that supports it");
    if (moved > 0) {
      // What was measured and what the printed code compiles must be the same split.
      out.println("note: " + movedNote(moved) + "; the code below sets the file's affinities as they are, so write the "
          + "file from a tune run (best.json) to get what was measured");
    }
    out.printf(Locale.ROOT, "%s of %s%s; latency = median of rounds (ms, %s)%n",
        Words.count(rounds, "interleaved round"), run.protocol.protocol().describe(),
        SearchEngine.racedRoundsNote(rounds), nums);
    for (Candidate r : results) {
      String interval = Double.isNaN(r.ciLowMs()) ? "(one round: no interval)"
          : String.format(Locale.ROOT, "(95%% CI %.3f – %.3f)", r.ciLowMs(), r.ciHighMs());
      String lat = r.ok() ? String.format(Locale.ROOT, "%10.3f ms  %s", r.finalMs(), interval)
          : "failed: " + r.reason();
      String vs = "";
      if (!r.equals(mine) && r.placement().equals(mine.placement())) {
        vs = "  (the same placement)";
      } else if (!r.equals(mine) && r.ok() && mine.ok()) {
        vs = r.finalMs() >= mine.finalMs()
            ? String.format(Locale.ROOT, "  -> placement is %.2fx faster", r.finalMs() / mine.finalMs())
            : String.format(Locale.ROOT, "  -> placement is %.2fx slower", mine.finalMs() / r.finalMs());
      }
      out.printf(Locale.ROOT, "  %-12s %s%s%s%n", r.label(), lat,
          r.equals(mine) && r.subModels() > 0
              ? ", " + Words.count(r.subModels(), "sub-model") : "",
          vs);
    }
    if (p.isSingleDevice()) {
      out.println("  " + Finalist.baselineLabel(p.deviceName(0)) + " is this placement (every op is on "
          + p.deviceName(0) + "), timed once");
    } else if (mine.ok()) {
      out.println("verdict: " + verdictText(fin));
    }
    String xml = model.toString();
    String json = placementFile.toString();
    String hetero = ds.heteroString();
    ObjectiveSummary.printHeader(out, objective, ds.size());
    ObjectiveSummary.printFigures(out, objective, nums);
    if (objective.objective() == org.hsdag.throughput.Objective.THROUGHPUT) {
      ApplyThroughput.print(out, results, nums);
    }
    if (mine.ok()) {
      printUsage(out, ds, xml, json, hetero);
    } else {
      out.println("no usage code: the placement did not run here, so there is nothing measured to use");
    }
  }

  /**
   * The verdict in apply's words: apply keeps nothing, it tells whether the split is worth using
   * over the fastest single device.
   */
  static String verdictText(FinalResult fin) {
    Verdict v = fin.verdict();
    Candidate best = v.winner();
    String device = best.placement().deviceName(0);
    return switch (v.decision()) {
      case SPLIT_WITHIN_NOISE -> String.format(Locale.ROOT,
          "the placement is not shown to be faster than %s (%.3f ms; the 95%% intervals overlap): %s alone does as "
              + "well with one device",
          best.label(), best.finalMs(), device);
      case SINGLE_DEVICE_FASTEST -> best.label() + " is faster than the placement: use " + device + " alone";
      default -> v.text();
    };
  }

  /** The Python usage code of this placement and objective. */
  private PythonSnippet pythonSnippet(DeviceSet ds, String xml, String json, String hetero, List<TestDevice> tests) {
    Map<String, long[]> byTensor = PythonSnippet.byTensorName(modelGraph, dynamicInputs);
    int requests = org.hsdag.throughput.ThroughputMeasuring.requestsFor(usageObjective.requested(), ds);
    // A converted model's code reads the user's file: the op names are the ones the runtime gives it.
    var source = org.hsdag.ir.ModelSource.of(model);
    boolean converted = source.isPresent() && !asGiven.equals(model);
    return new PythonSnippet(converted ? CommandName.here(source.get().path()) : xml, json, hetero, tests,
        byTensor != null ? byTensor : PythonSnippet.byFriendlyName(modelGraph, dynamicInputs), byTensor != null,
        usageObjective.objective(), requests, converted);
  }

  /** How to use the placement: pasteable Python and Java, and the shell command that measured it. */
  private void printUsage(PrintWriter out, DeviceSet ds, String xml, String json, String hetero) {
    out.println();
    out.println("Use it with OpenVINO:");
    List<TestDevice> tests = run.backend.testDevices().stream().filter(t -> ds.contains(t.name())).toList();
    out.println("  Python (any OpenVINO with HETERO; every op needs an affinity):");
    pythonSnippet(ds, xml, json, hetero, tests).lines().forEach(out::println);
    out.println("  Java (hsdag's openvino backend, where the OpenVINO runtime is installed):");
    out.println("    OpGraph graph = new IrReader().read(Path.of(" + Pasteable.java(xml) + "));");
    out.println("    Placement p = PlacementFiles.read(Path.of(" + Pasteable.java(json) + "), graph, DeviceSet.parse(\""
        + ds + "\"));");
    String options = tests.isEmpty() ? "OpenVinoOptions.DEFAULT"
        : "OpenVinoOptions.DEFAULT.withTestDevices(List.of(" + String.join(", ",
            tests.stream().map(t -> "TestDevice.parse(\"" + t + "\")").toList()) + "))";
    if (!dynamicInputs.isEmpty()) {
      options += ".withInputShapes(OpenVinoOptions.parseInputShapes(" + Pasteable.java(String.join(";",
          dynamicInputs.stream().map(i -> i.substring(0, i.lastIndexOf('=') + 1)
              + i.substring(i.lastIndexOf('=') + 1).replace("x", ",")).toList()))
          + "))";
    }
    out.println("    try (OpenVinoBackend ov = OpenVinoBackend.open(" + options + ").bind(graph, Path.of("
        + Pasteable.java(xml) + "))) {");
    out.println("      Measurement m = ov.measure(graph, p, MeasurementProtocol.PAPER);");
    out.println("    }");
    List<Object> shell = new ArrayList<>(List.of("apply", asGiven, json, "--backend", "openvino"));
    for (TestDevice t : tests) {
      shell.addAll(List.of("--test-device", t.toString()));
    }
    // The user's other options (objective, sizes, devices, rounds, ...) measure the same thing again.
    shell.addAll(
        CommandName.carried(spec, "apply", Set.of("--json", "--backend", "--test-device", "--profile", "--mismatch")));
    out.println("  or from the shell: " + CommandName.line(shell.toArray()));
  }

  private static String movedNote(int moved) {
    return moved + (moved == 1 ? " node" : " nodes") + " (constants, Parameters or Results) placed away from "
        + "their neighbours were measured on their neighbours' device, as hsdag always places them";
  }

  /** Nodes whose device {@link HeteroAffinity} changes: what the file says differs from what is measured. */
  private static int movedByHetero(OpGraph graph, Placement p) {
    int[] resolved = new HeteroAffinity(graph).resolve(p);
    int moved = 0;
    for (int v = 0; v < resolved.length; v++) {
      moved += resolved[v] != p.deviceOf(v) ? 1 : 0;
    }
    return moved;
  }

  private static Double nanToNull(double x) {
    return Double.isNaN(x) ? null : x;
  }

  private static double round3(double x) {
    return Math.round(x * 1000.0) / 1000.0;
  }
}
