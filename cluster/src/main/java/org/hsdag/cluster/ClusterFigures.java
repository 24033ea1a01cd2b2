package org.hsdag.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.BatchMeasurement;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.RemoteMeasurement;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.TinyModels;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.tune.RunManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The cluster's figures on loopback (docs/cluster.md): measurements per second with 1, 2 and 3 workers
 * when each measurement takes an artificial 50 ms (simulator, so the engine's overhead shows), the
 * per-task overhead, and how long a killed worker process takes to be detected and its task re-run.
 * Run: {@code ./hsdag.sh bench cluster-figures [--tasks N]}.
 */
@Command(name = "cluster-figures", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The cluster's speed-up with 1-3 loopback workers and its failure detection (simulator).")
public final class ClusterFigures implements Callable<Integer> {
  private static final Duration MEASURE = Duration.ofMillis(50);

  @Option(names = "--tasks", paramLabel = "N", defaultValue = "120",
      description = "Measurements per timed batch (default: ${DEFAULT-VALUE})")
  int tasks;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (tasks < 1) {
      throw new ParameterException(spec.commandLine(), "--tasks must be at least 1");
    }
    Path root = Files.createTempDirectory("hsdag-cluster-figures");
    new ClusterInit(root.resolve("fleet")).write(List.of("coordinator", "w1", "w2", "w3"));
    Path models = Files.createDirectories(root.resolve("models"));
    Path model = models.resolve("tiny_transformer.xml");
    TinyModels.transformer().writeTo(model, 7);
    OpGraph graph = new IrReader().read(model);
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    List<BatchMeasurement.Task> batch = new ArrayList<>();
    SplittableRandom rng = new SplittableRandom(1);
    for (int i = 0; i < tasks; i++) {
      int[] d = new int[graph.nodeCount()];
      for (int v = 0; v < d.length; v++) {
        d[v] = rng.nextInt(2);
      }
      batch.add(new BatchMeasurement.Task(new Placement(devices, d), rng.nextLong()));
    }
    System.out.printf(Locale.ROOT, "backend sim/paper (SIMULATED numbers), each measurement padded to %d ms; %d tasks; "
        + "loopback, TLS 1.3, mutual authentication%n", MEASURE.toMillis(), tasks);
    String seed = "127.0.0.1:" + Members.freePort();
    List<WorkerNode> workers = new ArrayList<>();
    double single = Double.NaN;
    try {
      for (int n = 1; n <= 3; n++) {
        workers.add(worker(root, "w" + n, n == 1 ? Integer.parseInt(seed.split(":", -1)[1]) : 0, seed, models));
        double seconds = timeBatch(root, seed, graph, model, batch, n);
        double perSecond = tasks / seconds;
        single = n == 1 ? perSecond : single;
        double overheadMs = seconds * 1000 * n / tasks - MEASURE.toMillis();
        System.out.printf(Locale.ROOT,
            "%d worker%s: %.1f measurements/s (ideal %.1f), speed-up %.2fx, overhead %.1f ms per task%n",
            n, n == 1 ? " " : "s", perSecond, n * 1000.0 / MEASURE.toMillis(), perSecond / single, overheadMs);
      }
    } finally {
      workers.forEach(WorkerNode::close);
    }
    detection(root, models, graph, model, batch.get(0));
    return 0;
  }

  private static WorkerNode worker(Path root, String name, int port, String join, Path models)
      throws InterruptedException {
    List<String> roles = List.of(WorkerNode.WORKER_ROLE);
    WorkerNode w = WorkerNode.start(ClusterSettings.of("127.0.0.1", port, List.of(join), roles,
        TlsFiles.in(root.resolve("fleet").resolve(name))), null, models, root.resolve(name + ".lock"),
        (s, shape, g, m) -> new DelayedBackend(sim(s, shape, g), MEASURE));
    if (!w.awaitUp(Duration.ofSeconds(60))) {
      throw new IllegalStateException(name + " did not join");
    }
    return w;
  }

  private static LatencyBackend sim(long seed, String shape, OpGraph g) {
    BackendRequest request = BackendRequest.of("sim", null).withSeed(seed)
        .withInputShapes(InputShapeOptions.resolve(shape, g));
    return org.hsdag.backend.Backends.open(request, n -> {});
  }

  /** Seconds for a fresh coordinator to have {@code batch} measured (after it found its workers). */
  private static double timeBatch(Path root, String seed, OpGraph graph, Path model, List<BatchMeasurement.Task> batch,
      int n)
      throws Exception {
    try (LatencyBackend local = sim(3, null, graph);
        ClusterBackend cluster = connect(root, seed, graph, model, local, Duration.ofMinutes(10), n)) {
      cluster.measureAll(graph, batch.subList(0, Math.min(30, batch.size())), MeasurementProtocol.PAPER); // warm-up
      long t = System.nanoTime();
      cluster.measureAll(graph, batch, MeasurementProtocol.PAPER);
      return (System.nanoTime() - t) / 1e9;
    }
  }

  private static ClusterBackend connect(Path root, String seed, OpGraph graph, Path model, LatencyBackend local,
      Duration taskTimeout, int workers) throws Exception {
    RemoteMeasurement.Request r = new RemoteMeasurement.Request(seed, null, root.resolve("fleet/coordinator"),
        "127.0.0.1",
        taskTimeout, Duration.ofSeconds(60), workers, RunManifest.sha256(model), 3, null, line -> {}, null);
    return (ClusterBackend) new PekkoRemoteMeasurement().connect(r, local, graph);
  }

  /**
   * A worker process that hangs on its task is killed (destroyForcibly): the time until that task
   * has been measured by the other worker is failure detection plus the re-run.
   */
  private static void detection(Path root, Path models, OpGraph graph, Path model, BatchMeasurement.Task task)
      throws Exception {
    String seed = "127.0.0.1:" + Members.freePort();
    try (WorkerNode steady = worker(root, "w1", Integer.parseInt(seed.split(":", -1)[1]), seed, models);
        LatencyBackend local = sim(3, null, graph)) {
      Process hung = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), "org.hsdag.cli.Main", "worker", "--join", seed, "--tls",
          root.resolve("fleet/w2").toString(), "--models", models.toString(), "--lock",
          root.resolve("w2.lock").toString(),
          "--backend", "sim", "--extra-time", "1h").redirectErrorStream(true)
          .redirectOutput(root.resolve("w2.txt").toFile()).start();
      try (ClusterBackend cluster = connect(root, seed, graph, model, local, Duration.ofHours(1), 2)) {
        while (cluster.census()[0] < 2) {
          Thread.sleep(100);
        }
        // Two tasks, two idle workers: one task goes to the worker that hangs.
        var result = new java.util.concurrent.CompletableFuture<Long>();
        Thread measuring = new Thread(() -> {
          cluster.measureAll(graph, List.of(task, new BatchMeasurement.Task(task.placement(), task.key() + 1)),
              MeasurementProtocol.PAPER);
          result.complete(System.nanoTime());
        });
        measuring.start();
        while (cluster.census()[1] < 2) {
          Thread.sleep(10);
        }
        long killed = System.nanoTime();
        hung.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        long done = result.get(5, TimeUnit.MINUTES);
        System.out.printf(Locale.ROOT, "worker process killed mid-task: detected and its task re-run in %.1f s "
            + "(failure detector: acceptable heartbeat pause 3 s)%n", (done - killed) / 1e9);
      } finally {
        hung.destroyForcibly();
      }
    }
  }

}
