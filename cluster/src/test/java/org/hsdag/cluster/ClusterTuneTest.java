package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Members in one JVM on loopback, over TLS: a tune measured by 1, 2 or 3 workers equals the one measured locally. */
@Timeout(600)
class ClusterTuneTest {
  @TempDir
  Path tmp;

  @Test
  void sameResultsWithoutTheClusterAndWithOneTwoAndThreeWorkers() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2", "w3");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    List<String> expected = Fleet.outcome(tmp.resolve("local"));
    String seed = "127.0.0.1:" + Fleet.freePort();
    try (WorkerNode w1 = fleet.worker("w1", null, Integer.parseInt(seed.split(":", -1)[1]), seed, b -> b)) {
      assertSameRun(fleet, seed, "one", expected, 1);
      try (WorkerNode w2 = fleet.worker("w2", null, 0, seed, b -> b)) {
        assertSameRun(fleet, seed, "two", expected, 2);
        try (WorkerNode w3 = fleet.worker("w3", null, 0, seed, b -> b)) {
          assertSameRun(fleet, seed, "three", expected, 3);
        }
      }
    }
  }

  private void assertSameRun(Fleet fleet, String seed, String name, List<String> expected, int workers)
      throws Exception {
    Path out = tmp.resolve(name);
    CliRun run = CliRun.of(fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
        fleet.certs.resolve("coordinator").toString(), "--cluster-workers", String.valueOf(workers))
        .toArray(String[]::new));
    assertEquals(0, run.exitCode(), run.err());
    List<String> got = Fleet.outcome(out);
    for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
      assertEquals(expected.get(i), got.get(i), name + ": line " + (i + 1) + " differs from the local run");
    }
    assertEquals(expected.size(), got.size(), name + ": number of lines");
    JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
    assertEquals(workers, byWorker.size(), () -> name + ": " + byWorker);
    byWorker.forEach(n -> assertTrue(n.asInt() > 0, () -> name + ": a worker measured nothing: " + byWorker));
    CliRun report = CliRun.of("report", out.toString());
    assertEquals(0, report.exitCode(), report.err());
    String md = java.nio.file.Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("Measured by " + workers + " cluster worker"), md);
  }
}
