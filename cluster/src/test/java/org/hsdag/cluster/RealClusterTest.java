package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.BackendRequest;
import org.hsdag.cli.CliRun;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tune --cluster} on the real runtime: a loopback worker opens the openvino backend as
 * {@code hsdag worker --backend openvino --test-device …} does and measures the search; the
 * coordinator's summary counts the wait for it apart from hsdag's own time.
 */
@Tag("openvino")
@Timeout(300)
class RealClusterTest {
  private static final String TEST_DEVICE = "CPU2:precision=f32";

  @TempDir
  Path tmp;

  @Test
  void aWorkerOnTheRealRuntimeMeasuresATuneAndTheWaitIsNotHsdagsOwnTime() throws Exception {
    RealOpenVino.require();
    Fleet fleet = new Fleet(tmp, "coordinator", "w1");
    MeasuringService.Backends real = (seed, shape, graph, file) -> WorkerCommand.open(
        new BackendRequest("openvino", null, BackendRequest.Mismatch.NONE, seed,
            InputShapeOptions.resolve(shape, graph), List.of(TEST_DEVICE), List.of(), 0),
        null, graph, file);
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    Path out = tmp.resolve("run");
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, real)) {
      CliRun run = CliRun.of("tune", fleet.model.toString(), "--devices", "CPU,CPU2", "--backend", "openvino",
          "--test-device", TEST_DEVICE, "--budget", "3", "--final-rounds", "1", "--seed", "1", "--no-report",
          "--cluster", seed, "--cluster-tls", fleet.certs.resolve("coordinator").toString(), "--out", out.toString());
      assertEquals(0, run.exitCode(), run.out() + run.err());
      String time = run.out().lines().filter(l -> l.startsWith("time: ")).findFirst().orElse("");
      assertTrue(time.contains("waiting for cluster workers"), run.out());
      JsonNode byWorker = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("measurements_by_worker");
      assertEquals(1, byWorker.size(), byWorker::toString);
      byWorker.forEach(n -> assertTrue(n.asInt() > 0, byWorker::toString));
      JsonNode result = Fleet.JSON.readTree(Files.readString(out.resolve("result.json")));
      assertEquals("openvino", result.get("backend").asText(), result::toString);
      assertFalse(result.get("simulated").asBoolean(), result::toString);
    }
  }
}
