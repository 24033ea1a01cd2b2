package org.hsdag.tune;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.CompileStats;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryTable;
import org.hsdag.cost.CostModel;
import org.hsdag.placement.Placement;
import org.hsdag.search.Candidate;

/**
 * {@code result.json}: the final table of a completed run (baselines and finalists with their
 * re-measured latencies, the winner and its speedups), written atomically for scripts and for
 * {@code hsdag report}.
 */
public final class RunResults {
  private RunResults() {}

  /** The result as an ordered map (the JSON form; {@code --json} prints the same). */
  public static Map<String, Object> toMap(TuneResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", r.status().label());
    m.put("stop", r.stop().name().toLowerCase(java.util.Locale.ROOT));
    m.put("stop_reason", r.stopReason());
    m.put("decision", r.decisionText());
    m.put("decision_kind", r.decision().name().toLowerCase(java.util.Locale.ROOT));
    m.put("backend", r.backend());
    m.put("profile", r.profile());
    m.put("simulated", r.simulated());
    m.put("steps", r.steps());
    m.put("measurements", r.measurements());
    m.put("cache_hits", r.cacheHits());
    m.put("failures", r.failures());
    m.put("elapsed_s", round3(r.elapsedSeconds()));
    if (r.time() != null) {
      m.put("time", r.time().json());
    }
    List<Map<String, Object>> cands = new ArrayList<>();
    for (Candidate c : r.candidates()) {
      cands.add(candidate(c));
    }
    m.put("candidates", cands);
    if (r.best() != null) {
      Map<String, Object> best = candidate(r.best());
      Candidate ref = r.referenceBaseline();
      if (ref != null && ref.ok()) {
        best.put("reference", ref.label());
        best.put("speedup_vs_reference", round3(ref.finalMs() / r.best().finalMs()));
      }
      Candidate bb = r.bestBaseline();
      if (bb != null) {
        best.put("best_single_device", bb.label());
        best.put("speedup_vs_best_single_device", round3(bb.finalMs() / r.best().finalMs()));
      }
      m.put("best", best);
    }
    return m;
  }

  static Map<String, Object> candidate(Candidate c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("label", c.label());
    m.put("baseline", c.baseline());
    if (c.step() >= 0) {
      m.put("step", c.step());
    }
    m.put("placement", c.placement().hashHex());
    m.put("ops_per_device", opsPerDevice(c.placement()));
    m.put("search_ms", nullIfNan(c.searchMs()));
    m.put("latency_ms", nullIfNan(c.finalMs()));
    m.put("ci95_low_ms", nullIfNan(c.ciLowMs()));
    m.put("ci95_high_ms", nullIfNan(c.ciHighMs()));
    m.put("rounds", c.rounds());
    m.put("samples", c.samples());
    m.put("sub_models", c.subModels());
    if (c.reason() != null) {
      m.put("reason", c.reason());
    }
    return m;
  }

  static Map<String, Integer> opsPerDevice(Placement p) {
    Map<String, Integer> m = new LinkedHashMap<>();
    int[] counts = p.countsPerDevice();
    for (int d = 0; d < counts.length; d++) {
      m.put(p.devices().name(d), counts[d]);
    }
    return m;
  }

  /**
   * Kernels per device ({@link CostModel#kernels}, as {@code plan} counts them), leaving out
   * constants, constant-folded ops, Parameters and Results (they follow their neighbours).
   */
  static Map<String, Integer> computeOpsPerDevice(OpGraph graph, Placement p) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (String d : p.devices().names()) {
      m.put(d, 0);
    }
    boolean[] kernel = CostModel.kernels(graph);
    for (int v = 0; v < p.size(); v++) {
      if (kernel[v]) {
        m.merge(p.deviceName(v), 1, Integer::sum);
      }
    }
    return m;
  }

  /** The {@code result.json} of a completed run as a JSON tree, or null when the run has none (not completed). */
  public static JsonNode read(Path runDir) throws IOException {
    Path file = runDir.resolve(Tuner.RESULT_FILE);
    return Files.isRegularFile(file) ? RunLog.JSON.readTree(Files.readAllBytes(file)) : null;
  }

  /**
   * Writes {@code result.json} atomically; with {@code memory} (null: none), the best placement's
   * memory per device under its capacities ({@code best.memory_per_device}) and where they come from;
   * with {@code compiles} (null: a backend that compiles nothing), the real backend's compile figures.
   */
  public static void write(Path file, TuneResult r, OpGraph graph, Map<String, Double> bestTimeByDevice,
      Map<String, Integer> unknownOpTypes, MemoryCheck memory, String capacitySource, CompileStats compiles)
      throws IOException {
    Map<String, Object> m = toMap(r);
    if (compiles != null) {
      m.put("compile_cache", compiles.toJson()); // the real backend's compiles, reuses and evictions
    }
    m.put("model", graph.name());
    // Op types the simulator has no formula for are costed as copies: the numbers say less about them.
    m.put("unknown_op_types", unknownOpTypes);
    if (r.best() != null) {
      @SuppressWarnings("unchecked") Map<String, Object> best = (Map<String, Object>) m.get("best");
      best.put("compute_ops_per_device", computeOpsPerDevice(graph, r.best().placement()));
      if (memory != null) {
        best.put("memory_per_device", MemoryTable.json(memory.use(r.best().placement())));
        best.put("memory_capacities", capacitySource);
      }
      if (!bestTimeByDevice.isEmpty()) {
        Map<String, Double> t = new LinkedHashMap<>();
        bestTimeByDevice.forEach((k, v) -> t.put(k, round6(v)));
        best.put("time_ms_by_device", t);
      }
    }
    AtomicFiles.writeString(file,
        RunLog.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m) + "\n");
  }

  private static Double nullIfNan(double x) {
    return Double.isNaN(x) ? null : round6(x);
  }

  private static double round3(double x) {
    return Double.isNaN(x) || Double.isInfinite(x) ? x : Math.round(x * 1000.0) / 1000.0;
  }

  private static double round6(double x) {
    return Math.round(x * 1e6) / 1e6;
  }
}
