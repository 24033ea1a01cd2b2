package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.LoadTally;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementLoad;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.io.IoErrors;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLogTest {
  @TempDir
  Path tmp;

  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static LogRecord record(int step, double ms) {
    Placement p = new Placement(DEVICES, new int[] {0, 1, 1, 0});
    Measurement m = Measurement.of(new double[] {ms + 0.125, ms, ms - 1e-9},
        new MeasurementProtocol(0, 3, Statistic.MEDIAN, 1, 0), 2, "fake", "test");
    return LogRecord.measurement("t", step, step, LogRecord.PHASE_SEARCH, null, null, p, m, false, "0+3 median", ms);
  }

  @Test
  void recordsRoundTripExactlyIncludingEverySample() throws IOException {
    Path f = tmp.resolve("log.jsonl");
    LogRecord r = record(0, 1.0 / 3);
    try (RunLog log = RunLog.openForAppend(f, 0)) {
      log.append(LogRecord.header("t", 0, Map.of("seed", 1)));
      log.append(r);
      log.append(LogRecord.measurement("t", 1, 1, LogRecord.PHASE_SEARCH, null, null,
          new Placement(DEVICES, new int[] {1, 1, 1, 1}), Measurement.failed("no GPU", "fake", "test"), false, "s",
          Double.NaN));
    }
    RunLog.Contents c = RunLog.read(f);
    assertEquals(3, c.records().size());
    assertEquals(0, c.tornBytes());
    LogRecord back = c.records().get(1);
    assertEquals(r.samplesMs(), back.samplesMs());
    assertEquals(r.toMeasurement().latencyMillis(), back.toMeasurement().latencyMillis());
    assertEquals(r.toPlacement(DEVICES), back.toPlacement(DEVICES));
    assertTrue(back.succeeded());
    LogRecord failed = c.records().get(2);
    assertFalse(failed.succeeded());
    assertEquals("no GPU", failed.toMeasurement().reason());
    assertEquals("failed", failed.status());
    assertEquals("ok", back.status());
    assertFalse(Files.readString(f).contains("NaN"), "absent values are omitted, not written as NaN");
  }

  @Test
  void theForeignLoadRoundTripsAndALogFromBeforeItHasNone() throws IOException {
    Path f = tmp.resolve("log.jsonl");
    MeasurementLoad load = new MeasurementLoad(1.25, 2, 4, 1, true);
    Placement p = new Placement(DEVICES, new int[] {0, 0, 0, 0});
    try (RunLog log = RunLog.openForAppend(f, 0)) {
      log.append(record(0, 2));
      log.append(LogRecord.measurement("t", 1, 1, LogRecord.PHASE_SEARCH, null, null, p,
          Measurement.of(new double[] {3}, MeasurementProtocol.PAPER, 1, "openvino", "real").withLoad(load), false,
          "s", 2));
      log.append(LogRecord.measurement("t", 2, 2, LogRecord.PHASE_SEARCH, null, null, p,
          Measurement.failed("refused", "openvino", "real").withLoad(load.after(0, false)), false, "s", 2));
    }
    List<LogRecord> back = RunLog.read(f).records();
    assertEquals(null, back.get(0).load(), "no figure: written as before");
    assertFalse(Files.readAllLines(f).get(0).contains("load"), "absent, as in logs from before the figure");
    assertEquals(load, back.get(1).load());
    assertEquals(load, back.get(1).toMeasurement().load(), "resume replays it");
    assertEquals(load.after(0, false), back.get(2).toMeasurement().load());
    LoadTally t = RunLoad.tally(back);
    assertEquals(2, t.measured());
    assertEquals(1, t.flagged());
    assertEquals(1.25, t.maxForeignCores());
    assertTrue(t.describe().contains("max 1.3 of 2 cores busy with other processes; 1 re-taken"), t.describe());
  }

  @Test
  void aTornLastLineIsSkippedAndCutBeforeTheNextAppend() throws IOException {
    Path f = tmp.resolve("log.jsonl");
    try (RunLog log = RunLog.openForAppend(f, 0)) {
      log.append(record(0, 2));
      log.append(record(1, 3));
    }
    long clean = Files.size(f);
    Files.writeString(f, "{\"type\":\"measurement\",\"step\":2,\"samp", StandardOpenOption.APPEND);
    RunLog.Contents c = RunLog.read(f);
    assertEquals(2, c.records().size());
    assertEquals(clean, c.validBytes());
    assertTrue(c.tornBytes() > 0);
    try (RunLog log = RunLog.openForAppend(f, c.validBytes())) {
      log.append(record(2, 4));
    }
    RunLog.Contents after = RunLog.read(f);
    assertEquals(3, after.records().size());
    assertEquals(0, after.tornBytes());
    assertEquals(2, after.records().get(2).step());
  }

  /** A log of {@code n} records written by RunLog itself. */
  private Path written(int n) throws IOException {
    Path f = tmp.resolve("log.jsonl");
    try (RunLog log = RunLog.openForAppend(f, 0)) {
      for (int i = 0; i < n; i++) {
        log.append(record(i, 2 + i));
      }
    }
    return f;
  }

  @Test
  void aCompleteLastLineWithoutNewlineIsKeptAndTerminated() throws IOException {
    Path f = written(1);
    Files.writeString(f, Files.readString(f).stripTrailing());
    RunLog.Contents c = RunLog.read(f);
    assertEquals(1, c.records().size());
    try (RunLog log = RunLog.openForAppend(f, c.validBytes())) {
      log.append(record(1, 3));
    }
    assertEquals(2, RunLog.read(f).records().size());
  }

  @Test
  void aDamagedLineInTheMiddleIsAnErrorNotSilentlySkipped() throws IOException {
    Path f = written(2);
    List<String> lines = Files.readAllLines(f);
    Files.write(f, List.of(lines.get(0), "{garbage", lines.get(1)));
    DamagedRunFileException e = assertThrows(DamagedRunFileException.class, () -> RunLog.read(f));
    assertTrue(e.getMessage().startsWith(f + ":2: "), e.getMessage());
  }

  @Test
  void anEditThatKeepsTheJsonValidIsRefusedWithItsLine() throws IOException {
    Path f = written(3);
    List<String> lines = new ArrayList<>(Files.readAllLines(f));
    String edited = lines.get(1).replace("\"latency_ms\":3.0", "\"latency_ms\":1.0");
    assertNotEquals(lines.get(1), edited, "the test edits the latency");
    lines.set(1, edited);
    Files.write(f, lines);
    DamagedRunFileException e = assertThrows(DamagedRunFileException.class, () -> RunLog.read(f));
    assertTrue(e.getMessage().startsWith(f + ":2: ") && e.getMessage().contains("changed"), e.getMessage());
  }

  @Test
  void removingOrReorderingLinesBreaksTheChain() throws IOException {
    Path f = written(3);
    List<String> lines = Files.readAllLines(f);
    Files.write(f, List.of(lines.get(0), lines.get(2)));
    assertTrue(assertThrows(DamagedRunFileException.class, () -> RunLog.read(f)).getMessage().startsWith(f + ":2: "));
    Files.write(f, List.of(lines.get(1), lines.get(0), lines.get(2)));
    assertTrue(assertThrows(DamagedRunFileException.class, () -> RunLog.read(f)).getMessage().startsWith(f + ":1: "));
  }

  @Test
  void aLineWithoutChecksumIsRefused() throws IOException {
    Path f = written(1);
    Files.writeString(f, RunLog.JSON.writeValueAsString(record(1, 2)) + "\n", StandardOpenOption.APPEND);
    DamagedRunFileException e = assertThrows(DamagedRunFileException.class, () -> RunLog.read(f));
    assertTrue(e.getMessage().startsWith(f + ":2: ") && e.getMessage().contains("no checksum"), e.getMessage());
  }

  @Test
  void appendingAfterReopeningContinuesTheChain() throws IOException {
    Path f = written(2);
    try (RunLog log = RunLog.openForAppend(f, RunLog.read(f).validBytes())) {
      log.append(record(2, 9));
    }
    assertEquals(3, RunLog.read(f).records().size());
  }

  @Test
  void aMissingLogReadsAsEmpty() throws IOException {
    assertEquals(0, RunLog.read(tmp.resolve("none.jsonl")).records().size());
  }

  @Test
  void aFailedWriteNamesTheLog() throws IOException {
    // A channel's own errors carry no path (a file made immutable mid-run: "Operation not permitted").
    Path f = tmp.resolve("log.jsonl");
    RunLog log = RunLog.openForAppend(f, 0);
    log.close();
    IOException e = assertThrows(IOException.class, () -> log.append(record(0, 1)));
    assertTrue(IoErrors.describe(e).startsWith(f + ": "), IoErrors.describe(e));
  }
}
