package org.hsdag.tune;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * The search steps of a run log that began measuring ({@link LogRecord#MEASURING}) and never logged
 * their measurement: the process ended during them (a native crash in the tune's own process, kill
 * -9, power). One such end proves nothing of the placement (a user's kill -9 lands on some step), so
 * it is measured once more; a placement that two sessions ended on is answered as failed with
 * {@link #REASON} and never measured again, so it cannot crash every resume.
 */
final class UnfinishedMeasurements {
  /** The reason such a placement is recorded with. */
  static final String REASON = "the tune ended twice while measuring it (a crash of the runtime?); not measured again";

  private UnfinishedMeasurements() {}

  /** The placements, by step, whose measurement two sessions did not survive. */
  static Map<Integer, Placement> of(List<LogRecord> records, DeviceSet devices) {
    return unfinished(records, devices, 2);
  }

  /** The placements, by step, whose measurement the last session did not survive for the first time. */
  static Map<Integer, Placement> once(List<LogRecord> records, DeviceSet devices) {
    Map<Integer, Placement> out = unfinished(records, devices, 1);
    out.keySet().removeAll(of(records, devices).keySet());
    return out;
  }

  private static Map<Integer, Placement> unfinished(List<LogRecord> records, DeviceSet devices, int ends) {
    Map<Integer, LogRecord> markers = new LinkedHashMap<>();
    Map<Integer, Integer> count = new HashMap<>();
    Map<Integer, LogRecord> measured = new HashMap<>();
    for (LogRecord r : records) {
      if (LogRecord.MEASURING.equals(r.type()) && r.step() != null && r.assignment() != null) {
        markers.put(r.step(), r);
        count.merge(r.step(), 1, Integer::sum);
      } else if (r.hasMeasurement() && LogRecord.PHASE_SEARCH.equals(r.phase()) && r.step() != null) {
        measured.putIfAbsent(r.step(), r);
      }
    }
    Map<Integer, Placement> out = new LinkedHashMap<>();
    for (Map.Entry<Integer, LogRecord> e : markers.entrySet()) {
      LogRecord after = measured.get(e.getKey());
      // Also a later session's answer from this list (cached, this reason): a resume must answer it the same way.
      boolean unfinished = after == null ? count.get(e.getKey()) >= ends
          : Boolean.TRUE.equals(after.cached()) && REASON.equals(after.reason());
      if (unfinished) {
        out.put(e.getKey(), e.getValue().toPlacement(devices));
      }
    }
    return out;
  }

  /** {@code step 7 (placement 3fa2…)}, for the note a resume gives. */
  static String describe(Map<Integer, Placement> unfinished) {
    List<String> parts = new ArrayList<>();
    unfinished.forEach((step, p) -> parts.add("step " + step + " (" + p.hashHex() + ")"));
    return String.join(", ", parts);
  }
}
