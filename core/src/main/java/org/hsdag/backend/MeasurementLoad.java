package org.hsdag.backend;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Locale;

/**
 * What else ran on this machine while one real measurement ran: the CPU time other processes took
 * ({@link LoadSample#between}), and what hsdag did about it ({@link LoadWatchingBackend}). A
 * measurement of a simulated backend carries none (not applicable).
 *
 * @param foreignCores cores' worth of CPU time other processes used during the measurement: (machine busy time − this
 *     process's CPU time) / wall time; 0 on a quiet machine, up to {@code cores}
 * @param cores the machine's logical cores
 * @param runQueue the most runnable tasks the kernel counted ({@code procs_running} of {@code /proc/stat}) at the
 *     start and end of the measurement, this process's own threads included
 * @param retakes how many earlier attempts of this measurement were discarded because the machine was loaded
 * @param flagged whether this measurement was still taken under more foreign load than the limit allows
 *     (kept, but not to be trusted as an uncontended latency)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MeasurementLoad(double foreignCores, int cores, double runQueue, int retakes, boolean flagged) {
  public MeasurementLoad {
    if (!(foreignCores >= 0) || cores < 1 || retakes < 0) {
      throw new IllegalArgumentException("bad load: " + foreignCores + " of " + cores + " cores, " + retakes
          + " retakes");
    }
  }

  /** The share of the machine's CPU time other processes took, 0 to 1. */
  public double foreignShare() {
    return Math.min(1, foreignCores / cores);
  }

  /** The same load after {@code n} discarded attempts, flagged or not. */
  public MeasurementLoad after(int n, boolean flag) {
    return new MeasurementLoad(foreignCores, cores, runQueue, n, flag);
  }

  /** {@code load 1.3 of 2 cores busy with other processes, run queue 4}, plus the re-takes and flag. */
  public String describe() {
    String s = String.format(Locale.ROOT, "load %.1f of %d cores busy with other processes, run queue %.0f",
        foreignCores, cores, runQueue);
    if (retakes > 0) {
      s += ", re-taken " + retakes + "x";
    }
    return flagged ? s + ", FLAGGED (too loaded to trust)" : s;
  }
}
