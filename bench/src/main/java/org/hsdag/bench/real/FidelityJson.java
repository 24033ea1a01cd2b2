package org.hsdag.bench.real;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.JsonFiles;

/**
 * The JSON of {@code bench fidelity --json} / {@code --out FILE}: the run's backend and settings, and per model
 * its summary (the table's figures) and every placement, measured or failed, with its prediction and
 * measurement, so a user can see where the cost model misses. Errors are fractions (predicted / real - 1);
 * a figure that does not exist (a failed placement's real time, an unknown load) is null.
 */
public final class FidelityJson {
  /**
   * What the run measured on.
   *
   * @param backend the backend's name
   * @param profile its profile (a real backend's: the runtime and devices)
   * @param simulated whether the figures come from the simulator
   * @param testDevices the {@code --test-device} descriptions (empty when none)
   * @param devices the two devices the placements use
   * @param settings placements, rounds, runs and seed
   */
  public record Run(String backend, String profile, boolean simulated, List<String> testDevices, List<String> devices,
      Fidelity.Settings settings) {
    public Run {
      testDevices = List.copyOf(testDevices);
      devices = List.copyOf(devices);
    }
  }

  /**
   * One model's figures and the cost model they judge.
   *
   * @param result the figures
   * @param costModel where the cost model came from (the backend's own or a profile)
   * @param builtFrom the measurements the backend built it from (its kernel times, designed splits and fitted costs,
   *     as JSON text), so a user can see what the fit saw; null when it was not measured (the simulator, a profile)
   */
  public record Model(Fidelity.Result result, String costModel, String builtFrom) {
    public Model(Fidelity.Result result, String costModel) {
      this(result, costModel, null);
    }
  }

  private FidelityJson() {}

  /** The document of {@code run} over {@code models}. */
  public static Map<String, Object> document(Run run, List<Model> models) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("backend", run.backend());
    doc.put("profile", run.profile());
    doc.put("simulated", run.simulated());
    doc.put("test_devices", run.testDevices());
    doc.put("devices", run.devices());
    Fidelity.Settings s = run.settings();
    doc.put("settings", map("placements", s.placements(), "rounds", s.rounds(), "runs", s.runs(), "seed", s.seed(),
        "protocol", s.protocol().describe()));
    doc.put("definitions", map("real_ms", "the fastest round (other processes only add time)", "error",
        "predicted_ms / real_ms - 1", "error_vs_median", "predicted_ms / median_ms - 1, median_ms the rounds' median",
        "noise_floor_rho", "mean Spearman rho between consecutive rounds", "load", "1-minute load average"));
    List<Object> out = new ArrayList<>();
    for (Model m : models) {
      out.add(model(m));
    }
    doc.put("models", out);
    return doc;
  }

  /** {@link #document} as indented JSON text. */
  public static String text(Run run, List<Model> models) throws JsonProcessingException {
    return JsonFiles.mapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document(run, models))
        + System.lineSeparator();
  }

  /** Writes {@link #text} to {@code file} atomically (a crash leaves no half-written file). */
  public static void write(Path file, Run run, List<Model> models) throws IOException {
    byte[] bytes = text(run, models).getBytes(StandardCharsets.UTF_8);
    AtomicFiles.writeBytes(file, bytes);
  }

  private static Map<String, Object> model(Model m) {
    Fidelity.Result r = m.result();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("model", r.model());
    out.put("cost_model", m.costModel());
    out.put("load_start", finite(r.loadStart()));
    out.put("load_end", finite(r.loadEnd()));
    out.put("summary", map("rho", finite(r.rho()), "noise_floor_rho", finite(r.noiseRho()), "median_abs_error",
        finite(r.medianAbsError()), "max_abs_error", finite(r.maxAbsError()), "median_error",
        finite(r.medianError()), "median_abs_error_vs_median", finite(r.medianAbsErrorVsMedian()),
        "max_abs_error_vs_median", finite(r.maxAbsErrorVsMedian()), "ran", r.rows().size(), "failed",
        r.failures().size()));
    List<Map<String, Object>> placements = new ArrayList<>();
    for (Fidelity.Row row : r.rows()) {
      Map<String, Object> p = placement(row.placement());
      p.put("sub_models", row.subModels());
      p.put("predicted_ms", finite(row.predictedMillis()));
      p.put("real_ms", finite(row.realMillis()));
      p.put("median_ms", finite(row.real().median()));
      p.put("rounds_ms", row.roundsMillis());
      p.put("error", finite(row.error()));
      p.put("error_vs_median", finite(row.errorVsMedian()));
      p.put("round_failures", row.roundFailures());
      p.put("failure", null);
      placements.add(p);
    }
    for (Fidelity.Failure f : r.failures()) {
      Map<String, Object> p = placement(f.placement());
      p.put("predicted_ms", finite(f.predictedMillis()));
      p.put("real_ms", null);
      p.put("median_ms", null);
      p.put("rounds_ms", List.of());
      p.put("error", null);
      p.put("error_vs_median", null);
      p.put("failure", f.reason());
      placements.add(p);
    }
    placements.sort(java.util.Comparator.comparingInt(p -> (Integer) p.get("id")));
    out.put("placements", placements);
    out.put("cost_model_measurements", m.builtFrom() == null ? null : tree(m.builtFrom()));
    return out;
  }

  private static Object tree(String json) {
    try {
      return JsonFiles.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the backend's cost-model measurements are not JSON", e);
    }
  }

  private static Map<String, Object> placement(FidelityPlacement p) {
    List<Map<String, Object>> cuts = new ArrayList<>();
    for (FidelityPlacement.Cut c : p.cuts()) {
      cuts.add(map("at", c.at(), "op", c.op(), "device", c.device()));
    }
    return map("id", p.id(), "description", p.label(), "start_device", p.startDevice(), "changes", p.changes(),
        "cuts", cuts, "ops_per_device", p.opsPerDevice(), "hash", p.hash());
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  // Jackson writes NaN as a number no JSON reader accepts: null is the honest "no value".
  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
