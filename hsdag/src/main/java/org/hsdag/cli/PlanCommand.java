package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.hsdag.backend.BackendRequest;
import org.hsdag.tune.RunOptions;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.io.Words;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.plan.Plan;
import org.hsdag.plan.PlanCandidate;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.plan.Proxies;
import org.hsdag.tune.RunObjective;
import org.hsdag.plan.ProxyChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag plan model.xml}: the cost-model planner alone, with zero measurements. Every
 * latency it prints is the cost model's estimate and says whose model it is.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "Plan a placement on the cost model alone (min-cut / alpha-expansion + local moves), without "
        + "measuring it; tune starts from these candidates. A real backend profiles the model first and keeps the "
        + "profile for the next plan.",
    footer = {"%nExamples:",
        "  hsdag plan models/resnet50/resnet50.xml --devices CPU,GPU.1 -o plan.json",
        "  # on a calibrated cost model:",
        "  hsdag plan model.xml --devices CPU,GPU.1 --proxy-profile mybox.json"})
public final class PlanCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "MODEL.xml", description = "OpenVINO IR model (.xml; the .bin is optional), "
      + "or an ONNX, TensorFlow Lite or PaddlePaddle file (converted through OpenVINO)")
  Path model;

  /** The model as the user gave it (an ONNX file, a folder), for the commands printed to paste. */
  private Path asGiven;

  @Mixin
  DeviceOptions deviceOptions;

  @Mixin
  BackendOptions backendOptions;

  @Mixin
  InputShapeOptions inputShapeOptions;

  @Mixin
  MemoryOptions memoryOptions;
  @Mixin
  ObjectiveOptions objectiveOptions;

  @Option(names = "--proxy-profile", paramLabel = "NAME|FILE",
      description = "Plan on this simulator profile's cost model (e.g. one from 'hsdag calibrate') instead of the backend's own.")
  String proxyProfile;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE",
      description = "Write the best plan as a placement file (in the format of a run's best.json).")
  Path out;

  @Option(names = "--json", description = "Print the plan as JSON on stdout.")
  boolean json;

  @Mixin
  CostModelStoreOptions costModelStore;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    long start = System.nanoTime();
    // Wall time since the process started: the JVM's start-up is part of what the user waits for.
    double startup = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    java.util.function.Consumer<String> notices = ModelNotes.toStderr(err, json);
    asGiven = model;
    model = ModelArgument.resolve(model, notices);
    OpGraph graph = ModelArgument.read(model);
    if (out != null && java.nio.file.Files.isDirectory(out)) {
      throw new UserInputException("--out " + out + " is a directory; give a file name such as plan.json");
    }
    InputShapes.Resolution shapes = inputShapeOptions.resolve(graph);
    RunObjective objective = objectiveOptions.choice();
    BackendRequest request = backendOptions.request(SeedOptions.DEFAULT, shapes).requiring(deviceOptions.requested(),
        2);
    // As in tune: --mismatch perturbs the machine that would measure, the cost model stays --profile.
    String costModel = proxyProfile != null ? proxyProfile : request.mismatch().any() ? request.profile() : null;
    CostModelReuse reuse = costModel != null ? null : costModelStore.reuse(model, request, notices);
    try (Session session = Session.of(graph, request).objective(objective, false)
        .devices(deviceOptions, 2, "planning splits a model across devices").memory(memoryOptions)
        .proxy(costModel == null ? ProxyChoice.AUTO : new ProxyChoice.Profile(costModel), true, "").notices(notices)
        .costModelReuse(reuse).open()) {
      LatencyBackend backend = session.backend();
      Proxies.Resolved resolved = session.proxy();
      long t0 = System.nanoTime();
      Plan plan = new Planner().plan(resolved.proxy());
      PlanTiming timing = PlanTiming.of(startup, start, t0, System.nanoTime(), reuse, backend, session.graph());
      PlanChoice choice = PlanChoice.of(plan, timing.error());
      plan.notes().forEach(notices);
      if (out != null) {
        PlacementFiles.write(out, graph, choice.chosen().placement());
      }
      Map<String, Object> summary = summary(graph, resolved, plan, choice, timing);
      if (!shapes.inputs().isEmpty()) {
        summary.put("dynamic_inputs", shapes.inputs());
        summary.put("dynamic_inputs_assumed", shapes.assumed());
      }
      summary.putAll(ObjectiveSummary.planFigures(objective, resolved.proxy(), plan, choice.chosen()));
      if (!plan.notes().isEmpty()) {
        summary.put("planner_notes", plan.notes());
      }
      if (json) {
        stdout.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(summary));
      } else {
        printText(stdout, graph, resolved, plan, choice, timing, objective, MemoryOptions.capacitySource(backend));
      }
      stdout.flush();
      return ExitCodes.OK;
    }
  }

  /** Compute ops per device under a candidate (constants and I/O follow their neighbours and are not counted). */
  private static Map<String, Integer> computeOpsPerDevice(PlacementProxy proxy, PlanCandidate c) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String d : proxy.devices().names()) {
      counts.put(d, 0);
    }
    for (int dev : proxy.opDevices(c.placement())) {
      counts.merge(proxy.devices().name(dev), 1, Integer::sum);
    }
    return counts;
  }

  private static Map<String, Object> candidate(PlacementProxy proxy, PlanCandidate c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("estimate_ms", c.proxyMillis());
    m.put("sub_models", c.subModels());
    m.put("origin", c.origin());
    m.put("compute_ops_per_device", computeOpsPerDevice(proxy, c));
    proxy.memory().ifPresent(check -> m.put("memory_per_device", PlanMemory.json(check, c.placement())));
    return m;
  }

  private Map<String, Object> summary(OpGraph graph, Proxies.Resolved resolved, Plan plan, PlanChoice choice,
      PlanTiming timing) {
    PlacementProxy proxy = resolved.proxy();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("model", graph.name());
    s.put("devices", proxy.devices().names());
    s.put("estimates_from", resolved.source());
    s.put("measured", false);
    s.put("best", candidate(proxy, choice.chosen()));
    choice.note().ifPresent(n -> s.put("best_note", n));
    if (plan.bestSingleDevice() != null) {
      s.put("best_single_device", candidate(proxy, plan.bestSingleDevice()));
    }
    List<Map<String, Object>> all = new ArrayList<>();
    for (PlanCandidate c : plan.candidates()) {
      all.add(candidate(proxy, c));
    }
    s.put("candidates", all);
    s.put("cost_model_evaluations", plan.evaluations());
    s.putAll(timing.json());
    if (out != null) {
      s.put("placement_file", out.toString());
    }
    return s;
  }

  private void printText(PrintWriter o, OpGraph graph, Proxies.Resolved resolved, Plan plan, PlanChoice choice,
      PlanTiming timing, RunObjective objective, String capacities) {
    PlacementProxy proxy = resolved.proxy();
    String source = " (estimate, " + resolved.source() + ")";
    o.printf(Locale.ROOT, "plan for %s on %s, %d compute ops (%,d cost-model evaluations, no measurements)%n",
        graph.name(), String.join(",", proxy.devices().names()), proxy.model().opCount(), plan.evaluations());
    timing.lines().forEach(l -> o.println("  " + l));
    PlanCandidate single = plan.bestSingleDevice();
    PlanCandidate best = choice.chosen();
    if (single != null) {
      o.printf(Locale.ROOT, "  best single device: %-28s %8.3f ms%s%n", single.origin(), single.proxyMillis(), source);
    }
    String vs = single == null || best.equals(single) ? ""
        : String.format(Locale.ROOT, " %+.1f %%", 100 * (best.proxyMillis() / single.proxyMillis() - 1));
    o.printf(Locale.ROOT, "  plan:               %-28s %8.3f ms%s%s%n", best.origin(), best.proxyMillis(), vs, source);
    choice.note().ifPresent(n -> o.println("  " + n));
    StringBuilder ops = new StringBuilder();
    computeOpsPerDevice(proxy, best)
        .forEach((d, n) -> ops.append(ops.length() == 0 ? "" : ", ").append(d).append(' ').append(n));
    o.printf(Locale.ROOT, "  %s; compute ops: %s%n", Words.count(best.subModels(), "sub-model"), ops);
    proxy.memory().ifPresent(check -> PlanMemory.print(o, check, best.placement(), capacities));
    o.printf(Locale.ROOT, "  %d candidates, %.3f to %.3f ms%s%n", plan.candidates().size(),
        plan.candidates().get(0).proxyMillis(), plan.candidates().get(plan.candidates().size() - 1).proxyMillis(),
        source);
    ObjectiveSummary.printPlanFigures(o, objective, resolved, plan, choice.chosen());
    if (out != null) {
      o.println("-> " + out);
      o.println("next: " + CommandName.line(RunOptions.with(nextOptions("apply"), "apply", asGiven, out))
          + "    # measure it against the single devices");
    } else {
      o.println("next: add -o plan.json to save it, or "
          + CommandName.line(RunOptions.with(nextOptions("tune"), "tune", asGiven)) + " to measure and refine it");
    }
  }

  /** The options of this plan that {@code command} takes too, so the suggestion measures what was planned. */
  private List<String> nextOptions(String command) {
    // A fresh profile is this plan's: the next command reuses it.
    return CommandName.carried(spec, command, Set.of("--out", "--json", "--fresh-profile"));
  }
}
