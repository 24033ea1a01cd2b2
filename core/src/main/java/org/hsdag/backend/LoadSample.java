package org.hsdag.backend;

import java.util.List;
import java.util.Optional;

/**
 * One reading of the machine's CPU counters (Linux {@code /proc}), all in clock ticks
 * ({@code USER_HZ}): two readings around a measurement give the CPU time other processes took
 * during it ({@link #between}).
 *
 * @param busyTicks CPU time of the whole machine spent not idle, summed over every core: user, nice, system, irq,
 *     softirq and steal of the {@code cpu} line of {@code /proc/stat} ({@code guest} is already inside user)
 * @param totalTicks the same plus idle and iowait: every core's wall time
 * @param procsRunning runnable tasks now ({@code procs_running} of {@code /proc/stat})
 * @param ownTicks this process's CPU time, every thread, and that of its children it waited for (a {@code
 *     benchmark_app} it ran): utime + stime + cutime + cstime of {@code /proc/self/stat}
 * @param cores logical cores ({@code cpuN} lines of {@code /proc/stat})
 */
public record LoadSample(long busyTicks, long totalTicks, int procsRunning, long ownTicks, int cores) {

  /**
   * Parses the contents of {@code /proc/stat} and {@code /proc/self/stat} (see proc(5)); empty when
   * they do not have the expected fields.
   */
  public static Optional<LoadSample> parse(String procStat, String selfStat) {
    return parse(procStat, List.of(selfStat));
  }

  /**
   * {@link #parse(String, String)} with the own CPU time summed over several processes' {@code stat} files: this
   * process first, then the children that measure for it (the isolated runtime).
   */
  public static Optional<LoadSample> parse(String procStat, List<String> ownStats) {
    long busy = -1;
    long total = -1;
    int running = -1;
    int cores = 0;
    for (String line : procStat.split("\n", -1)) {
      String[] f = line.trim().split("\\s+", -1);
      if (f[0].equals("cpu") && f.length >= 5) {
        long[] v = new long[8];
        for (int i = 0; i < v.length && i + 1 < f.length; i++) {
          v[i] = Long.parseLong(f[i + 1]);
        }
        // user nice system idle iowait irq softirq steal
        busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
        total = busy + v[3] + v[4];
      } else if (f[0].startsWith("cpu") && f[0].length() > 3) {
        cores++;
      } else if (f[0].equals("procs_running") && f.length == 2) {
        running = Integer.parseInt(f[1]);
      }
    }
    if (busy < 0 || running < 0 || cores == 0 || ownStats.isEmpty()) {
      return Optional.empty();
    }
    long own = 0;
    for (String stat : ownStats) {
      long ticks = processTicks(stat);
      if (ticks < 0) {
        return Optional.empty();
      }
      own += ticks;
    }
    return Optional.of(new LoadSample(busy, total, running, own, cores));
  }

  /** utime + stime + cutime + cstime of one {@code /proc/PID/stat}, or -1 when it lacks them. */
  private static long processTicks(String stat) {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return -1;
    }
    String[] rest = stat.substring(close + 1).trim().split("\\s+", -1);
    // After ')': state is field 3, so utime, stime, cutime, cstime (fields 14-17) are rest[11] to rest[14].
    if (rest.length < 15) {
      return -1;
    }
    return Long.parseLong(rest[11]) + Long.parseLong(rest[12]) + Long.parseLong(rest[13]) + Long.parseLong(rest[14]);
  }

  /**
   * The load other processes put on the machine from {@code before} to {@code after}: (machine busy
   * time − this process's CPU time) / wall time, in cores; the run queue is the larger of the two
   * readings. Empty when no tick passed (too short to tell).
   */
  public static Optional<MeasurementLoad> between(LoadSample before, LoadSample after) {
    long total = after.totalTicks - before.totalTicks;
    if (total <= 0) {
      return Optional.empty();
    }
    long foreign = (after.busyTicks - before.busyTicks) - (after.ownTicks - before.ownTicks);
    // The machine's and the process's counters tick apart: a few ticks of own time can land in the other interval.
    double cores = Math.max(0, (double) foreign / total) * after.cores;
    return Optional.of(new MeasurementLoad(Math.min(cores, after.cores), after.cores,
        Math.max(before.procsRunning, after.procsRunning), 0, false));
  }

  /** {@link #between} in cores, NaN when either reading is missing or no tick passed. */
  public static double foreignCores(Optional<LoadSample> before, Optional<LoadSample> after) {
    return before.isEmpty() || after.isEmpty() ? Double.NaN
        : between(before.get(), after.get()).map(MeasurementLoad::foreignCores).orElse(Double.NaN);
  }
}
