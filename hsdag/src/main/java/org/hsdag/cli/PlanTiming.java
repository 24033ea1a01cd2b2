package org.hsdag.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.CostModelSource.FitError;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;

/**
 * Where {@code plan}'s wall time went, the cost model's provenance (built now or reused, the load it
 * was profiled under) and its own error on its measured runs: what a user needs to judge the plan.
 *
 * @param startupSeconds from the process's start until the command ran (the JVM, reading the options)
 * @param costModelSeconds from the command's start until the cost model was ready (opening the backend, reading
 *     the model, profiling it or reusing a saved profile)
 * @param planSeconds the planner alone
 * @param reusedFrom where a saved cost model came from, if reused
 * @param provenance when and in how long a reused cost model was built, if it was saved with that
 * @param profiled whether the cost model was measured (a real backend) rather than computed
 * @param load what else loaded the machine while it was profiled, if known
 * @param error the cost model's error on its measured runs, if it was fitted to any
 * @param profiles what the per-machine profile database gave and what was profiled, if one was used
 */
record PlanTiming(double startupSeconds, double costModelSeconds, double planSeconds, Optional<String> reusedFrom,
    Optional<String> provenance, boolean profiled,
    Optional<org.hsdag.backend.MeasurementLoad> load, Optional<FitError> error, Optional<String> profiles) {

  static PlanTiming of(double startup, long start, long planStart, long planEnd, CostModelReuse reuse,
      LatencyBackend backend,
      OpGraph graph) {
    boolean profiled = !backend.simulated() && backend.capability(CostModelSource.class).isPresent();
    Optional<FitError> error = backend.capability(CostModelSource.class).flatMap(s -> s.costModelError(graph));
    return new PlanTiming(startup, (planStart - start) / 1e9, (planEnd - planStart) / 1e9,
        reuse == null ? Optional.empty() : reuse.reusedFrom(),
        reuse == null ? Optional.empty() : reuse.provenance(), profiled && reuse != null,
        reuse == null ? Optional.empty() : reuse.load(), error, CostModelReuse.databaseLine(backend, graph));
  }

  /** Since the process started. */
  double wallSeconds() {
    return startupSeconds + costModelSeconds + planSeconds;
  }

  /** The lines plan prints. */
  List<String> lines() {
    List<String> l = new ArrayList<>();
    String costModel;
    if (reusedFrom.isPresent()) {
      costModel = String.format(Locale.ROOT, "cost model reused from %s%s (%.2f s; --fresh-profile profiles again)",
          reusedFrom.get(), provenance.map(p -> ", " + p).orElse(""), costModelSeconds);
    } else if (profiled) {
      costModel = String.format(Locale.ROOT,
          "cost model built in %.2f s (profiled now, saved for the next plan or tune)",
          costModelSeconds);
    } else {
      costModel = String.format(Locale.ROOT, "cost model ready in %.2f s", costModelSeconds);
    }
    l.add(String.format(Locale.ROOT, "wall %.2f s: start-up %.2f s, %s, planning %.2f s", wallSeconds(),
        startupSeconds, costModel, planSeconds));
    load.ifPresent(x -> l.add("profiled under " + CostModelReuse.loadText(x)));
    profiles.ifPresent(l::add);
    error.ifPresent(e -> l.add("the cost model's own error " + e.describe()));
    return l;
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", wallSeconds());
    m.put("startup_seconds", startupSeconds);
    m.put("cost_model_seconds", costModelSeconds);
    m.put("plan_seconds", planSeconds);
    reusedFrom.ifPresent(r -> m.put("cost_model_reused_from", r));
    provenance.ifPresent(p -> m.put("cost_model_provenance", p));
    load.ifPresent(x -> m.put("profiled_under_load", x));
    error.ifPresent(e -> m.put("cost_model_error", e));
    profiles.ifPresent(p -> m.put("profile_database", p));
    return m;
  }
}
