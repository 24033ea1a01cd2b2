package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hsdag.cli.CliChild;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two worker processes; one is killed (destroyForcibly) mid-run: the run completes with the same result. */
@Timeout(600)
class ClusterProcessTest {
  @TempDir Path tmp;

  private Process worker(Fleet fleet, String member, String bind, String join) throws IOException {
    List<String> cmd = CliChild.command(List.of(), List.of("worker", "--join", join, "--bind", bind, "--tls",
        fleet.certs.resolve(member).toString(), "--models", fleet.models.toString(), "--lock",
        tmp.resolve(member + ".lock").toString(), "--backend", "sim", "--extra-time", "150ms"));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve(member + ".txt").toFile()).start();
  }

  @Test
  void aWorkerProcessKilledMidRunChangesNothing() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    String seed = "127.0.0.1:" + Fleet.freePort();
    List<Process> workers = new ArrayList<>();
    try {
      workers.add(worker(fleet, "w1", seed, seed));
      workers.add(worker(fleet, "w2", "127.0.0.1:0", seed));
      Path out = tmp.resolve("killed");
      CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of(fleet.tuneArgs(out, "--cluster", seed,
          "--cluster-tls", fleet.certs.resolve("coordinator").toString(), "--cluster-wait", "120s").toArray(String[]::new)));
      // Mid-run: once a few search steps are in the log (polling a file, a condition, not a duration).
      while (!run.isDone() && logLines(out) < 12) {
        Thread.sleep(50);
      }
      assertTrue(!run.isDone(), "the run ended before a worker could be killed: " + run.get().err());
      workers.get(1).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      CliRun done = run.get(300, TimeUnit.SECONDS);
      assertEquals(0, done.exitCode(), done.err());
      assertEquals(Fleet.outcome(tmp.resolve("local")), Fleet.outcome(out));
    } finally {
      for (Process p : workers) {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private static long logLines(Path run) throws IOException {
    Path log = run.resolve("log.jsonl");
    if (!Files.exists(log)) {
      return 0;
    }
    try (var lines = Files.lines(log)) {
      return lines.count();
    }
  }
}
