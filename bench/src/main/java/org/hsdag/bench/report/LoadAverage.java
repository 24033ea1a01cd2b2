package org.hsdag.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's 1-minute load average, which every real figure of the benchmarks is printed with: on a shared
 * machine a timing without the load it was taken under says little.
 */
public final class LoadAverage {
  private LoadAverage() {}

  /** The 1-minute load average from /proc/loadavg, NaN where there is none. */
  public static double now() {
    try {
      String s = Files.readString(Path.of("/proc/loadavg")).trim();
      return Double.parseDouble(s.substring(0, s.indexOf(' ')));
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** {@code 1.23} with two decimals, {@code unknown} for NaN. */
  public static String format(double load) {
    return Double.isNaN(load) ? "unknown" : String.format(Locale.ROOT, "%.2f", load);
  }
}
