package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.CliRun;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One member with a valid worker certificate answers every task with consistent fake figures (its samples scaled
 * to a 0.5 ms latency: they pass the answer check). Its figures never count alone: the run equals the one measured
 * locally (log, best.json, result.json) and names the rogue — settled by two honest workers, or by the
 * coordinator's own measurement when the rogue's only peer is one honest worker.
 */
@Timeout(600)
class ClusterRogueTest {
  @TempDir
  Path tmp;

  @Test
  void aRogueWorkerCannotChangeTheResultAndIsNamed() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2", "w3");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    List<String> expected = Fleet.outcome(tmp.resolve("local"));
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    try (WorkerNode rogue = fleet.worker("w3", null, port, seed, Rogue::new);
        WorkerNode honest = fleet.worker("w1", null, 0, seed, b -> b)) {
      assertSameRunNamingTheRogue(fleet, seed, "two", expected, rogue.name());
    }
    int port2 = Fleet.freePort();
    String seed2 = "127.0.0.1:" + port2;
    try (WorkerNode rogue = fleet.worker("w3", null, port2, seed2, Rogue::new);
        WorkerNode w1 = fleet.worker("w1", null, 0, seed2, b -> b);
        WorkerNode w2 = fleet.worker("w2", null, 0, seed2, b -> b)) {
      assertSameRunNamingTheRogue(fleet, seed2, "three", expected, rogue.name());
    }
  }

  private void assertSameRunNamingTheRogue(Fleet fleet, String seed, String name, List<String> expected,
      String rogue) throws Exception {
    Path out = tmp.resolve(name);
    CliRun run = CliRun.of(fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
        fleet.certs.resolve("coordinator").toString(), "--cluster-workers", name.equals("two") ? "2" : "3")
        .toArray(String[]::new));
    assertEquals(0, run.exitCode(), run.err());
    assertEquals(expected, Fleet.outcome(out), name + ": the run differs from the local one");
    JsonNode excluded = Fleet.JSON.readTree(out.resolve("workers.json").toFile()).get("excluded_workers");
    assertEquals(List.of(rogue), iterable(excluded), name + ": " + excluded);
    CliRun report = CliRun.of("report", out.toString());
    assertEquals(0, report.exitCode(), report.err());
    String md = java.nio.file.Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("Excluded, their figures disagreeing with the others' beyond the noise: `" + rogue + "`"),
        md);
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** The test hook: every measurement's samples scaled so that its latency is 0.5 ms. */
  private static final class Rogue extends ForwardingBackend implements KeyedMeasurement {
    Rogue(LatencyBackend delegate) {
      super(delegate);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      return fake(delegate.measure(graph, placement, protocol), protocol);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol, long key) {
      Optional<KeyedMeasurement> keyed = delegate.capability(KeyedMeasurement.class);
      return fake(keyed.isPresent() ? keyed.get().measure(graph, placement, protocol, key)
          : delegate.measure(graph, placement, protocol), protocol);
    }

    private static Measurement fake(Measurement m, MeasurementProtocol protocol) {
      if (!m.ok()) {
        return m;
      }
      double scale = 0.5 / m.latencyMillis();
      double[] samples = Arrays.stream(m.samplesMillis()).map(x -> x * scale).toArray();
      return Measurement.of(samples, protocol, m.subModels(), m.backend(), m.profile());
    }

    @Override
    public <T> Optional<T> capability(Class<T> type) {
      return type == KeyedMeasurement.class ? Optional.of(type.cast(this)) : super.capability(type);
    }
  }
}
