package org.hsdag.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import org.hsdag.throughput.Objective;
import org.hsdag.tune.RunObjective;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import picocli.CommandLine.Option;

/** The {@code --cluster} picocli mixin of {@code tune} and {@code bench}: measure on a fleet of workers. */
public final class ClusterOptions {
  @Option(names = "--cluster", paramLabel = "HOST:PORT",
      description = "Measure on the workers of the hsdag cluster reached at HOST:PORT (see 'hsdag worker').")
  String cluster;

  @Option(names = "--cluster-label", paramLabel = "hw=NAME",
      description = "Only workers started with this --label measure (default: any worker).")
  String label;

  @Option(names = "--cluster-tls", paramLabel = "DIR",
      description = "This member's certificates from 'hsdag cluster init' (default: $HSDAG_CLUSTER_TLS).")
  Path tlsDir;

  @Option(names = "--cluster-bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "The only address this coordinator listens on (default: ${DEFAULT-VALUE}).")
  String bindHost;

  @Option(names = "--cluster-task-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "A measurement taking longer goes to another worker (at most 3 tries; default: 10m).")
  Duration taskTimeout;

  @Option(names = "--cluster-wait", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "How long to wait for a fitting worker before giving up with an error (default: 30s).")
  Duration workerWait;

  @Option(names = "--cluster-workers", paramLabel = "N", defaultValue = "1",
      description = "Start measuring once N fitting workers are in the cluster (default: ${DEFAULT-VALUE}; more may join later).")
  int minWorkers;

  /** Whether {@code --cluster} was given. */
  public boolean enabled() {
    return cluster != null;
  }

  /** Workers measure one inference's latency; a throughput run must measure locally. */
  public void requireLatency(RunObjective objective) {
    if (enabled() && objective.objective() == Objective.THROUGHPUT) {
      throw new UserInputException("--cluster measures latency only so far; drop --cluster or --objective throughput");
    }
  }

  /**
   * {@code local} itself without {@code --cluster}; else a backend measuring on the cluster's workers.
   *
   * @param modelSha256 the model file's content hash (workers refuse other models)
   * @param workersFile where the cluster backend writes each worker's count on close (null: nowhere)
   * @throws UserInputException when the cluster module is not on the class path or the options are wrong
   */
  public LatencyBackend attach(LatencyBackend local, OpGraph graph, String modelSha256, long seed, String inputShape,
      Consumer<String> notes, Path workersFile) {
    if (cluster == null) {
      return local;
    }
    Path tls = tlsDir != null ? tlsDir : System.getenv("HSDAG_CLUSTER_TLS") == null ? null
        : Path.of(System.getenv("HSDAG_CLUSTER_TLS"));
    if (tls == null) {
      throw new UserInputException("--cluster needs this member's certificates: --cluster-tls DIR (made by "
          + CommandName.line("cluster", "init") + ")");
    }
    if (minWorkers < 1) {
      throw new UserInputException("--cluster-workers must be at least 1 (got " + minWorkers + ")");
    }
    Iterator<RemoteMeasurement> found = ServiceLoader.load(RemoteMeasurement.class).iterator();
    if (!found.hasNext()) {
      throw new UserInputException(
          "--cluster: the cluster module is not on the class path (build it with 'mvn install' "
              + "or run through hsdag.sh)");
    }
    return found.next().connect(new RemoteMeasurement.Request(cluster, label, tls, bindHost,
        taskTimeout != null ? taskTimeout : Duration.ofMinutes(10),
        workerWait != null ? workerWait : Duration.ofSeconds(30), minWorkers, modelSha256, seed,
        inputShape, notes, workersFile), local, graph);
  }
}
