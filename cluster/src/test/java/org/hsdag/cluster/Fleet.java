package org.hsdag.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.Backends;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.models.TinyModels;

/** Test fixture: a fleet's certificates, a model, loopback workers, and the comparison of run folders. */
final class Fleet {
  static final ObjectMapper JSON = new ObjectMapper();

  final Path root;
  final Path certs;
  final Path models;
  final Path model;

  /** Members every test may use: coordinator, w1, w2, w3. */
  private static final List<String> MEMBERS = List.of("coordinator", "w1", "w2", "w3");
  /** Certificates made once per test JVM (a fixture, read only): dozens of keytool runs otherwise dominate. */
  private static Path sharedCerts;

  private static synchronized Path certificates() throws IOException {
    if (sharedCerts == null) {
      Path dir = Files.createTempDirectory("hsdag-fleet");
      new ClusterInit(dir).write(MEMBERS);
      sharedCerts = dir;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
    }
    return sharedCerts;
  }

  private static void deleteTree(Path dir) {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // A temporary folder: the system cleans it eventually.
    }
  }

  Fleet(Path root, String... members) throws IOException {
    this.root = root;
    if (!MEMBERS.containsAll(List.of(members))) {
      throw new IllegalArgumentException("the fixture's members are " + MEMBERS);
    }
    certs = certificates();
    models = root.resolve("models");
    Files.createDirectories(models);
    model = models.resolve("tiny_transformer.xml");
    TinyModels.transformer().writeTo(model, 7);
  }

  static int freePort() throws IOException {
    return Members.freePort();
  }

  /** The simulator exactly as 'tune --backend sim' opens it, seeded by the run. */
  static LatencyBackend sim(long seed, String inputShape, org.hsdag.ir.OpGraph graph) {
    return Backends.open(BackendRequest.of("sim", null).withSeed(seed)
        .withInputShapes(InputShapeOptions.resolve(inputShape, graph)), n -> {});
  }

  /** A worker on loopback with its own lock file (in one JVM, each stands for a machine). */
  WorkerNode worker(String member, String label, int port, String join, UnaryOperator<LatencyBackend> decorate)
      throws InterruptedException {
    return worker(member, label, port, join, (seed, shape, graph, file) -> decorate.apply(sim(seed, shape, graph)));
  }

  /** A worker on loopback measuring with the backends {@code backends} opens. */
  WorkerNode worker(String member, String label, int port, String join, MeasuringService.Backends backends)
      throws InterruptedException {
    return worker(member, label, port, join, backends, line -> System.err.println("hsdag: " + line));
  }

  /** A worker on loopback measuring with the simulator, its notes to {@code log}. */
  WorkerNode worker(String member, int port, String join, java.util.function.Consumer<String> log)
      throws InterruptedException {
    return worker(member, null, port, join, (seed, shape, graph, file) -> sim(seed, shape, graph), log);
  }

  private WorkerNode worker(String member, String label, int port, String join, MeasuringService.Backends backends,
      java.util.function.Consumer<String> log) throws InterruptedException {
    List<String> roles = new ArrayList<>(List.of(WorkerNode.WORKER_ROLE));
    if (label != null) {
      roles.add(label);
    }
    WorkerNode w = WorkerNode.start(ClusterSettings.of("127.0.0.1", port, List.of(join), roles,
        TlsFiles.in(certs.resolve(member))), label, models, root.resolve(member + ".lock"), backends, log);
    if (!w.awaitUp(Duration.ofSeconds(60))) {
      w.close();
      throw new AssertionError("worker " + member + " did not join " + join);
    }
    return w;
  }

  /** The arguments of a short BRKGA tune (it proposes whole populations: batches to spread). */
  List<String> tuneArgs(Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("tune", model.toString(), "--devices", "CPU,GPU.1", "--backend", "sim",
        "--strategy", "brkga", "--seed", "5", "--budget", "40", "--top-k", "3", "--final-rounds", "3", "--no-report",
        "--quiet", "--out", out.toString()));
    args.addAll(List.of(extra));
    return args;
  }

  /** The log's records without wall-clock fields or in-flight markers, best.json, and result.json without wall-clock fields. */
  static List<String> outcome(Path run) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("log.jsonl"))) {
      ObjectNode record = (ObjectNode) JSON.readTree(line);
      // A "measuring" marker says a step was in flight, not what it measured; a fleet measures steps in batches.
      if ("measuring".equals(record.path("type").asText())) {
        continue;
      }
      record.remove(List.of("time", "elapsed_s", "chain"));
      lines.add(record.toString());
    }
    lines.add(Files.readString(run.resolve("best.json")));
    ObjectNode result = (ObjectNode) JSON.readTree(run.resolve("result.json").toFile());
    List<String> clock = new ArrayList<>();
    result.fieldNames().forEachRemaining(f -> {
      if (f.contains("elapsed") || f.contains("time") || f.contains("seconds") || f.equals("run_dir")) {
        clock.add(f);
      }
    });
    result.remove(clock);
    lines.add(result.toString());
    return lines;
  }
}
