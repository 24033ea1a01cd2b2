package org.hsdag.cluster;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cli.BackendOptions;
import org.hsdag.cli.DurationConverter;
import org.hsdag.cli.ExitCodes;
import org.hsdag.cli.InputShapeOptions;
import org.hsdag.cli.Session;
import org.hsdag.cli.TuneBackends;
import org.hsdag.cli.UserInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hsdag worker}: a cluster member that measures what coordinators ({@code tune/bench --cluster}) send it. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = {
        "Join an hsdag cluster and measure placements for 'tune --cluster' and 'bench --cluster', one at a time.",
        "Models are found by content hash under --models; a task for another model, backend or device set is refused."},
    footer = {"", "Example (first machine, then every other one):",
        "  hsdag worker --tls fleet/m1 --bind 10.0.0.1:25520 --join 10.0.0.1:25520 --label hw=laptop",
        "  hsdag worker --tls fleet/m2 --bind 10.0.0.2:25520 --join 10.0.0.1:25520 --label hw=laptop"})
public final class WorkerCommand implements Callable<Integer> {
  @Option(names = "--join", required = true, paramLabel = "HOST:PORT",
      description = "A member of the cluster to join (the first worker names its own --bind address).")
  String join;

  @Option(names = "--bind", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0",
      description = "The only address this worker listens on (default: ${DEFAULT-VALUE}, any free port on loopback).")
  String bind;

  @Option(names = "--label", paramLabel = "hw=NAME",
      description = "Hardware label: 'tune --cluster-label hw=NAME' sends only here.")
  String label;

  @Option(names = "--tls", paramLabel = "DIR",
      description = "This member's folder from 'hsdag cluster init' (default: $HSDAG_CLUSTER_TLS).")
  Path tlsDir;

  @Option(names = "--models", paramLabel = "DIR", defaultValue = ".",
      description = "Where this worker finds model files (by content hash; default: the current folder).")
  Path models;

  @Option(names = "--lock", paramLabel = "FILE",
      description = "The machine-wide lock file that keeps workers on one machine from measuring at once "
          + "(default: hsdag-worker.lock in the temporary folder).")
  Path lock;

  @Option(names = "--join-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Give up when not a cluster member after this long (default: 60s).")
  Duration joinTimeout;

  @Option(names = "--extra-time", paramLabel = "DURATION", converter = DurationConverter.class, hidden = true,
      description = "Add this much wall time to every measurement (to study the cluster's overhead; numbers unchanged).")
  Duration extraTime;

  @Mixin
  BackendOptions backendOptions;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (label != null && !label.matches(Worker.LABEL_PREFIX + "[A-Za-z0-9._-]+")) {
      throw new UserInputException("--label: expected hw=NAME (letters, digits, '.', '_', '-'), got '" + label + "'");
    }
    ClusterSettings.HostPort at = ClusterSettings.parseHostPort(bind, "--bind");
    ClusterSettings.requireReachable(at.host(), "--bind");
    ClusterSettings.HostPort seed = ClusterSettings.parseHostPort(join, "--join");
    Path tls = tlsDir != null ? tlsDir : System.getenv("HSDAG_CLUSTER_TLS") == null ? null
        : Path.of(System.getenv("HSDAG_CLUSTER_TLS"));
    if (tls == null) {
      throw new UserInputException("a worker needs its certificates: --tls DIR (made by 'hsdag cluster init')");
    }
    List<String> roles = new ArrayList<>(List.of(WorkerNode.WORKER_ROLE));
    if (label != null) {
      roles.add(label);
    }
    Path lockFile = lock != null ? lock : Path.of(System.getProperty("java.io.tmpdir"), "hsdag-worker.lock");
    PrintWriter err = spec.commandLine().getErr();
    TlsFiles files = TlsFiles.forRole(tls, CertificateRoles.Role.WORKER, "--tls");
    ClusterSettings settings = ClusterSettings.of(at.host(), at.port(), List.of(seed.toString()), roles, files);
    WorkerNode node = WorkerNode.start(settings, label, models, lockFile, this::openBackend, line -> {
      err.println("hsdag: " + line);
      err.flush();
    });
    // Pekko's own JVM hook leaves the cluster on Ctrl-C/SIGTERM; this one then stops the measuring thread.
    Thread leave = new Thread(node::close, "hsdag-worker-leave");
    Runtime.getRuntime().addShutdownHook(leave);
    Duration patience = joinTimeout != null ? joinTimeout : Duration.ofSeconds(60);
    if (!node.awaitUp(patience)) {
      node.close();
      err.println("hsdag: worker could not join " + join + " within " + patience.toSeconds() + " s: "
          + JoinProbe.workerCause(seed, files));
      return ExitCodes.FAILURE;
    }
    err.println("hsdag: worker " + node.name() + " joined the cluster at " + join + "; measuring with backend "
        + backendOptions.backend() + " (Ctrl-C leaves the cluster)");
    err.flush();
    try {
      node.whenTerminated().toCompletableFuture().get();
    } catch (ExecutionException e) {
      // Terminated is all that matters.
    }
    err.println(node.stoppedBecause() != null
        ? "hsdag: worker " + node.name() + " stopped: " + node.stoppedBecause() + "; restart it to rejoin"
        : "hsdag: worker " + node.name() + " left the cluster (stopped, or removed after being unreachable: "
            + "restart it to rejoin)");
    return ExitCodes.FAILURE;
  }

  /**
   * The backend of one task's model, opened as every command opens its session (bound to the model
   * file the task names); the worker node closes it.
   */
  private LatencyBackend openBackend(long seed, String inputShape, org.hsdag.ir.OpGraph graph, Path model) {
    return open(backendOptions.request(seed, InputShapeOptions.resolve(inputShape, graph)), extraTime, graph, model);
  }

  /** The backend a worker measures {@code graph} (read from {@code model}) with, as {@code request} asks. */
  static LatencyBackend open(BackendRequest request, Duration extraTime, org.hsdag.ir.OpGraph graph, Path model) {
    Session session = Session.of(graph, request).binding((b, g) -> {
      TuneBackends.bind(b, g, model);
      return g;
    }).open();
    LatencyBackend b = session.backend();
    return extraTime == null ? b : new DelayedBackend(b, extraTime);
  }
}
