package org.hsdag.cluster;

import java.util.List;
import java.util.Locale;
import org.hsdag.backend.Measurement;

/**
 * Whether answers of different members to one task agree, so that no member's figures count alone. Two
 * measurements of one placement under one noise key agree when both failed, or both succeeded and their latencies
 * are within {@value #TOLERANCE} of each other or their intervals overlap (machines of one fleet are alike, so
 * honest figures differ only by noise; on the simulator they are identical). A member whose answer disagrees
 * with two others that agree, or with the coordinator's own measurement, is lying or broken: it is excluded.
 */
final class Quorum {
  /** Relative difference of two latencies still taken as noise. */
  static final double TOLERANCE = 0.25;

  private Quorum() {}

  /** One member's answer to a task. */
  record Opinion(String member, Measurement measurement) {}

  static boolean agree(Measurement a, Measurement b) {
    if (!a.ok() || !b.ok()) {
      return !a.ok() && !b.ok();
    }
    double lo = Math.min(a.latencyMillis(), b.latencyMillis());
    double hi = Math.max(a.latencyMillis(), b.latencyMillis());
    if (hi <= lo * (1 + TOLERANCE)) {
      return true;
    }
    boolean intervals = Double.isFinite(a.ciLowMillis()) && Double.isFinite(a.ciHighMillis())
        && Double.isFinite(b.ciLowMillis()) && Double.isFinite(b.ciHighMillis());
    return intervals && a.ciLowMillis() <= b.ciHighMillis() && b.ciLowMillis() <= a.ciHighMillis();
  }

  /** The index of the first answer that another one agrees with, or -1. */
  static int agreed(List<Opinion> answers) {
    for (int i = 0; i < answers.size(); i++) {
      for (int j = i + 1; j < answers.size(); j++) {
        if (agree(answers.get(i).measurement(), answers.get(j).measurement())) {
          return i;
        }
      }
    }
    return -1;
  }

  /** A short text of a measurement for the notes. */
  static String figure(Measurement m) {
    return m.ok() ? String.format(Locale.ROOT, "%.3f ms", m.latencyMillis()) : "failed (" + m.reason() + ")";
  }
}
