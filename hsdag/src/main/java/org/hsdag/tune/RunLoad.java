package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.LoadTally;

/**
 * The foreign load over a run's real measurements, from its {@code log.jsonl} (every session of a
 * resumed run; cached answers and measurements without a load figure — the simulator, logs from
 * before the figure existed — are not counted).
 */
public final class RunLoad {
  private RunLoad() {}

  /** The tally of {@code records}. */
  public static LoadTally tally(List<LogRecord> records) {
    LoadTally t = LoadTally.NONE;
    for (LogRecord r : records) {
      if (r.hasMeasurement() && r.load() != null && !Boolean.TRUE.equals(r.cached())) {
        t = t.plus(r.load());
      }
    }
    return t;
  }

  /** The tally of the run in {@code dir}; none when it has no log. */
  public static LoadTally tally(Path dir) throws IOException {
    Path log = dir.resolve(Tuner.LOG_FILE);
    return Files.isRegularFile(log) ? tally(RunLog.read(log).records()) : LoadTally.NONE;
  }
}
