package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.backend.CallTiming;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadTally;
import org.hsdag.backend.LoadWatch;
import org.hsdag.plan.Proxies;
import org.hsdag.tune.RunFailures;
import org.hsdag.tune.RunLoad;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.RunNotes;
import org.hsdag.tune.TuneResult;
import org.hsdag.tune.Tuner;

/** Makes a finished run's {@link RunNotes} and prints them in the summary. */
final class RunNotesLines {
  private RunNotesLines() {}

  /**
   * The notes of the run in {@code dir} measured on {@code backend}: why a single device won (when
   * it did) and how far to trust it, by {@code runProxy}'s cost model corrected on the run's search
   * measurements (the model of the early stop), the time shares and the foreign load.
   */
  static RunNotes of(LatencyBackend backend, Proxies.Resolved runProxy, TuneResult result, Path dir,
      org.hsdag.ir.OpGraph graph) throws IOException {
    CostModelNotes model = CostModelNotes.NONE;
    if (runProxy != null) {
      // When no split ran, the failures are the reason (said on their own line), not the cost model.
      String winner = result.best() != null && result.best().baseline() && result.best().placement().size() > 0
          && !RunFailures.read(dir).noSplitRan() ? result.best().placement().deviceName(0) : null;
      model = CostModelNotes.of(runProxy.proxy(), runProxy.source(), RunLog.read(dir.resolve(Tuner.LOG_FILE))
          .records(), runProxy.proxy().devices(), winner);
    }
    // The wall: line's seconds for this session, so the two lines count the same time.
    double session = result.time() != null ? result.time().totalSeconds() - result.time().earlierSeconds()
        : result.elapsedSeconds();
    String time = backend.capability(CallTiming.class).map(c -> c.shares(session)).orElse(null);
    LoadTally t = RunLoad.tally(dir);
    String policy = t.measured() == 0 ? null
        : backend.capability(LoadWatch.class).map(w -> w.policy().describe()).orElse(null);
    String compiles = backend.capability(CompileCaching.class).map(c -> c.compileStats().describe()).orElse(null);
    return new RunNotes(model.why(), time, t.describe(), policy, compiles, model.trust(),
        CostModelReuse.databaseLine(backend, graph).orElse(null));
  }

  /** The summary's lines of the notes kept in {@code dir}. */
  static void print(PrintWriter out, Path dir) {
    RunNotes n = read(dir);
    if (n.why() != null) {
      out.println("why: " + n.why());
    }
    if (n.trust() != null) {
      out.println("trust: " + n.trust());
    }
    if (n.load() != null) {
      out.println("load: " + n.load() + (n.loadPolicy() != null ? " (" + n.loadPolicy() + ")" : ""));
    }
    if (n.time() != null) {
      out.println("time: " + n.time());
    }
    if (n.compiles() != null) {
      out.println("compiles: " + n.compiles());
    }
    if (n.profiles() != null) {
      out.println(n.profiles());
    }
  }

  /** The notes kept in {@code dir} as JSON fields. */
  static Map<String, Object> json(Path dir) {
    RunNotes n = read(dir);
    Map<String, Object> m = new LinkedHashMap<>();
    if (n.why() != null) {
      m.put("why", n.why());
    }
    if (n.trust() != null) {
      m.put("cost_model_trust", n.trust());
    }
    if (n.load() != null) {
      m.put("load", n.load());
    }
    if (n.time() != null) {
      m.put("time_shares", n.time());
    }
    if (n.compiles() != null) {
      m.put("compiles", n.compiles());
    }
    if (n.profiles() != null) {
      m.put("profile_database", n.profiles());
    }
    return m;
  }

  private static RunNotes read(Path dir) {
    try {
      return RunNotes.read(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
