package org.hsdag.tune;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where a tune's wall time went: what {@code --time} bounds, the whole run.
 *
 * @param earlierSeconds earlier sessions of a resumed run
 * @param setupSeconds from the command's start to the first baseline: opening the backend, building (or reusing)
 *     the cost model
 * @param baselineSeconds the single-device baselines
 * @param searchSeconds the search
 * @param finalSeconds the final race and writing the results
 * @param limitSeconds {@code --time}, 0 for none
 */
public record TimeSpent(double earlierSeconds, double setupSeconds, double baselineSeconds, double searchSeconds,
    double finalSeconds, long limitSeconds) {

  /** The run's wall time, earlier sessions included. */
  public double totalSeconds() {
    return earlierSeconds + setupSeconds + baselineSeconds + searchSeconds + finalSeconds;
  }

  /** {@code wall: 58.2 s of --time 60 s since the command started: set-up and cost model 20.1 s, ..., final race 6.1 s}. */
  public String text() {
    String of = limitSeconds > 0 ? String.format(Locale.ROOT, " of --time %d s", limitSeconds) : "";
    String before = earlierSeconds > 0 ? String.format(Locale.ROOT, "earlier sessions %.1f s, ", earlierSeconds) : "";
    return String.format(Locale.ROOT,
        "wall: %.1f s%s since the command started: %sset-up and cost model %.1f s, baselines %.1f s, search %.1f s, "
            + "final race %.1f s",
        totalSeconds(), of, before, setupSeconds, baselineSeconds, searchSeconds, finalSeconds);
  }

  /** The same for {@code --json} and {@code result.json}. */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("total_s", totalSeconds());
    m.put("earlier_sessions_s", earlierSeconds);
    m.put("setup_s", setupSeconds);
    m.put("baselines_s", baselineSeconds);
    m.put("search_s", searchSeconds);
    m.put("final_race_s", finalSeconds);
    m.put("limit_s", limitSeconds);
    return m;
  }
}
