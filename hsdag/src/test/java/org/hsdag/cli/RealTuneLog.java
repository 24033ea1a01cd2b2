package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;

/** What the real-runtime fault tests read from a run's log: the measurements taken and their failures. */
final class RealTuneLog {
  private RealTuneLog() {}

  /** The log's measurements taken (not answered from the cache), an empty list while it is unreadable. */
  static List<LogRecord> fresh(Path log) {
    try {
      return RunLog.read(log).records().stream().filter(LogRecord::hasMeasurement)
          .filter(r -> !Boolean.TRUE.equals(r.cached())).toList();
    } catch (Exception e) {
      return List.of(); // not written yet, or a line half written: look again
    }
  }

  static String reason(LogRecord r) {
    return r.reason() == null ? "" : r.reason();
  }

  /** The index of the one failed measurement whose reason starts with {@code reason}. */
  static int failedWith(List<LogRecord> records, String reason) {
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      if (reason(records.get(i)).startsWith(reason)) {
        at.add(i);
      }
    }
    assertEquals(1, at.size(), "one measurement failed with " + reason + ": " + records);
    return at.get(0);
  }

  /** Measurements taken after record {@code failed} of its placement. */
  static long measuredAfter(List<LogRecord> records, int failed) {
    String placement = records.get(failed).assignment();
    return records.subList(failed + 1, records.size()).stream().filter(r -> placement.equals(r.assignment())).count();
  }
}
