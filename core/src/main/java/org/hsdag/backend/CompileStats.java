package org.hsdag.backend;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a real backend's compiles cost over one session (a run): the {@code compile_model} calls its
 * measurements made, their time, how often a kept compiled model was measured again instead
 * ({@code hits}), how many were released to stay under the budget ({@code evictions}), and the
 * budget. Figures of the real runtime, never simulated.
 *
 * @param backend the backend that compiled (its name, e.g. {@code openvino})
 * @param compiles compile calls of measurements (failed ones included)
 * @param failedCompiles of them, the ones whose compile or infer request failed (never kept)
 * @param compileMillis wall time of those compile calls (with their infer requests), milliseconds
 * @param distinctPlacements distinct compiled configurations (placement, devices) measured
 * @param hits measurements that reused a kept compiled model
 * @param evictions compiled models released, least recently used first, to stay under the budget
 * @param budgetBytes the memory the kept compiled models may take (0: nothing kept)
 * @param budgetSource where the budget comes from ({@code --compile-cache-mb 512}, or the default's derivation)
 * @param peakBytes the most the kept compiled models were charged at once
 * @param peakEntries the most compiled models kept at once
 * @param failures where and why compiles failed ({@code 4 while compiling the splits the cost model is fitted on
 *     (…refused…)}), empty when none did
 */
public record CompileStats(String backend, int compiles, int failedCompiles, double compileMillis,
    int distinctPlacements, int hits, int evictions, long budgetBytes, String budgetSource, long peakBytes,
    int peakEntries, String failures) {

  public CompileStats {
    failures = failures == null ? "" : failures;
  }

  /** The {@code compile_cache} object of {@code result.json}. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("backend", backend);
    m.put("real", true);
    m.put("compiles", compiles);
    m.put("failed_compiles", failedCompiles);
    if (!failures.isEmpty()) {
      m.put("failed_compiles_why", failures);
    }
    m.put("compile_ms", Math.round(compileMillis * 10) / 10.0);
    m.put("distinct_placements", distinctPlacements);
    m.put("cache_hits", hits);
    m.put("evictions", evictions);
    m.put("budget_mb", budgetBytes / (1024 * 1024));
    m.put("budget_source", budgetSource);
    m.put("peak_mb", peakBytes / (1024 * 1024));
    m.put("peak_compiled_models", peakEntries);
    return m;
  }

  /**
   * One line: {@code real (openvino): 57 compiles (12.3 s, the cost model's profiling included) for 57
   * distinct placements, 118 reuses of a kept compiled model, 0 evictions; budget 10240 MB
   * (--compile-cache-mb 10240), peak 6100 MB in 57}. A session's time shares count the profiling's
   * compiles as profiling, so its compile time is the smaller one.
   */
  public String describe() {
    return String.format(Locale.ROOT,
        "real (%s): %d compile%s (%.1f s, the cost model's profiling included) for %d distinct placement%s, %d reuse%s of a "
            + "kept compiled model, %d eviction%s; budget %d MB (%s), peak %d MB in %d compiled model%s%s",
        backend,
        compiles, compiles == 1 ? "" : "s", compileMillis / 1e3, distinctPlacements,
        distinctPlacements == 1 ? "" : "s", hits, hits == 1 ? "" : "s", evictions, evictions == 1 ? "" : "s",
        budgetBytes / (1024 * 1024), budgetSource, peakBytes / (1024 * 1024), peakEntries,
        peakEntries == 1 ? "" : "s", failedCompiles == 0 ? ""
            : "; " + failedCompiles + " failed" + (failures.isEmpty() ? "" : ": " + failures));
  }
}
