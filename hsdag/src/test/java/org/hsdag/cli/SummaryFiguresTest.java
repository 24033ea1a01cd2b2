package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.models.ModelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures a tune prints agree with each other: counts, time limit, objective and the next command. */
class SummaryFiguresTest {
  @TempDir
  Path tmp;

  private Path resnet() throws IOException {
    Path model = tmp.resolve("resnet50.xml");
    ModelCatalog.get("resnet50").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    return model;
  }

  private static String line(CliRun r, String prefix) {
    return r.out().lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
  }

  /** Proposals the memory model turns down are counted once, as not run, never as failed measurements. */
  @Test
  void proposalsNotRunAreOneAccountWithTheSearchLine() throws IOException {
    CliRun r = CliRun.of("tune", resnet().toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "GPU.1=400MiB", "--budget", "20", "--final-rounds", "2", "--out", tmp.resolve("mem").toString());
    assertEquals(0, r.exitCode(), r.err());
    String search = line(r, "search: ");
    Matcher m = Pattern.compile("(\\d+) proposals? not run").matcher(search);
    assertTrue(m.find(), search);
    String notRun = line(r, "not run, no measurement spent, by reason: ");
    assertNotNull(notRun, r.out());
    Matcher n = Pattern.compile("rejected by the memory model: (\\d+)").matcher(notRun);
    assertTrue(n.find(), notRun);
    assertEquals(m.group(1), n.group(1), search + "\n" + notRun);
    String failed = line(r, "failed measurements by reason");
    assertTrue(failed == null || !failed.contains("not run"), failed);
    String noSplit = line(r, "no split placement ran");
    assertNotNull(noSplit, r.out());
    assertFalse(noSplit.contains("measured failed"), noSplit);
    assertTrue(noSplit.contains("turned down before running"), noSplit);
  }

  /** The search line's seconds are the wall: line's, counted from the same start, and each says which start. */
  @Test
  void theSearchLineAndTheWallLineCountTheSameSeconds() throws IOException {
    Path model = resnet();
    Path out = tmp.resolve("wall");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "4",
        "--final-rounds", "1", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.err());
    assertEquals(wallSeconds(r), searchSeconds(r, "since the command started"), r.out());

    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "8");
    assertEquals(0, resumed.exitCode(), resumed.err());
    assertTrue(line(resumed, "wall: ").contains("earlier sessions "), resumed.out());
    assertEquals(wallSeconds(resumed), searchSeconds(resumed, "of wall, earlier sessions included"), resumed.out());
  }

  private static String wallSeconds(CliRun r) {
    Matcher m = Pattern.compile("^wall: ([0-9.]+) s since the command started").matcher(line(r, "wall: "));
    assertTrue(m.find(), r.out());
    return m.group(1);
  }

  private static String searchSeconds(CliRun r, String start) {
    Matcher m = Pattern.compile(" in ([0-9.]+) s " + start + ", strategy ").matcher(line(r, "search: "));
    assertTrue(m.find(), r.out());
    return m.group(1);
  }

  /** With --time alone progress counts seconds of the time limit, never "of 1000000 measurements". */
  @Test
  void aTimeLimitedRunShowsItsTimeBudget() throws IOException {
    CliRun r = CliRun.of("tune", resnet().toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--time", "2s",
        "--final-rounds", "2", "--out", tmp.resolve("time").toString());
    assertEquals(0, r.exitCode(), r.err());
    assertFalse(r.err().contains("1000000"), r.err());
    assertTrue(r.err().contains(" of 2 s"), r.err());
    assertTrue(r.err().contains("--time covers the whole run"), r.err());
    assertTrue(
        r.out().contains("wall: ") && r.out().contains(" of --time 2 s since the command started: set-up and cost "),
        r.out());
  }

  /** Under throughput the table, the best line and the report speak inferences/s; next: keeps the objective. */
  @Test
  void throughputRunsPrintInferencesPerSecondAndKeepTheirOptions() throws IOException {
    Path out = tmp.resolve("tput");
    CliRun r = CliRun.of("tune", resnet().toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--objective",
        "throughput", "--requests", "3", "--memory", "GPU.1=8GiB", "--budget", "10", "--final-rounds", "2", "--out",
        out.toString());
    assertEquals(0, r.exitCode(), r.err());
    String header = r.out().lines().filter(l -> l.trim().startsWith("candidate")).findFirst().orElseThrow();
    assertTrue(header.contains("inferences/s") && !header.contains("latency ms"), header);
    assertTrue(line(r, "best: ").contains("inferences/s"), r.out());
    String next = line(r, "next: ");
    assertTrue(next.contains("--objective throughput") && next.contains("--requests 3"), next);
    assertTrue(next.contains("--memory GPU.1=8GiB"), next);
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("| inferences/s |"), report);
  }

  /** A split ahead during the search and a single device at the end: the end says what became of the split. */
  @Test
  void theSearchsBestSplitIsAccountedForWhenASingleDeviceWins() throws IOException {
    List<String> args = new ArrayList<>(List.of("tune", resnet().toString(), "--backend", "sim", "--devices",
        "CPU,GPU.1", "--budget", "12", "--final-rounds", "2", "--mismatch", "0.6", "--out",
        tmp.resolve("race").toString()));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.err());
    String line = line(r, "no split placement beat");
    if (line != null) {
      assertTrue(line.contains("in the final race"), line);
    }
    assertTrue(r.err().contains("best measured once"), r.err());
  }
}
