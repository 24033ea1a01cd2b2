package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load arithmetic on fake {@code /proc} contents (proc(5) layouts). */
class LoadSampleTest {
  /** A 2-core machine: user nice system idle iowait irq softirq steal guest guest_nice. */
  static String procStat(long user, long system, long idle, int running) {
    return "cpu  " + user + " 0 " + system + " " + idle + " 5 0 0 0 0 0\n"
        + "cpu0 1 0 1 1 0 0 0 0 0 0\n"
        + "cpu1 1 0 1 1 0 0 0 0 0 0\n"
        + "intr 12345 0 0\nctxt 99\nbtime 1700000000\nprocesses 100\n"
        + "procs_running " + running + "\nprocs_blocked 0\n";
  }

  /** {@code /proc/self/stat} of a process whose name holds a space and a parenthesis. */
  static String selfStat(long utime, long stime) {
    return selfStat(utime, stime, 0);
  }

  /** The same with {@code children} ticks of waited-for children (cutime; cstime 0). */
  static String selfStat(long utime, long stime, long children) {
    return "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 " + utime + " " + stime + " " + children
        + " 0 20 0 30 0 1000 1000000 5000";
  }

  @Test
  void parsesBusyTotalRunQueueOwnTimeAndCores() {
    LoadSample s = LoadSample.parse(procStat(100, 50, 800, 3), selfStat(40, 10)).orElseThrow();
    assertEquals(150, s.busyTicks());
    assertEquals(955, s.totalTicks(), "busy + idle + iowait");
    assertEquals(3, s.procsRunning());
    assertEquals(50, s.ownTicks(), "utime + stime, counted after the parenthesised name");
    assertEquals(2, s.cores());
  }

  @Test
  void foreignLoadIsMachineBusyTimeLessOwnTimeOverWallTimesCores() {
    LoadSample before = LoadSample.parse(procStat(100, 50, 800, 2), selfStat(40, 10)).orElseThrow();
    // 200 ticks of wall on 2 cores = 400 ticks; the machine was busy 300 of them, this process 180.
    LoadSample after = LoadSample.parse(procStat(350, 100, 900, 5), selfStat(200, 30)).orElseThrow();
    MeasurementLoad load = LoadSample.between(before, after).orElseThrow();
    assertEquals(120.0 / 400 * 2, load.foreignCores(), 1e-12);
    assertEquals(0.3, load.foreignShare(), 1e-12);
    assertEquals(5, load.runQueue(), "the larger reading");
    assertEquals(0, load.retakes());
    assertFalse(load.flagged());
    assertTrue(load.describe().startsWith("load 0.6 of 2 cores busy with other processes, run queue 5"),
        load.describe());
  }

  @Test
  void aChildThisProcessRanAndWaitedForIsItsOwnLoad() {
    LoadSample before = LoadSample.parse(procStat(100, 50, 800, 1), selfStat(40, 10)).orElseThrow();
    // A benchmark_app child used 150 of the 200 busy ticks, this JVM 50.
    LoadSample after = LoadSample.parse(procStat(300, 50, 800, 1), selfStat(90, 10, 150)).orElseThrow();
    assertEquals(0, LoadSample.between(before, after).orElseThrow().foreignCores());
  }

  @Test
  void aQuietMachineIsZeroEvenWhenOwnTicksLandAheadOfTheMachines() {
    LoadSample before = LoadSample.parse(procStat(100, 50, 800, 1), selfStat(40, 10)).orElseThrow();
    LoadSample after = LoadSample.parse(procStat(200, 50, 900, 1), selfStat(145, 10)).orElseThrow();
    assertEquals(0, LoadSample.between(before, after).orElseThrow().foreignCores());
  }

  @Test
  void noTickPassedOrUnreadableContentsTellNothing() {
    LoadSample s = LoadSample.parse(procStat(100, 50, 800, 1), selfStat(40, 10)).orElseThrow();
    assertTrue(LoadSample.between(s, s).isEmpty());
    assertTrue(LoadSample.parse("garbage", selfStat(1, 1)).isEmpty());
    assertTrue(LoadSample.parse(procStat(1, 1, 1, 1), "no name here").isEmpty());
  }

  @Test
  void theProbeReadsTheFilesAndIsEmptyWithoutThem(@TempDir Path dir) throws IOException {
    Path stat = Files.writeString(dir.resolve("stat"), procStat(100, 50, 800, 4));
    Path self = Files.writeString(dir.resolve("self"), selfStat(7, 3));
    assertEquals(10, LoadProbe.proc(stat, self).sample().orElseThrow().ownTicks());
    assertTrue(LoadProbe.proc(dir.resolve("absent"), self).sample().isEmpty());
  }

  @Test
  void aLiveChildThatMeasuresForThisProcessIsItsOwnLoad() {
    LoadSample before = LoadSample.parse(procStat(100, 50, 800, 1), List.of(selfStat(40, 10), selfStat(5, 5)))
        .orElseThrow();
    // The isolated runtime child used 180 of the 200 busy ticks (not yet waited for), this JVM 20.
    LoadSample after = LoadSample.parse(procStat(300, 50, 800, 1), List.of(selfStat(60, 10), selfStat(185, 5)))
        .orElseThrow();
    assertEquals(0, LoadSample.between(before, after).orElseThrow().foreignCores());
    assertTrue(LoadSample.parse(procStat(1, 1, 1, 1), List.of()).isEmpty());
  }

  @Test
  void theLiveProbeCountsABusyChildProcessAsOwnTime() throws Exception {
    Path proc = Path.of("/proc/self/stat");
    Assumptions.assumeTrue(Files.isReadable(proc), "no /proc here (not Linux)");
    Process child = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done").start();
    try {
      LoadSample before = LoadProbe.proc().sample().orElseThrow();
      long ticksAtStart = ticksOf(child.pid());
      long childTicks = ticksAtStart;
      while (child.isAlive() && childTicks - ticksAtStart < 30) {
        Thread.sleep(50);
        childTicks = ticksOf(child.pid());
      }
      LoadSample after = LoadProbe.proc().sample().orElseThrow();
      Assumptions.assumeTrue(childTicks - ticksAtStart >= 30, "the child ended before it used 0.3 s of CPU");
      assertTrue(after.ownTicks() - before.ownTicks() >= childTicks - ticksAtStart,
          "the child's CPU time is this process's own: " + (after.ownTicks() - before.ownTicks()) + " ticks of own"
              + " time, the child alone used " + childTicks);
    } finally {
      child.destroyForcibly();
    }
  }

  /** utime + stime of a live process, in ticks. */
  private static long ticksOf(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] rest = stat.substring(stat.lastIndexOf(')') + 1).trim().split("\\s+", -1);
    return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
  }
}
