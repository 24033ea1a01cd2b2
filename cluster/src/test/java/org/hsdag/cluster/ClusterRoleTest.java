package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.ActorRef;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.CliRun;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A member's role is the one its certificate carries, not the one it declares on joining. */
@Timeout(600)
class ClusterRoleTest {
  @TempDir
  Path tmp;

  @Test
  void aCoordinatorCertificateJoiningAsAWorkerIsNeverSentATask() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    AtomicInteger pretenderOpened = new AtomicInteger();
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b);
        WorkerNode pretender = fleet.worker("coordinator", null, 0, seed, (s, shape, graph, file) -> {
          pretenderOpened.incrementAndGet();
          return Fleet.sim(s, shape, graph);
        })) {
      Path out = tmp.resolve("cluster");
      List<String> args = new ArrayList<>(fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
          fleet.certs.resolve("coordinator").toString()));
      args.remove("--quiet"); // the coordinator's notes name the member
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, run.exitCode(), run.err());
      assertEquals(0, pretenderOpened.get(), "a member with a coordinator's certificate was sent a task");
      assertTrue(run.err().contains("member " + pretender.address() + " joined"), run.err());
      assertTrue(run.err().contains("joined as a worker but its certificate is a coordinator's"), run.err());
      assertEquals(Files.readString(tmp.resolve("local/best.json")), Files.readString(out.resolve("best.json")));
      JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
      assertEquals(1, byWorker.size(), byWorker.toString());
      assertTrue(byWorker.fieldNames().next().endsWith(w1.address()), byWorker.toString());
    }
  }

  @Test
  void aWorkerMeasuresOnlyForTheMemberThatAsksWhenItsCertificateIsACoordinators() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w3");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    Queue<String> notes = new ConcurrentLinkedQueue<>();
    String coordinatorRole = PekkoRemoteMeasurement.COORDINATOR_ROLE;
    try (WorkerNode w1 = fleet.worker("w1", port, seed, notes::add);
        // Two holders of a worker's certificate that declare the coordinator role, and a coordinator's certificate.
        Adversary pretender = new Adversary(fleet, "w3", seed, coordinatorRole);
        Adversary spoofer = new Adversary(fleet, "w3", seed, coordinatorRole);
        Adversary certified = new Adversary(fleet, "coordinator", seed, coordinatorRole)) {
      for (Adversary a : List.of(pretender, spoofer, certified)) {
        assertTrue(a.awaitUp(Duration.ofSeconds(60)), "a member did not join");
      }
      OpGraph graph = new IrReader().read(fleet.model);
      String sha = RunManifest.sha256(fleet.model);
      String profile;
      try (LatencyBackend sim = Fleet.sim(5, null, graph)) {
        profile = sim.profile();
      }
      WireMessage.MeasureTask task = WireMessage.MeasureTask.prototype(sha, "sim", profile, 5, null,
          List.of("CPU", "GPU.1"), new int[graph.nodeCount()], 1, MeasurementProtocol.PAPER);
      ActorRef worker = pretender.guardian(w1.address());
      for (int i = 1; i <= 3; i++) {
        worker.tell(task.sent(i, 1, pretender.replyAddress(), 9), pretender.self);
      }
      // On behalf of the certified member (its reply address), and that member's own task without a sender.
      spoofer.guardian(w1.address()).tell(task.sent(4, 1, certified.replyAddress(), 9), spoofer.self);
      ActorRef viaCertified = certified.guardian(w1.address());
      viaCertified.tell(task.sent(5, 1, certified.replyAddress(), 9), ActorRef.noSender());
      assertNull(pretender.next(Duration.ofSeconds(4)), "the worker answered a worker's certificate");
      assertNull(spoofer.next(Duration.ZERO), "the worker answered a worker's certificate");
      // What the member with a coordinator's certificate asks itself is measured and answered: only that one.
      viaCertified.tell(task.sent(6, 1, certified.replyAddress(), 9), certified.self);
      Object answer = certified.next(Duration.ofSeconds(60));
      WireMessage.TaskDone done = assertInstanceOf(WireMessage.TaskDone.class, answer);
      assertEquals(6, done.taskId());
      assertNotNull(done.measurement(), String.valueOf(done.refusal()));
      assertNull(certified.next(Duration.ofSeconds(2)), "a task not sent by its reply address was answered");
      List<String> lines = List.copyOf(notes);
      assertEquals(3, count(lines, "its tasks are dropped unanswered"), lines.toString()); // each named once
      assertEquals(1, count(lines, "member " + pretender.address() + " sent a task but its certificate is a worker's"),
          lines.toString());
      assertEquals(1, count(lines, "member " + spoofer.address() + " sent a task to be answered to another member ("
          + certified.address() + ")"), lines.toString());
      assertEquals(1, count(lines, "member " + certified.address() + " is the reply address of a task that came "
          + "without a sender"), lines.toString());
      // The fleet's coordinator is served as before.
      Path out = tmp.resolve("cluster");
      CliRun run = CliRun.of(fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
          fleet.certs.resolve("coordinator").toString()).toArray(String[]::new));
      assertEquals(0, run.exitCode(), run.err());
      assertEquals(Files.readString(tmp.resolve("local/best.json")), Files.readString(out.resolve("best.json")));
      JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
      assertTrue(byWorker.fieldNames().next().endsWith(w1.address()), byWorker.toString());
    }
  }

  private static long count(List<String> lines, String part) {
    return lines.stream().filter(l -> l.contains(part)).count();
  }
}
