package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.hsdag.cli.CliRun;
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
}
