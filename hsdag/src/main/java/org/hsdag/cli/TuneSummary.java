package org.hsdag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.io.Words;
import org.hsdag.report.ReportWriter;
import org.hsdag.tune.RunOptions;
import org.hsdag.search.Candidate;
import org.hsdag.search.Decision;
import org.hsdag.search.Finalist;
import org.hsdag.search.SearchEngine;
import org.hsdag.tune.RunFailures;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.RunResults;
import org.hsdag.tune.RunStatus;
import org.hsdag.tune.TuneConfig;
import org.hsdag.tune.TuneResult;
import org.hsdag.tune.Tuner;

/** What {@code tune} prints at the end of a run: the summary table and lines, or the JSON of {@code --json}. */
final class TuneSummary {
  private TuneSummary() {}

  static void print(PrintWriter out, boolean json, boolean quiet, Path dir, RunManifest mf, TuneResult result,
      ReportWriter.Written report, PlannerEstimate estimate, RunObjective objective, List<String> next)
      throws IOException {
    if (json) {
      printJson(out, dir, mf, result, report, estimate, objective);
    } else {
      printSummary(out, quiet, dir, mf, result, report, estimate, objective, next);
    }
  }

  private static void printJson(PrintWriter out, Path dir, RunManifest mf, TuneResult result,
      ReportWriter.Written report, PlannerEstimate estimate, RunObjective objective) throws IOException {
    TuneConfig config = mf.config();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("run_dir", dir.toString());
    m.put("model", mf.modelPath());
    m.put("devices", config.devices().names());
    m.putAll(RunResults.toMap(result));
    if (report != null) {
      m.put("report", dir.resolve(ReportWriter.HTML).toString());
    }
    if (estimate != null) {
      m.put("planner_estimate_ms", estimate.plannerMillis());
      m.put("planner_estimate_source", estimate.source());
    }
    m.put("objective", objective);
    m.putAll(RunNotesLines.json(dir));
    out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
  }

  private static void printSummary(PrintWriter out, boolean quiet, Path dir, RunManifest mf, TuneResult r,
      ReportWriter.Written report, PlannerEstimate estimate, RunObjective objective, List<String> next) {
    Figure fig = Figure.of(objective);
    String nums = (r.simulated() ? "simulated, " : "") + r.backend() + "/" + r.profile();
    if (r.status() == RunStatus.INTERRUPTED) {
      out.printf(Locale.ROOT, "hsdag: interrupted after %d measurements (%.1f s); nothing is lost, continue with: %s%n",
          r.measurements(), r.elapsedSeconds(), CommandName.line("tune", "--resume", "--out", dir));
      return;
    }
    if (r.status() == RunStatus.FAILED) {
      out.printf(Locale.ROOT, "hsdag: search failed: %s; the log is in %s%n", r.stopReason(),
          dir.resolve(Tuner.LOG_FILE));
      return;
    }
    Candidate best = r.best();
    Candidate ref = r.referenceBaseline();
    if (quiet) {
      out.println(best == null ? "no placement ran"
          : String.format(Locale.ROOT, "%s %s (%s)%s -> %s", best.label(),
              fig.text(best.finalMs()), nums,
              ref != null && ref.ok()
                  ? String.format(Locale.ROOT, " %.2fx %s", ref.finalMs() / best.finalMs(), ref.label()) : "",
              dir.resolve(Tuner.BEST_FILE)));
      return;
    }
    TuneConfig c = mf.config();
    out.printf(Locale.ROOT, "%s on %s | backend %s, profile %s%s%n", label(mf), String.join(",", c.devices().names()),
        r.backend(),
        r.profile(), r.simulated() ? " | SIMULATED numbers, not hardware" : "");
    RunFailures failures = failures(dir);
    out.println(searchLine(r, c, failures));
    if (r.time() != null) {
      out.println(r.time().text());
    }
    if (failures.ranAndFailed() > 0) {
      out.println("failed measurements by reason (search and final rounds): " + failures.ranAndFailedText());
    }
    if (failures.notRun() > 0) {
      out.println("not run, no measurement spent, by reason: " + failures.notRunText());
    }
    out.printf(Locale.ROOT, "final: %s of %s per candidate%s; latency = median of rounds (ms, %s)%n",
        Words.count(c.finalRounds(), "interleaved round"), c.protocol().describe(),
        SearchEngine.racedRoundsNote(c.finalRounds()) + org.hsdag.search.FinalResult.earlyExitNote(c.finalRounds()),
        nums);
    ObjectiveSummary.printHeader(out, objective, c.devices().size());
    printCandidates(out, r, best, ref, fig);
    if (best == null) {
      out.println("no placement ran; see the failures in " + dir.resolve(Tuner.LOG_FILE));
    } else {
      Candidate bb = r.bestBaseline();
      StringBuilder line = new StringBuilder(
          String.format(Locale.ROOT, "best: %s, %s (%s)", best.label(), fig.text(best.finalMs()), nums));
      if (ref != null && ref.ok()) {
        line.append(String.format(Locale.ROOT, ", %.2fx %s", ref.finalMs() / best.finalMs(), ref.label()));
      }
      // The fastest single device is often the reference itself: name it once.
      if (bb != null && !bb.equals(best) && !bb.equals(ref)) {
        line.append(String.format(Locale.ROOT, ", %.2fx %s", bb.finalMs() / best.finalMs(), bb.label()));
      }
      out.println(line);
      ObjectiveSummary.printFigures(out, objective, nums);
      if (estimate != null) {
        out.printf(Locale.ROOT, "cost model: the planner's optimum is %.3f ms (an estimate, %s); the best measured "
            + "latency is %+.1f%% from it%n", estimate.plannerMillis(), estimate.source(),
            estimate.measuredGapPercent());
      }
      if (best.baseline()) {
        out.println(failures.noSplitRan() ? failures.noSplitRanLine()
            : r.decision() == Decision.SINGLE_DEVICE_FASTEST ? noSplitBeatLine(r) : r.decisionText());
      }
      RunNotesLines.print(out, dir);
      out.println("wrote " + dir.resolve(Tuner.BEST_FILE) + " (op friendly name -> device), "
          + dir.resolve(Tuner.DOT_FILE) + (report != null ? ", " + dir.resolve(ReportWriter.HTML) : ""));
      if (report != null && !report.graphRendered()) {
        out.println("note: " + report.graphNote().replace("`", ""));
      }
      out.println("next: " + CommandName.line(RunOptions.with(next, "apply", CommandName.here(mf.givenModelPath()),
          dir.resolve(Tuner.BEST_FILE))));
    }
  }

  /**
   * {@code no split placement beat the fastest single device in the final race (the search's best split,
   * 9.422 ms measured once, 16.9 ms there)}: the search's progress showed that split ahead; this says
   * what became of it.
   */
  static String noSplitBeatLine(TuneResult r) {
    Candidate split = null;
    for (Candidate c : r.candidates()) {
      if (!c.baseline() && !Double.isNaN(c.searchMs()) && (split == null || c.searchMs() < split.searchMs())) {
        split = c;
      }
    }
    String line = "no split placement beat the fastest single device in the final race";
    if (split == null) {
      return line;
    }
    return line + String.format(Locale.ROOT, " (the search's best split, %s, measured once at %.3f ms, %s there)",
        split.label(), split.searchMs(), split.ok() && !Double.isNaN(split.finalMs())
            ? String.format(Locale.ROOT, "%.3f ms", split.finalMs()) : "not kept");
  }

  /**
   * {@code search: 12 measurements (2 failed), 40 cache hits, 151 proposals not run; …}: one account of
   * every proposal, the same counts as the lines after it.
   */
  static String searchLine(TuneResult r, TuneConfig c, RunFailures failures) {
    String notRun = failures.notRun() > 0 ? ", " + Words.count(failures.notRun(), "proposal") + " not run" : "";
    // The wall: line's figure and start, so the two never disagree.
    double seconds = r.time() != null ? r.time().totalSeconds() : r.elapsedSeconds();
    boolean earlier = r.time() != null && r.time().earlierSeconds() > 0;
    return String.format(Locale.ROOT, "search: %s (%d failed), %s%s in %.1f s %s, strategy %s, seed %d; %s",
        Words.count(r.measurements(), "measurement"), r.failures(), Words.count(r.cacheHits(), "cache hit"), notRun,
        seconds, earlier ? "of wall, earlier sessions included" : "since the command started", c.strategy(), c.seed(),
        r.stopReason());
  }

  /** The run's failures by reason; none when its log cannot be read (the summary never fails for that). */
  private static RunFailures failures(Path dir) {
    try {
      return RunFailures.read(dir);
    } catch (IOException e) {
      return RunFailures.NONE;
    }
  }

  static String label(RunManifest mf) {
    return mf.modelName() != null && !mf.modelName().isBlank() ? mf.modelName()
        : Path.of(mf.modelPath()).getFileName().toString().replaceFirst("\\.xml$", "");
  }

  /** One row per finalist and baseline: ops per device, sub-models, latency, interval, speed-up. */
  private static void printCandidates(PrintWriter out, TuneResult r, Candidate best, Candidate ref, Figure fig) {
    out.printf(Locale.ROOT, "  %-12s %-28s %10s %12s %21s %12s%n", "candidate", "ops per device", "sub-models",
        fig.header(), "95% CI " + fig.unit(), "vs " + Finalist.baselineLabel(r.reference()));
    for (Candidate cand : r.candidates()) {
      StringBuilder ops = new StringBuilder();
      int[] counts = cand.placement().countsPerDevice();
      for (int d = 0; d < counts.length; d++) {
        ops.append(d == 0 ? "" : ", ").append(cand.placement().devices().name(d)).append(' ').append(counts[d]);
      }
      String lat = cand.ok() ? fig.number(cand.finalMs()) : "failed";
      String ci = Double.isNaN(cand.ciLowMs()) ? "" : fig.interval(cand.ciLowMs(), cand.ciHighMs());
      String vs = cand.ok() && ref != null && ref.ok()
          ? String.format(Locale.ROOT, "%.2fx", ref.finalMs() / cand.finalMs()) : "";
      out.printf(Locale.ROOT, "  %-12s %-28s %10s %12s %21s %12s%s%n", cand.label(), ops,
          cand.subModels() == 0 ? "?" : cand.subModels(),
          lat, ci, vs, cand.equals(best) ? "  <- best" : "");
      if (!cand.ok() && cand.reason() != null) {
        out.println("      " + cand.reason());
      }
    }
  }
}
