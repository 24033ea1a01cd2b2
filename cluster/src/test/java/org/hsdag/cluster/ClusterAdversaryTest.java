package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Identify;
import org.apache.pekko.actor.Kill;
import org.apache.pekko.actor.PoisonPill;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.cli.CliRun;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger holding a valid member certificate ({@link Adversary}) forges answers during a run,
 * sends a worker PoisonPill, Kill and Identify, and tasks answered to itself or asking for two
 * billion runs: the run's results are the local run's, the worker keeps serving, nothing answers.
 */
@Timeout(600)
class ClusterAdversaryTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  @Test
  void forgedAnswersAndRefusalsFromACertificateHolderChangeNothing() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w3");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    List<String> expected = Fleet.outcome(tmp.resolve("local"));
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    OpGraph graph = new IrReader().read(fleet.model);
    String profile;
    try (LatencyBackend sim = Fleet.sim(5, null, graph)) {
      profile = sim.profile();
    }
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> new DelayedBackend(b, Duration.ofMillis(40)));
        Adversary evil = new Adversary(fleet, "w3", seed)) {
      assertTrue(evil.awaitUp(PATIENCE), "the certificate holder did not join");
      Path out = tmp.resolve("forged");
      List<String> args = new ArrayList<>(fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
          fleet.certs.resolve("coordinator").toString()));
      args.remove("--quiet"); // the coordinator's notes name the dropped answers
      CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of(args.toArray(String[]::new)));
      double[] fast = new double[10];
      Arrays.fill(fast, 0.5);
      // A measurement that passes every plausibility check: only the try's token tells it apart.
      Measurement forged = Measurement.of(fast, MeasurementProtocol.PAPER, 1, "sim", profile);
      int sent = 0;
      while (!run.isDone()) {
        String coordinator = evil.memberWith(PekkoRemoteMeasurement.COORDINATOR_ROLE);
        if (coordinator != null) {
          ActorRef target = evil.guardian(coordinator);
          for (long id = 1; id <= 150; id++) {
            target.tell(new WireMessage.TaskDone(id, 1, id * 7919, w1.name(), forged, null), evil.self);
            target.tell(new WireMessage.TaskDone(id, 2, -id, w1.name(), null, "forged refusal"), evil.self);
            sent += 2;
          }
        }
        Thread.sleep(20);
      }
      CliRun done = run.get();
      assertEquals(0, done.exitCode(), done.err());
      assertTrue(sent > 0, "the run ended before its coordinator could be attacked");
      assertTrue(done.err().contains("dropped an answer to task"), done.err());
      assertEquals(expected, Fleet.outcome(out));
      JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
      assertEquals(1, byWorker.size(), byWorker.toString());
    }
  }

  @Test
  void aCertificateHolderCannotStopAWorkerFindItsActorsOrHaveItMeasure() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w3");
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    OpGraph graph = new IrReader().read(fleet.model);
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b);
        Adversary evil = new Adversary(fleet, "w3", seed)) {
      assertTrue(evil.awaitUp(PATIENCE), "the certificate holder did not join");
      ActorRef worker = evil.guardian(w1.address());
      worker.tell(PoisonPill.getInstance(), evil.self);
      worker.tell(Kill.getInstance(), evil.self);
      evil.selection(w1.address(), "/user").tell(new Identify("who"), evil.self);
      for (String path : List.of("/user", "/system", "/system/cluster/core/daemon")) {
        evil.direct(w1.address(), path).tell(new Identify(path), evil.self);
      }
      evil.selection(w1.address(), "/user").tell(PoisonPill.getInstance(), evil.self);
      String sha = RunManifest.sha256(fleet.model);
      String profile;
      try (LatencyBackend sim = Fleet.sim(5, null, graph)) {
        profile = sim.profile();
      }
      int[] allOnCpu = new int[graph.nodeCount()];
      WireMessage.MeasureTask toMe = WireMessage.MeasureTask.prototype(sha, "sim", profile, 5, null,
          List.of("CPU", "GPU.1"), allOnCpu, 1, MeasurementProtocol.PAPER).sent(1, 1, evil.replyAddress(), 9);
      WireMessage.MeasureTask huge = WireMessage.MeasureTask.prototype(sha, "sim", profile, 5, null,
          List.of("CPU", "GPU.1"), allOnCpu, 1, new MeasurementProtocol(0, 2_000_000_000, Statistic.MEDIAN, 1, 0))
          .sent(2, 1, evil.replyAddress(), 9);
      worker.tell(toMe, evil.self);
      worker.tell(huge, evil.self);
      assertNull(evil.next(Duration.ofSeconds(4)), "the worker answered a stranger");
      assertFalse(w1.whenTerminated().toCompletableFuture().isDone(), "the worker stopped");
      // It still measures for a coordinator of the fleet.
      CliRun run = CliRun.of(fleet.tuneArgs(tmp.resolve("after"), "--cluster", seed, "--cluster-tls",
          fleet.certs.resolve("coordinator").toString()).toArray(String[]::new));
      assertEquals(0, run.exitCode(), run.err());
    }
  }
}
