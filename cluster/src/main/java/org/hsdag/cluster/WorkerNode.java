package org.hsdag.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A running worker: a cluster member with the {@code worker} role (and its label role), whose
 * {@link Worker} actor measures on one thread through a {@link MeasuringService}.
 */
public final class WorkerNode implements AutoCloseable {
  static final String WORKER_ROLE = "worker";

  private final ActorSystem<Worker.Command> system;
  private final ExecutorService measuring;
  private final MeasuringService service;
  private final String name;
  private final AtomicReference<String> stoppedBecause;

  private WorkerNode(ActorSystem<Worker.Command> system, ExecutorService measuring, MeasuringService service,
      String name, AtomicReference<String> stoppedBecause) {
    this.system = system;
    this.measuring = measuring;
    this.service = service;
    this.name = name;
    this.stoppedBecause = stoppedBecause;
  }

  /**
   * Starts a worker member (it joins {@code settings}' seed nodes in the background).
   *
   * @param label {@code hw=NAME}, or null
   * @param modelsDir where the worker finds models by content hash
   * @param lockFile the machine-wide file whose lock makes measurements on this machine one at a time
   */
  static WorkerNode start(ClusterSettings settings, String label, Path modelsDir, Path lockFile,
      MeasuringService.Backends backends) {
    return start(settings, label, modelsDir, lockFile, backends, line -> System.err.println("hsdag: " + line));
  }

  /** As above, with the worker's notes (connections its front closed, members whose tasks it drops) to {@code log}. */
  static WorkerNode start(ClusterSettings settings, String label, Path modelsDir, Path lockFile,
      MeasuringService.Backends backends, java.util.function.Consumer<String> log) {
    MeasuringService service = new MeasuringService(modelsDir, lockFile, backends);
    ExecutorService measuring = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hsdag-worker-measure");
      t.setDaemon(true);
      return t;
    });
    AtomicReference<String> why = new AtomicReference<>();
    ActorSystem<Worker.Command> system = Members.create(Behaviors.setup(
        // The port may be chosen by the system (0): the worker is named by the address it got.
        ctx -> Worker.create(service, nameOf(label, ctx.getSystem()), measuring, why::set, log)), settings, log);
    return new WorkerNode(system, measuring, service, nameOf(label, system), why);
  }

  private static String nameOf(String label, ActorSystem<?> system) {
    return label == null ? Members.hostPort(system) : label + "@" + Members.hostPort(system);
  }

  /** The worker's label and address. */
  public String name() {
    return name;
  }

  /** HOST:PORT other members reach this worker at. */
  public String address() {
    return Members.hostPort(system);
  }

  /** Whether it became a cluster member within {@code patience}. */
  public boolean awaitUp(Duration patience) throws InterruptedException {
    return Members.awaitUp(system, patience);
  }

  /** {Up members, unreachable members} in this member's view of the cluster. */
  int[] membership() {
    var state = org.apache.pekko.cluster.typed.Cluster.get(system).state();
    int up = 0;
    for (org.apache.pekko.cluster.Member m : state.getMembers()) {
      up += m.status() == org.apache.pekko.cluster.MemberStatus.up() ? 1 : 0;
    }
    return new int[] {up, state.getUnreachable().size()};
  }

  /** Why the worker stopped on its own (quarantined by another member), or null. */
  public String stoppedBecause() {
    return stoppedBecause.get();
  }

  /** Completes when the member stops: closed, or removed from the cluster by the coordinator. */
  public CompletionStage<Done> whenTerminated() {
    return system.getWhenTerminated();
  }

  /** Leaves the cluster and stops; a task being measured is abandoned (the coordinator gives it to another worker). */
  @Override
  public void close() {
    Members.stop(system, Duration.ofSeconds(15));
    measuring.shutdownNow();
    try {
      // The backend is closed only once no measurement runs on it.
      if (measuring.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
        service.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
