package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.backend.BatchMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.RemoteMeasurement;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 300 idle TCP connections that never start TLS (scaled down from the 5,000 of the manual check in
 * docs/cluster.md) do not stop a worker from measuring for its coordinator, with the same results, and its
 * {@link InboundFront} closes them all: over its cap of pending connections at once, the rest at the
 * deadline (short ones here).
 */
@Timeout(600)
class ClusterSocketsTest {
  private static final int IDLE = 300;
  private static final FrontLimits LIMITS = new FrontLimits(Duration.ofSeconds(1), Duration.ofSeconds(2), 32, 1024,
      256, 256, Duration.ofSeconds(60), 32);

  @TempDir
  Path tmp;

  @Test
  void idleSocketsThatNeverStartTlsDoNotStopAWorkerServing() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1");
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    OpGraph graph = new IrReader().read(fleet.model);
    try (WorkerNode w1 = WorkerNode.start(ClusterSettings.of("127.0.0.1", port, List.of(seed),
        List.of(WorkerNode.WORKER_ROLE), TlsFiles.in(fleet.certs.resolve("w1"))).withFront(LIMITS), null,
        fleet.models, tmp.resolve("w1.lock"), (s, shape, g, m) -> Fleet.sim(s, shape, g));
        LatencyBackend local = Fleet.sim(5, null, graph)) {
      assertTrue(w1.awaitUp(Duration.ofSeconds(60)));
      RemoteMeasurement.Request r = new RemoteMeasurement.Request(seed, null, fleet.certs.resolve("coordinator"),
          "127.0.0.1", Duration.ofMinutes(5), Duration.ofSeconds(60), 1, RunManifest.sha256(fleet.model), 5, null,
          line -> {}, null);
      try (ClusterBackend cluster = (ClusterBackend) new PekkoRemoteMeasurement().connect(r, local, graph)) {
        List<BatchMeasurement.Task> batch = batch(graph);
        List<Double> before = latencies(cluster.measureAll(graph, batch, MeasurementProtocol.PAPER));
        List<Socket> idle = new ArrayList<>();
        try {
          for (int i = 0; i < IDLE; i++) {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            idle.add(s);
          }
          assertEquals(before, latencies(cluster.measureAll(graph, batch, MeasurementProtocol.PAPER)));
          for (int i = 0; i < IDLE; i++) {
            assertTrue(closedByWorker(idle.get(i)), "idle socket " + i + " closed by the worker");
          }
          assertEquals(before, latencies(cluster.measureAll(graph, batch, MeasurementProtocol.PAPER)));
        } finally {
          for (Socket s : idle) {
            s.close();
          }
        }
      }
    }
  }

  private static boolean closedByWorker(Socket s) throws java.io.IOException {
    s.setSoTimeout(30_000);
    try {
      return s.getInputStream().read() < 0;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (java.io.IOException e) {
      return true;
    }
  }

  private static List<BatchMeasurement.Task> batch(OpGraph graph) {
    SplittableRandom rng = new SplittableRandom(3);
    List<BatchMeasurement.Task> tasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int[] d = new int[graph.nodeCount()];
      for (int v = 0; v < d.length; v++) {
        d[v] = rng.nextInt(2);
      }
      tasks.add(new BatchMeasurement.Task(new Placement(DeviceSet.of("CPU", "GPU.1"), d), rng.nextLong()));
    }
    return tasks;
  }

  private static List<Double> latencies(List<Measurement> ms) {
    return ms.stream().map(Measurement::latencyMillis).toList();
  }
}
