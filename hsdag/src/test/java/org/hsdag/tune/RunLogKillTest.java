package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's disk flushes run in the background: a process killed with {@code kill -9} right after it reported a
 * record (here: printed its number) still leaves every reported record in the file, chained and readable.
 */
class RunLogKillTest {
  @TempDir
  Path tmp;

  /** Child entry point: appends numbered records to the log at args[0], printing each number once appended. */
  public static final class Appender {
    private Appender() {}

    public static void main(String[] args) throws Exception {
      try (RunLog log = RunLog.openForAppend(Path.of(args[0]), 0)) {
        for (int i = 0;; i++) {
          log.append(LogRecord.header("t", i, Map.of("n", i)));
          System.out.println(i);
          System.out.flush();
        }
      }
    }
  }

  @Test
  void everyRecordReportedBeforeAKillMinus9IsInTheLog() throws Exception {
    Path file = tmp.resolve("log.jsonl");
    Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx64m", "-cp", System.getProperty("java.class.path"), Appender.class.getName(), file.toString()))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int reported = -1;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && reported < 200) {
        reported = Integer.parseInt(line.trim());
      }
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no close, no last flush
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    assertTrue(reported >= 200, "the child reported " + reported);
    List<LogRecord> records = RunLog.read(file).records();
    assertTrue(records.size() >= reported + 1, records.size() + " records, " + (reported + 1) + " reported");
    for (int i = 0; i <= reported; i++) {
      assertEquals(i, ((Number) records.get(i).info().get("n")).intValue());
    }
  }

  @Test
  void syncAndCloseFlushAndAppendsAfterCloseFail() throws IOException {
    Path file = tmp.resolve("log.jsonl");
    RunLog log = RunLog.openForAppend(file, 0);
    log.append(LogRecord.header("t", 0, Map.of()));
    log.sync();
    log.append(LogRecord.header("t", 1, Map.of()));
    log.close();
    assertEquals(2, RunLog.read(file).records().size());
    org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> log.append(LogRecord.header("t", 2, Map.of())));
  }
}
