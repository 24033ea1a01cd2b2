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
import java.util.concurrent.locks.LockSupport;
import org.hsdag.cli.CliChild;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two worker processes; one is killed (destroyForcibly) mid-run: the run completes with the same result. */
@Timeout(600)
class ClusterProcessTest {
  @TempDir
  Path tmp;

  private Process worker(Fleet fleet, String member, String bind, String join) throws IOException {
    return worker(fleet, member, bind, join, member + ".txt");
  }

  private Process worker(Fleet fleet, String member, String bind, String join, String console) throws IOException {
    List<String> cmd = CliChild.command(List.of(), List.of("worker", "--join", join, "--bind", bind, "--tls",
        fleet.certs.resolve(member).toString(), "--models", fleet.models.toString(), "--lock",
        tmp.resolve(member + ".lock").toString(), "--backend", "sim", "--extra-time", "150ms"));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve(console).toFile())
        .start();
  }

  @Test
  void aWorkerStoppedWithSigtermLeavesAndAWorkerAtItsAddressJoinsAgain() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    String bind = "127.0.0.1:" + Fleet.freePort();
    org.hsdag.ir.OpGraph graph = new org.hsdag.ir.IrReader().read(fleet.model);
    List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b);
        org.hsdag.backend.LatencyBackend local = Fleet.sim(5, null, graph)) {
      Process first = worker(fleet, "w2", bind, seed, "first.txt");
      // A coordinator watches too: it must see the worker leave, not become unreachable.
      org.hsdag.cli.RemoteMeasurement.Request r = new org.hsdag.cli.RemoteMeasurement.Request(seed, null,
          fleet.certs.resolve("coordinator"), "127.0.0.1", java.time.Duration.ofMinutes(5),
          java.time.Duration.ofMinutes(2), 2, org.hsdag.tune.RunManifest.sha256(fleet.model), 5, null, notes::add,
          null);
      try (var coordinator = new PekkoRemoteMeasurement().connect(r, local, graph)) {
        assertTrue(awaitUpMembers(w1, first, 3), Files.readString(tmp.resolve("first.txt")));
        // From the signal to its removal, no other member sees it unreachable (it leaves).
        java.util.concurrent.atomic.AtomicInteger unreachable = new java.util.concurrent.atomic.AtomicInteger();
        Thread watcher = new Thread(() -> {
          while (w1.membership()[0] > 2 || first.isAlive()) {
            unreachable.accumulateAndGet(w1.membership()[1], Math::max);
            LockSupport.parkNanos(5_000_000L);
          }
        });
        watcher.start();
        first.destroy(); // SIGTERM
        assertTrue(first.waitFor(60, TimeUnit.SECONDS), "the worker did not stop");
        watcher.join(60_000);
        assertEquals(0, unreachable.get(), "the stopped worker became unreachable instead of leaving");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (notes.stream().noneMatch(n -> n.contains(bind + " left the cluster")) && System.nanoTime() < end) {
          Thread.sleep(50);
        }
        assertTrue(notes.stream().anyMatch(n -> n.contains(bind + " left the cluster")), notes.toString());
        assertTrue(notes.stream().noneMatch(n -> n.contains("unreachable")), notes.toString());
      } finally {
        first.destroyForcibly();
      }
      String said = Files.readString(tmp.resolve("first.txt"));
      assertTrue(!said.contains("timed out"), "a shutdown phase timed out: " + said);
      Process second = worker(fleet, "w2", bind, seed, "second.txt");
      try {
        assertTrue(awaitUpMembers(w1, second, 2), Files.readString(tmp.resolve("second.txt")));
      } finally {
        second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Whether {@code w} sees {@code n} Up members while {@code p} runs (at most 180 s). */
  private static boolean awaitUpMembers(WorkerNode w, Process p, int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < end && p.isAlive()) {
      if (w.membership()[0] >= n) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
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
      CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of(fleet
          .tuneArgs(out, "--cluster", seed,
              "--cluster-tls", fleet.certs.resolve("coordinator").toString(), "--cluster-wait", "120s",
              "--cluster-workers", "2")
          .toArray(String[]::new)));
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

  @Test
  void aCoordinatorKilledMidRunResumesToTheSameResult() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    Path out = tmp.resolve("resumed");
    String[] cluster = {"--cluster", seed, "--cluster-tls", fleet.certs.resolve("coordinator").toString()};
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed,
        b -> new DelayedBackend(b, java.time.Duration.ofMillis(100)))) {
      Process coordinator = new ProcessBuilder(CliChild.command(List.of(), fleet.tuneArgs(out, cluster)))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("coordinator.txt").toFile()).start();
      try {
        while (coordinator.isAlive() && logLines(out) < 12) {
          Thread.sleep(50);
        }
        assertTrue(coordinator.isAlive(), "the run ended before its coordinator could be killed");
      } finally {
        coordinator.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      int before = measuredBy(out);
      List<String> resume = new ArrayList<>(List.of("tune", "--resume", "--out", out.toString(), "--quiet"));
      resume.addAll(List.of(cluster));
      CliRun resumed = CliRun.of(resume.toArray(String[]::new));
      assertEquals(0, resumed.exitCode(), resumed.err());
      // The resumed run's workers.json adds to the counts of the run before it.
      assertTrue(measuredBy(out) > before && before > 0, before + " then " + measuredBy(out));
    }
    List<String> expected = measurements(tmp.resolve("local"));
    assertEquals(expected, measurements(out));
    assertEquals(Files.readString(tmp.resolve("local/best.json")), Files.readString(out.resolve("best.json")));
  }

  /** The sum of workers.json's counts (0 without the file). */
  private static int measuredBy(Path run) throws IOException {
    Path f = run.resolve("workers.json");
    if (!Files.exists(f)) {
      return 0;
    }
    int sum = 0;
    for (var n : Fleet.JSON.readTree(f.toFile()).get("measurements_by_worker")) {
      sum += n.asInt();
    }
    return sum;
  }

  /** The measurement records of a run's log, without wall-clock fields. */
  private static List<String> measurements(Path run) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("log.jsonl"))) {
      var record = (com.fasterxml.jackson.databind.node.ObjectNode) Fleet.JSON.readTree(line);
      if ("measurement".equals(record.path("type").asText())) {
        record.remove(List.of("time", "elapsed_s", "chain"));
        out.add(record.toString());
      }
    }
    return out;
  }

  @Test
  void aTuneWithoutClusterLoadsNoPekkoClass() throws Exception {
    Path model = tmp.resolve("tiny_transformer.xml");
    org.hsdag.models.TinyModels.transformer().writeTo(model, 7);
    Path console = tmp.resolve("verbose.txt");
    Process p = new ProcessBuilder(CliChild.command(List.of("-verbose:class"),
        List.of("tune", model.toString(), "--devices",
            "CPU,GPU.1", "--backend", "sim", "--strategy", "brkga", "--budget", "10", "--final-rounds", "1",
            "--no-report",
            "--quiet", "--out", tmp.resolve("run").toString())))
        .redirectErrorStream(true).redirectOutput(console.toFile()).start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "tune did not finish");
    assertEquals(0, p.exitValue(), Files.readString(console));
    String loaded = Files.readString(console);
    assertTrue(loaded.contains("org.hsdag.search.SearchEngine"), "not a class-loading log");
    assertTrue(!loaded.contains("org.apache.pekko"), "a single-machine tune loaded Pekko classes");
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
