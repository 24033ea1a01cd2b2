package org.hsdag.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.io.Pasteable;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.io.AtomicFiles;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.Decision;
import org.hsdag.strategy.Strategies;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunFailures;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunOptions;
import org.hsdag.tune.RunResults;
import org.hsdag.tune.TuneConfig;
import org.hsdag.tune.Tuner;

/**
 * Writes a run's report from its folder alone ({@code manifest.json}, {@code log.jsonl}, and
 * {@code result.json} / {@code placement.dot} when the run completed): {@code report.md}, a
 * self-contained {@code report.html}, the progress plot as {@code latency.png} and
 * {@code latency.svg}, and {@code placement.svg} when Graphviz's {@code dot} is installed.
 * Written for a reader who knows OpenVINO but not hsdag; every number names its backend and
 * profile, and simulated numbers say so.
 */
public final class ReportWriter {
  /** The reference of runs that name none (written before it was chosen by rule). */
  private static final String CPU_ONLY = "CPU-only";

  /** Written by {@code tune --cluster}: measurements per worker. */
  public static final String WORKERS_FILE = "workers.json";
  public static final String MD = "report.md";
  public static final String HTML = "report.html";
  public static final String PNG = "latency.png";
  public static final String SVG = "latency.svg";
  public static final String GRAPH_SVG = "placement.svg";

  private final Path runDir;
  private final String dotCommand;
  private final String hsdagCommand;

  /** A writer that renders the placement graph with {@code dot} from the PATH when present. */
  public ReportWriter(Path runDir) {
    this(runDir, "dot");
  }

  /** A writer using {@code dotCommand} for Graphviz (tests pass a missing command). */
  public ReportWriter(Path runDir, String dotCommand) {
    this(runDir, dotCommand, "hsdag");
  }

  /**
   * A writer whose printed commands start with {@code hsdagCommand}, the way this user runs hsdag
   * (e.g. {@code ./hsdag.sh}), so they can be pasted.
   */
  public ReportWriter(Path runDir, String dotCommand, String hsdagCommand) {
    this.hsdagCommand = hsdagCommand;
    this.runDir = runDir;
    this.dotCommand = dotCommand;
  }

  /**
   * What was written.
   *
   * @param files the files written, report.md first
   * @param graphRendered whether placement.svg was rendered
   * @param graphNote what happened to the placement graph, one line
   */
  public record Written(List<Path> files, boolean graphRendered, String graphNote) {
    public Written {
      files = List.copyOf(files);
    }
  }

  /** Reads the run folder and writes the report's files into it. */
  public Written write() throws IOException {
    RunManifest mf = manifest();
    SearchLog search = SearchLog.of(RunLog.read(runDir.resolve(Tuner.LOG_FILE)));
    JsonNode result = RunResults.read(runDir);
    String nums = numbersLabel(mf);
    LatencyChart.Data data = chartData(mf, search, result);
    byte[] png = LatencyChart.png(data);
    AtomicFiles.writeBytes(runDir.resolve(PNG), png);
    AtomicFiles.writeBytes(runDir.resolve(SVG), LatencyChart.svg(data));

    ReportDoc doc = new ReportDoc("Placement tuning report: " + modelLabel(mf));
    introduction(doc, mf, result);
    doc.heading(2, "Result");
    PlacementGraph graph = PlacementGraph.render(runDir, dotCommand);
    RunFailures failures = RunFailures.read(runDir);
    resultSection(doc, result, search.status(), nums, failures.noSplitRan());
    FailureSection.add(doc, failures);
    ObjectiveSection.add(doc, runDir, mf.config().devices().size(), nums);
    if (result != null) {
      finalTable(doc, mf, result, nums, runDir);
    }
    progressSection(doc, search, data.finalBestMs(), png);
    NotesSection.add(doc, runDir);
    if (result != null && result.has("best")) {
      workByDevice(doc, mf, result.get("best"), nums);
      MemorySection.add(doc, result.get("best"));
    }
    graph.section(doc);
    usageSection(doc, mf);
    runDetails(doc, mf, result, search, ClusterWorkersNote.read(runDir.resolve(WORKERS_FILE)));
    filesSection(doc);

    AtomicFiles.writeString(runDir.resolve(MD), doc.toMarkdown());
    AtomicFiles.writeString(runDir.resolve(HTML), doc.toHtml());
    List<Path> files = new ArrayList<>(
        List.of(runDir.resolve(MD), runDir.resolve(HTML), runDir.resolve(PNG), runDir.resolve(SVG)));
    if (graph.rendered()) {
      files.add(runDir.resolve(GRAPH_SVG));
    }
    return new Written(files, graph.rendered(), graph.note());
  }

  private RunManifest manifest() throws IOException {
    try {
      return RunManifest.read(runDir);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(runDir.resolve(RunManifest.FILE).toString(), null,
          "not a run folder (no manifest.json)");
    }
  }

  /** What the log says about the search: its measured series, first baselines, sessions and counts. */
  private record SearchLog(List<Double> steps, List<Double> latencies, Map<String, Double> firstBaselines, int sessions,
      String status, int searchSteps, int measured, int failed, int cached) {
    static SearchLog of(RunLog.Contents log) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      Map<String, Double> firstBaselines = new LinkedHashMap<>();
      int sessions = 0;
      String lastStatus = null;
      int searchSteps = 0;
      int measured = 0;
      int failed = 0;
      int cached = 0;
      for (LogRecord r : log.records()) {
        if (LogRecord.HEADER.equals(r.type())) {
          sessions++;
          lastStatus = null;
        } else if (LogRecord.FOOTER.equals(r.type())) {
          lastStatus = r.status();
        } else if (r.hasMeasurement() && LogRecord.PHASE_SEARCH.equals(r.phase())) {
          searchSteps++;
          if (Boolean.TRUE.equals(r.cached())) {
            cached++;
          } else {
            measured++;
            if (r.succeeded()) {
              xs.add((double) r.step());
              ys.add(r.latencyMs());
            } else {
              failed++;
            }
          }
        } else if (r.hasMeasurement() && LogRecord.PHASE_BASELINE.equals(r.phase()) && r.succeeded()) {
          firstBaselines.putIfAbsent(r.candidate(), r.latencyMs());
        }
      }
      String status = lastStatus == null ? "killed (no footer: the process ended without finishing the log)"
          : lastStatus;
      return new SearchLog(List.copyOf(xs), List.copyOf(ys), firstBaselines, sessions, status, searchSteps, measured,
          failed, cached);
    }
  }

  /** The progress plot: the log's series, the final baselines (the log's first ones while the run is incomplete). */
  private static LatencyChart.Data chartData(RunManifest mf, SearchLog search, JsonNode result) {
    Map<String, Double> chartBaselines = new LinkedHashMap<>(search.firstBaselines());
    double finalBest = Double.NaN;
    if (result != null) {
      chartBaselines.clear();
      for (JsonNode c : result.path("candidates")) {
        if (c.path("baseline").asBoolean() && c.hasNonNull("latency_ms")) {
          chartBaselines.put(c.path("label").asText(), c.path("latency_ms").asDouble());
        }
      }
      if (result.path("best").hasNonNull("latency_ms")) {
        finalBest = result.path("best").path("latency_ms").asDouble();
      }
    }
    // The axis keeps its unit; where the numbers come from goes in the title, short enough to fit the chart.
    return new LatencyChart.Data(search.steps(), search.latencies(), chartBaselines, finalBest, "latency (ms)",
        "Search progress: " + modelLabel(mf) + " (" + chartProvenance(mf) + ")");
  }

  /**
   * Backend and profile in a few words: {@code simulated, sim/paper}, or for a real runtime the
   * profile's runtime and device names without their full names ({@code openvino: OpenVINO 2026.4.1 on
   * CPU, CPU2}), which the report's text gives in full.
   */
  static String chartProvenance(RunManifest mf) {
    if (mf.simulated()) {
      return "simulated, " + mf.backend() + "/" + mf.profile();
    }
    String profile = mf.profile();
    int on = profile.indexOf(" on ");
    String runtime = on > 0 ? profile.substring(0, on) : profile;
    List<String> names = mf.deviceInfos().stream().map(DeviceInfo::name).toList();
    return mf.backend() + ": " + runtime + (names.isEmpty() ? "" : " on " + String.join(", ", names));
  }

  private void introduction(ReportDoc doc, RunManifest mf, JsonNode result) {
    String devicesText = String.join(", ", mf.config().devices().names());
    doc.para("hsdag measured different ways of splitting the operations of **" + modelLabel(mf) + "** across "
        + devicesText + " (an OpenVINO HETERO placement: every operation runs on one device, and tensors that "
        + "cross devices are copied) and kept the fastest.");
    if (mf.simulated()) {
      doc.para("**All latencies in this report are simulated** by the `" + mf.backend() + "` backend with profile `"
          + mf.profile() + "`, a model of that machine; they are not hardware measurements. Check a placement on "
          + "real hardware with `" + Pasteable.shell(hsdagCommand) + " apply --backend openvino`.");
    } else {
      doc.para(
          "Latencies were measured on this machine with the `" + mf.backend() + "` backend (" + mf.profile() + ").");
    }

    if (result != null && result.path("unknown_op_types").size() > 0) {
      List<String> unknown = new ArrayList<>();
      result.get("unknown_op_types").fields()
          .forEachRemaining(e -> unknown.add(e.getKey() + " (" + e.getValue().asInt() + ")"));
      doc.para("The simulator has no cost formula for these op types and costed them as memory copies, so its numbers "
          + "say less about where they should run: " + String.join(", ", unknown) + ".");
    }
  }

  private void resultSection(ReportDoc doc, JsonNode result, String status, String nums, boolean noSplitRan) {
    if (result != null && result.has("best")) {
      JsonNode best = result.get("best");
      String bestLabel = best.path("label").asText();
      StringBuilder sb = new StringBuilder();
      if (best.path("baseline").asBoolean()) {
        sb.append(noSplitRan
            ? "No split placement ran (every split proposed failed or was turned down before running, below): the best is **"
            : "No split placement was clearly faster than the fastest single device: the best is **")
            .append(bestLabel)
            .append("** at **").append(ms(best.path("latency_ms").asDouble())).append(" ms** (").append(nums)
            .append("). `best.json` places every operation on that device.");
        String decision = result.path("decision").asText("");
        if (!decision.isEmpty() && !result.path("decision_kind").asText("").equals(
            Decision.SINGLE_DEVICE_FASTEST.name().toLowerCase(java.util.Locale.ROOT))) {
          sb.append(" (").append(decision).append(".)");
        }
      } else {
        sb.append("Best placement: **").append(bestLabel).append("** of the search, **")
            .append(ms(best.path("latency_ms").asDouble())).append(" ms** (").append(nums).append(")");
        // Runs written before the reference was chosen by rule name no reference: theirs was CPU-only.
        String speedupKey = best.has("speedup_vs_reference") ? "speedup_vs_reference" : "speedup_vs_cpu_only";
        if (best.has(speedupKey)) {
          sb.append(", **").append(x(best.path(speedupKey).asDouble())).append("** the speed of ")
              .append(best.path("reference").asText(CPU_ONLY));
        }
        if (best.has("speedup_vs_best_single_device")) {
          sb.append(" and ").append(x(best.path("speedup_vs_best_single_device").asDouble())).append(" that of ")
              .append(best.path("best_single_device").asText()).append(" (the fastest single device)");
        }
        sb.append(". It is saved in `best.json`.");
      }
      doc.para(sb.toString());
    } else {
      doc.para(
          "The run has not completed (status: **" + status + "**), so there is no final result yet. Continue it with "
              + "`" + Pasteable.shellLine(hsdagCommand, "tune", "--resume", "--out", runDir)
              + "`; the figures below show the search so far.");
    }
  }

  private static void finalTable(ReportDoc doc, RunManifest mf, JsonNode result, String nums, Path runDir)
      throws IOException {
    doc.heading(2, "Baselines and best candidates (final re-measurement)");
    int rounds = mf.config().finalRounds();
    doc.para("At the end of the search the " + mf.config().topK()
        + " best placements found (chosen in turn by their search "
        + "measurement, by the cost model when the run had one, and by how often the search proposed them, so that one "
        + "unlucky measurement cannot keep a placement out) "
        + "and every single-device baseline were measured again, " + rounds + " rounds each"
        + SearchEngine.racedRoundsNote(rounds) + org.hsdag.search.FinalResult.earlyExitNote(rounds)
        + ", in an interleaved (shuffled) order so that drift affects all alike. *latency* is the median of the rounds, "
        + "each round timed with protocol `" + mf.config().protocol().describe() + "`; the interval is the 95% "
        + "confidence interval of that median. *search* is the first, single measurement during the search. Units: milliseconds, "
        + nums + ".");
    double cpu = Double.NaN;
    String reference = result.path("best").path("reference").asText(CPU_ONLY);
    for (JsonNode c : result.path("candidates")) {
      if (c.path("label").asText().equals(reference) && c.hasNonNull("latency_ms")) {
        cpu = c.path("latency_ms").asDouble();
      }
    }
    // Under throughput each ms figure is 1000 / inferences per second: the table gives both.
    boolean tput = RunObjective.read(runDir).objective() == Objective.THROUGHPUT;
    List<String> header = new ArrayList<>(List.of("candidate", "all ops per device", "sub-models", tput
        ? "inferences/s" : "latency ms", tput ? "ms per inference" : "95% CI ms", "search ms",
        "speedup vs " + reference));
    List<List<String>> rows = new ArrayList<>();
    String bestLabel = result.path("best").path("label").asText("");
    for (JsonNode c : result.path("candidates")) {
      String label = c.path("label").asText();
      boolean isBest = label.equals(bestLabel);
      double lat = c.path("latency_ms").asDouble(Double.NaN);
      rows.add(List.of(
          (isBest ? "**" + label + "** (best)" : label),
          opsText(c.path("ops_per_device")),
          c.path("sub_models").asInt() == 0 ? "?" : String.valueOf(c.path("sub_models").asInt()),
          !c.hasNonNull("latency_ms") ? "failed: " + c.path("reason").asText("") : tput ? ms(1000 / lat) : ms(lat),
          tput ? ms(lat) : c.hasNonNull("ci95_low_ms")
              ? ms(c.path("ci95_low_ms").asDouble()) + " – " + ms(c.path("ci95_high_ms").asDouble()) : "",
          c.hasNonNull("search_ms") ? ms(c.path("search_ms").asDouble()) : "",
          Double.isNaN(cpu) || Double.isNaN(lat) ? "" : x(cpu / lat)));
    }
    doc.table(header, rows);
  }

  private static void progressSection(ReportDoc doc, SearchLog search, double finalBest, byte[] png) {
    doc.heading(2, "Search progress");
    doc.para("Each grey dot is one placement the search measured (step on the x axis, its latency on the y axis); "
        + "the blue step line is the best found so far; dashed lines are the single-device baselines"
        + (Double.isNaN(finalBest) ? "" : ", and the black line is the winner's final re-measured latency")
        + ". Lower is better; values above " + LatencyChart.RANGE_FACTOR + "x the lowest are left above the plot and "
        + "counted in the legend. " + search.searchSteps() + " search steps: " + search.measured() + " measured, "
        + search.cached()
        + " answered from the cache (a placement proposed again is not measured again), " + search.failed()
        + " failed.");
    doc.image("latency per measurement and best so far", PNG, "image/png", png);
    doc.para("Vector version: `" + SVG + "`.");
  }

  private static void workByDevice(ReportDoc doc, RunManifest mf, JsonNode best, String nums) {
    doc.heading(2, "Where the work runs (best placement)");
    JsonNode ops = best.has("compute_ops_per_device") ? best.get("compute_ops_per_device")
        : best.path("ops_per_device");
    JsonNode times = best.path("time_ms_by_device");
    int totalOps = 0;
    for (JsonNode n : ops) {
      totalOps += n.asInt();
    }
    double totalTime = 0;
    for (JsonNode t : times) {
      totalTime += t.asDouble();
    }
    List<List<String>> rows = new ArrayList<>();
    for (Iterator<String> it = ops.fieldNames(); it.hasNext();) {
      String dev = it.next();
      int n = ops.path(dev).asInt();
      List<String> row = new ArrayList<>(List.of(dev, String.valueOf(n), pct(n, totalOps)));
      if (totalTime > 0) {
        double t = times.path(dev).asDouble(0);
        row.add(ms(t));
        row.add(pct(t, totalTime));
      }
      rows.add(row);
    }
    boolean compute = best.has("compute_ops_per_device");
    List<String> header = new ArrayList<>(compute ? List.of("device", "compute ops", "share of compute ops")
        : List.of("device", "all ops", "share of ops"));
    if (totalTime > 0) {
      header.add("kernel time ms");
      header.add("share of kernel time");
    }
    doc.table(header, rows);
    doc.para((compute
        ? "Compute ops: " + totalOps + " of the model's " + mf.nodes() + " operations; the table above counts "
            + "all of them, while constants, inputs and outputs go with their neighbours here. "
        : "")
        + (totalTime > 0 ? "Kernel time is the " + nums + " stand-alone time of the operations on each device in one "
            + "inference; it leaves out fusion, copies between devices and per-sub-model overheads, so it does not add "
            + "up to the latency."
            : "The `" + mf.backend() + "` backend does not report time per device, so "
                + "only the share of operations is shown."));
  }

  private void usageSection(ReportDoc doc, RunManifest mf) {
    doc.heading(2, "How to use the placement");
    doc.para(
        "`best.json` maps every operation's friendly name to a device. To check it on a machine with these devices "
            + "(the command also prints a Python snippet that sets each op's `affinity` and compiles on HETERO):");
    List<String> options = new ArrayList<>(List.of("--backend", "openvino"));
    options.addAll(RunOptions.testDevices(mf));
    options.addAll(RunOptions.inputSizes(mf));
    doc.code(Pasteable.shellLine(
        RunOptions.with(options, hsdagCommand, "apply", mf.givenModelPath(), runDir.resolve(Tuner.BEST_FILE))));
  }

  private static void runDetails(ReportDoc doc, RunManifest mf, JsonNode result, SearchLog search, String workers) {
    doc.heading(2, "Run details");
    List<String> details = new ArrayList<>();
    details.add("Model: `" + mf.modelPath() + "` (" + modelLabel(mf) + ", " + mf.nodes() + " operations, " + mf.edges()
        + " edges), SHA-256 `" + mf.modelSha256().substring(0, Math.min(16, mf.modelSha256().length())) + "…`"
        + (mf.source() == null ? "" : ", converted from `" + mf.source().path() + "` (" + mf.source().format()
            + ", SHA-256 `" + mf.source().sha256().substring(0, 16) + "…`) by OpenVINO " + mf.source().runtime()));
    for (DeviceInfo d : mf.deviceInfos()) {
      details.add("Device `" + d.name() + "`: " + d.fullName() + (mf.simulated() ? " (simulated)" : ""));
    }
    details.add("Backend `" + mf.backend() + "`, profile `" + mf.profile() + "`"
        + (mf.simulated() ? ", simulated numbers" : ""));
    if (!mf.dynamicInputs().isEmpty()) {
      details.add("Dynamic inputs " + (mf.inputShapeAssumed() ? "assumed as `" : "measured as `")
          + String.join(", ", mf.dynamicInputs()) + "`"
          + (mf.inputShapeAssumed() ? " (hsdag's default; set `--input-shape`)" : ""));
    }
    TuneConfig c = mf.config();
    List<String> settings = Strategies.differences(c.strategy(), c.strategyConfig());
    details.add("Strategy `" + c.strategy() + "`" + (settings.isEmpty() ? "" : " with " + String.join(", ", settings))
        + ", seed " + c.seed() + ", budget " + c.budget() + " measurements"
        + (c.timeLimitSeconds() > 0 ? ", time limit " + c.timeLimitSeconds() + " s" : ""));
    details.add("Measurement protocol `" + c.protocol().describe() + "` (warm-up runs + timed runs, statistic)");
    details.add(
        "Status: " + search.status() + (result != null ? " (" + result.path("stop_reason").asText() + ")" : "") + "; "
            + search.sessions()
            + (search.sessions() == 1 ? " session" : " sessions (resumed " + (search.sessions() - 1) + "×)")
            + (result != null
                ? ", " + String.format(Locale.ROOT, "%.1f", result.path("elapsed_s").asDouble()) + " s in total" : ""));
    details.add("Started " + mf.created() + " on host `" + mf.host() + "`, hsdag " + mf.hsdagVersion() + ", Java "
        + mf.javaVersion() + ", " + mf.os());
    if (workers != null) {
      details.add(workers);
    }
    doc.bullets(details);
  }

  private static void filesSection(ReportDoc doc) {
    doc.heading(2, "Files in this folder");
    doc.bullets(List.of(
        "`manifest.json`: the run's full configuration, seed, versions, backend and model hash",
        "`log.jsonl`: one JSON line per measurement (step, placement hash and assignment, samples, statistic, status), "
            + "plus a header per session and a footer when a session ends",
        "`checkpoint/`: the search state for `--resume`",
        "`best.json`: the winning placement (op friendly name → device)",
        "`result.json`: the final table for scripts",
        "`placement.dot`: the winning placement as a Graphviz graph",
        "`workers.json` (runs with `--cluster`): how many measurements each worker made",
        "`report.md`, `report.html`, `latency.png`, `latency.svg`: this report"));
  }

  static String numbersLabel(RunManifest mf) {
    return (mf.simulated() ? "simulated, " : "") + mf.backend() + "/" + mf.profile();
  }

  private static String modelLabel(RunManifest mf) {
    if (mf.modelName() != null && !mf.modelName().isBlank()) {
      return mf.modelName();
    }
    String f = Path.of(mf.modelPath()).getFileName().toString();
    return f.endsWith(".xml") ? f.substring(0, f.length() - 4) : f;
  }

  private static String opsText(JsonNode ops) {
    List<String> parts = new ArrayList<>();
    for (Iterator<String> it = ops.fieldNames(); it.hasNext();) {
      String d = it.next();
      parts.add(d + " " + ops.path(d).asInt());
    }
    return String.join(", ", parts);
  }

  static String ms(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.3f", v); // as the terminal prints it, so the two can be compared
  }

  static String x(double v) {
    return String.format(Locale.ROOT, "%.2f×", v);
  }

  private static String pct(double part, double total) {
    return total <= 0 ? "–" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / total);
  }
}
