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
import org.hsdag.plan.SplitBound;
import org.hsdag.tune.RunLoad;
import org.hsdag.tune.RunNotes;
import org.hsdag.tune.TuneResult;

/** Makes a finished run's {@link RunNotes} and prints them in the summary. */
final class RunNotesLines {
  private RunNotesLines() {}

  /**
   * The notes of the run in {@code dir} measured on {@code backend}: why a single device won (when
   * it did, by {@code runProxy}'s cost model), the time shares and the foreign load.
   */
  static RunNotes of(LatencyBackend backend, Proxies.Resolved runProxy, TuneResult result, Path dir)
      throws IOException {
    String why = null;
    if (runProxy != null && result.best() != null && result.best().baseline()) {
      SplitBound b = SplitBound.of(runProxy.proxy());
      why = b == null ? null : b.explain() + " (cost model: " + runProxy.source() + ")";
    }
    String time = backend.capability(CallTiming.class).map(CallTiming::shares).orElse(null);
    LoadTally t = RunLoad.tally(dir);
    String policy = t.measured() == 0 ? null
        : backend.capability(LoadWatch.class).map(w -> w.policy().describe()).orElse(null);
    String compiles = backend.capability(CompileCaching.class).map(c -> c.compileStats().describe()).orElse(null);
    return new RunNotes(why, time, t.describe(), policy, compiles);
  }

  /** The summary's lines of the notes kept in {@code dir}. */
  static void print(PrintWriter out, Path dir) {
    RunNotes n = read(dir);
    if (n.why() != null) {
      out.println("why: " + n.why());
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
  }

  /** The notes kept in {@code dir} as JSON fields. */
  static Map<String, Object> json(Path dir) {
    RunNotes n = read(dir);
    Map<String, Object> m = new LinkedHashMap<>();
    if (n.why() != null) {
      m.put("why", n.why());
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
