package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.CliRun;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Labels route tasks; a missing label is an error, not a wait; a worker stopped mid-task changes nothing. */
@Timeout(600)
class ClusterFaultTest {
  @TempDir
  Path tmp;
  private Fleet fleet;
  private String seed;
  private List<String> expected;

  @BeforeEach
  void localRun() throws Exception {
    fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    CliRun local = CliRun.of(fleet.tuneArgs(tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    expected = Fleet.outcome(tmp.resolve("local"));
    seed = "127.0.0.1:" + Fleet.freePort();
  }

  private String[] clusterTune(Path out, String... extra) {
    List<String> args = fleet.tuneArgs(out, "--cluster", seed, "--cluster-tls",
        fleet.certs.resolve("coordinator").toString());
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  @Test
  void aLabelSendsTasksOnlyToWorkersWithItAndAnAbsentLabelIsAnError() throws Exception {
    try (WorkerNode a = fleet.worker("w1", "hw=alpha", Integer.parseInt(seed.split(":", -1)[1]), seed, b -> b);
        WorkerNode b = fleet.worker("w2", "hw=beta", 0, seed, x -> x)) {
      CliRun run = CliRun.of(clusterTune(tmp.resolve("beta"), "--cluster-label", "hw=beta"));
      assertEquals(0, run.exitCode(), run.err());
      assertEquals(expected, Fleet.outcome(tmp.resolve("beta")));
      JsonNode byWorker = Fleet.JSON.readTree(tmp.resolve("beta/workers.json").toFile()).get("measurements_by_worker");
      assertEquals(List.of(b.name()), List.copyOf(iterable(byWorker)), byWorker.toString());

      CliRun none = CliRun.of(clusterTune(tmp.resolve("gamma"), "--cluster-label", "hw=gamma", "--cluster-wait", "3s"));
      assertEquals(2, none.exitCode(), none.err());
      assertTrue(none.err().contains("no worker with label hw=gamma"), none.err());
    }
  }

  @Test
  void aTaskOfAWorkerStoppedWhileMeasuringIsMeasuredByAnotherWithTheSameResult() throws Exception {
    CountDownLatch measuring = new CountDownLatch(1);
    try (WorkerNode steady = fleet.worker("w1", null, Integer.parseInt(seed.split(":", -1)[1]), seed, b -> b)) {
      WorkerNode stuck = fleet.worker("w2", null, 0, seed, b -> new Stuck(b, measuring));
      try {
        CompletableFuture<CliRun> run = CompletableFuture
            .supplyAsync(() -> CliRun.of(clusterTune(tmp.resolve("stopped"),
                "--cluster-workers", "2")));
        assertTrue(measuring.await(300, TimeUnit.SECONDS), "the stuck worker never got a task");
        stuck.close();
        CliRun done = run.get(300, TimeUnit.SECONDS);
        assertEquals(0, done.exitCode(), done.err());
        assertEquals(expected, Fleet.outcome(tmp.resolve("stopped")));
        JsonNode byWorker = Fleet.JSON.readTree(tmp.resolve("stopped/workers.json").toFile())
            .get("measurements_by_worker");
        assertEquals(List.of(steady.name()), List.copyOf(iterable(byWorker)), byWorker.toString());
      } finally {
        stuck.close();
      }
    }
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A worker's backend that never finishes a measurement: it says it started, then waits until stopped. */
  private static final class Stuck extends org.hsdag.backend.ForwardingBackend implements KeyedMeasurement {
    private final CountDownLatch started;

    Stuck(LatencyBackend delegate, CountDownLatch started) {
      super(delegate);
      this.started = started;
    }

    @Override
    public Measurement measure(OpGraph g, Placement p, MeasurementProtocol protocol) {
      return measure(g, p, protocol, 0);
    }

    @Override
    public Measurement measure(OpGraph g, Placement p, MeasurementProtocol protocol, long key) {
      started.countDown();
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Measurement.failed("stopped", name(), profile());
    }
  }
}
