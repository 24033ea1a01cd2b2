package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker that refuses every task (another profile) under the run's label: alone, the run fails
 * (exit 1) saying so and why; beside a good worker, it is not asked again and the run equals the
 * local one.
 */
@Timeout(600)
class ClusterRefusalTest {
  @TempDir
  Path tmp;

  @Test
  void aRefusingWorkerIsNotAskedAgainAndARunWithNothingMeasuredFails() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    List<String> expected = Fleet.outcome(tmp.resolve("local"));
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    String[] cluster = {"--cluster", seed, "--cluster-tls", fleet.certs.resolve("coordinator").toString(),
        "--cluster-label", "hw=a"};
    try (WorkerNode refuser = fleet.worker("w2", "hw=a", port, seed, OtherProfile::new)) {
      List<String> alone = fleet.tuneArgs(tmp.resolve("alone"), cluster);
      alone.remove("--quiet");
      CliRun failed = CliRun.of(alone.toArray(String[]::new));
      assertEquals(1, failed.exitCode(), failed.err());
      assertTrue(failed.err().contains("measurements failed"), failed.err());
      assertTrue(failed.err().contains("this worker measures with sim/other"), failed.err());
      try (WorkerNode good = fleet.worker("w1", "hw=a", 0, seed, b -> new DelayedBackend(b, Duration.ofMillis(20)))) {
        Path out = tmp.resolve("mixed");
        List<String> args = fleet.tuneArgs(out, cluster);
        args.addAll(List.of("--cluster-workers", "2"));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(expected, Fleet.outcome(out));
        assertTrue(Files.readAllLines(out.resolve("log.jsonl")).stream().noneMatch(l -> l.contains("refused")),
            "a failed measurement in the log");
        JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
        assertEquals(List.of(good.name()), List.copyOf(iterable(byWorker)), byWorker.toString());
      }
    }
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** The simulator under another profile name: a worker with it refuses the run's tasks. */
  private static final class OtherProfile extends ForwardingBackend {
    OtherProfile(LatencyBackend delegate) {
      super(delegate);
    }

    @Override
    public String profile() {
      return "other";
    }
  }
}
