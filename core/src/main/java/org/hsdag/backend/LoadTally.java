package org.hsdag.backend;

import java.util.Locale;

/**
 * The foreign load over many measurements.
 *
 * @param measured measurements that carry a load figure
 * @param retaken of them, measurements taken again at least once because the machine was loaded
 * @param retakes attempts discarded in all
 * @param flagged measurements kept although every attempt was loaded
 * @param maxForeignCores the most cores' worth of foreign CPU time during one kept measurement
 * @param sumForeignCores the sum of the kept measurements' foreign cores (for the mean)
 * @param cores the machine's logical cores (0 when nothing was measured)
 */
public record LoadTally(int measured, int retaken, int retakes, int flagged, double maxForeignCores,
    double sumForeignCores, int cores) {
  public static final LoadTally NONE = new LoadTally(0, 0, 0, 0, 0, 0, 0);

  /** This tally plus one measurement's {@code load}. */
  public LoadTally plus(MeasurementLoad load) {
    return new LoadTally(measured + 1, retaken + (load.retakes() > 0 ? 1 : 0), retakes + load.retakes(),
        flagged + (load.flagged() ? 1 : 0), Math.max(maxForeignCores, load.foreignCores()),
        sumForeignCores + load.foreignCores(), Math.max(cores, load.cores()));
  }

  public double meanForeignCores() {
    return measured == 0 ? Double.NaN : sumForeignCores / measured;
  }

  /**
   * {@code foreign load during 40 measurements: mean 0.3, max 1.4 of 2 cores busy with other processes; 3 re-taken,
   * 1 flagged}; {@code null} when none carried a figure.
   */
  public String describe() {
    if (measured == 0) {
      return null;
    }
    return String.format(Locale.ROOT,
        "foreign load during %d real measurements: mean %.1f, max %.1f of %d cores busy with other processes; "
            + "%d re-taken (%d attempts discarded), %d flagged as too loaded to trust",
        measured, meanForeignCores(), maxForeignCores, cores, retaken, retakes, flagged);
  }
}
