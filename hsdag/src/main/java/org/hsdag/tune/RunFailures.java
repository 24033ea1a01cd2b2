package org.hsdag.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.memory.MemoryCheck;

/**
 * The failed measurements of a run's log, grouped by reason (search and final rounds; cache hits and
 * baselines left out), and whether any split placement (ops on more than one device) ran.
 *
 * @param byReason reason group → count, most frequent first
 * @param splitRan whether some placement with ops on more than one device was measured successfully
 * @param splitsFailed failed measurements of placements with ops on more than one device
 */
public record RunFailures(Map<String, Integer> byReason, boolean splitRan, int splitsFailed) {
  public static final RunFailures NONE = new RunFailures(Map.of(), false, 0);

  public RunFailures {
    byReason = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byReason));
  }

  /** The failures in {@code runDir}'s log; {@link #NONE} without a log. */
  public static RunFailures read(Path runDir) throws IOException {
    Path f = runDir.resolve(Tuner.LOG_FILE);
    return Files.isRegularFile(f) ? of(RunLog.read(f).records()) : NONE;
  }

  /** The failures among {@code records}. */
  public static RunFailures of(List<LogRecord> records) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    boolean splitRan = false;
    int splitsFailed = 0;
    for (LogRecord r : records) {
      if (!r.hasMeasurement() || LogRecord.PHASE_BASELINE.equals(r.phase()) || Boolean.TRUE.equals(r.cached())) {
        continue;
      }
      boolean split = r.opsPerDevice() != null
          && r.opsPerDevice().values().stream().filter(n -> n != null && n > 0).count() > 1;
      if (r.succeeded()) {
        splitRan |= split;
      } else {
        counts.merge(group(r.reason() == null ? "" : r.reason()), 1, Integer::sum);
        splitsFailed += split ? 1 : 0;
      }
    }
    List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
    sorted.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
    Map<String, Integer> byReason = new LinkedHashMap<>();
    sorted.forEach(e -> byReason.put(e.getKey(), e.getValue()));
    return new RunFailures(byReason, splitRan, splitsFailed);
  }

  /** The group of a failure reason: what it says in a few words. */
  public static String group(String reason) {
    if (reason.startsWith(HeteroRefusal.PREFIX)) {
      return reason.contains("(predicted, not run)") ? "predicted refused by HETERO, not run"
          : HeteroRefusal.PREFIX + " (simulated)";
    }
    if (reason.startsWith("refused earlier in this run: ")) {
      return "refused earlier in this run, not run";
    }
    if (reason.contains("infer request on HETERO")) {
      return HeteroRefusal.PREFIX + " (infer request)";
    }
    if (reason.contains("compiling on HETERO")) {
      return HeteroRefusal.PREFIX + " (compiling)";
    }
    if (reason.startsWith("timed out")) {
      return "timed out";
    }
    if (reason.startsWith(MemoryCheck.REJECTED)) {
      return "rejected by the memory model, not run";
    }
    if (reason.contains("cannot run on")) {
      return "an op cannot run on its device";
    }
    int colon = reason.indexOf(':');
    String head = colon > 0 ? reason.substring(0, colon) : reason;
    return head.length() > 60 ? head.substring(0, 60) + "…" : head;
  }

  /** "reason: count; …", or "" when nothing failed. */
  public String text() {
    List<String> parts = new ArrayList<>();
    byReason.forEach((reason, n) -> parts.add(reason + ": " + n));
    return String.join("; ", parts);
  }

  /** Proposals turned down before running (predicted refusals, the memory model): no measurement spent. */
  public int notRun() {
    return byReason.entrySet().stream().filter(e -> isNotRun(e.getKey())).mapToInt(Map.Entry::getValue).sum();
  }

  /** Measurements that ran and failed. */
  public int ranAndFailed() {
    return byReason.values().stream().mapToInt(Integer::intValue).sum() - notRun();
  }

  /** "reason: count; …" of the proposals not run, or "". */
  public String notRunText() {
    return part(true);
  }

  /** "reason: count; …" of the measurements that ran and failed, or "". */
  public String ranAndFailedText() {
    return part(false);
  }

  private String part(boolean notRun) {
    List<String> parts = new ArrayList<>();
    byReason.forEach((reason, n) -> {
      if (isNotRun(reason) == notRun) {
        parts.add((notRun ? reason.replace(", not run", "") : reason) + ": " + n);
      }
    });
    return String.join("; ", parts);
  }

  private static boolean isNotRun(String group) {
    return group.endsWith(", not run");
  }

  /** Whether splits were tried and every one failed. */
  public boolean noSplitRan() {
    return !splitRan && splitsFailed > 0;
  }

  /** The line for a run whose best is a single device because no split ran, or null when some split ran. */
  public String noSplitRanLine() {
    if (!noSplitRan()) {
      return null;
    }
    String failed = ranAndFailedText();
    String notRun = notRunText();
    return "no split placement ran: every split proposed " + (failed.isEmpty() ? "was turned down before running ("
        + notRun + ")" : notRun.isEmpty() ? "failed (" + failed + ")"
        : "failed (" + failed + ") or was turned down before running (" + notRun + ")");
  }
}
