package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --objective throughput} on the openvino backend, for real: a short tune with 2 requests in flight. */
@Tag("openvino")
class RealThroughputCliTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
  }

  @Test
  void tuneOnOpenVinoForThroughputWithTwoRequestsRuns() throws IOException {
    Path out = tmp.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2", "--devices",
        "CPU,CPU2", "--objective", "throughput", "--requests", "2", "--budget", "4", "--patience", "0",
        "--final-rounds", "1", "--seed", "3", "--out", out.toString(), "--no-report");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("objective: throughput (2 requests in flight)"), r.out());
    assertTrue(Files.isRegularFile(out.resolve("best.json")), "a result");
    RunObjective saved = RunObjective.read(out);
    assertEquals(Objective.THROUGHPUT, saved.objective());
    assertEquals(2, saved.requested());
    assertTrue(saved.figures().isEmpty(), "no simulated figures beside a real run's");
  }

  @Test
  void applyOnOpenVinoMeasuresASplitsThroughput() throws IOException {
    OpGraph graph = new IrReader().read(model);
    Path placement = tmp.resolve("split.json");
    int[] d = new int[graph.nodeCount()];
    for (int v = 0; v < d.length; v++) {
      d[v] = graph.topologicalRank(v) < d.length / 2 ? 0 : 1;
    }
    PlacementFiles.write(placement, graph, new Placement(DeviceSet.of("CPU", "CPU2"), d));
    CliRun r = CliRun.of("apply", model.toString(), placement.toString(), "--backend", "openvino", "--test-device",
        "CPU2", "--objective", "throughput", "--requests", "2", "--rounds", "1", "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertEquals("openvino", json.get("backend").asText());
    assertFalse(json.get("simulated").asBoolean());
    assertEquals("throughput", json.get("objective").get("objective").asText());
    assertEquals(2, json.get("objective").get("requests").asInt());
    assertTrue(json.get("ok").asBoolean(), r.out());
    assertTrue(json.get("latency_ms").asDouble() > 0, "a time per inference: " + r.out());
  }
}
