package org.hsdag.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/** Starting and stopping the actor system of a member. */
final class Members {
  private Members() {}

  /**
   * Starts a member: its inbound front (TLS members, {@link InboundFront}), then its actor system behind it.
   * The front closes when the system has terminated.
   *
   * @param log where the front reports the connections it closed
   */
  static <T> ActorSystem<T> create(Behavior<T> behavior, ClusterSettings settings,
      java.util.function.Consumer<String> log) {
    InboundFront front = settings.openFront(log);
    try {
      ActorSystem<T> system = ActorSystem.create(behavior, settings.systemName(), settings.toConfig(front));
      if (front != null) {
        system.getWhenTerminated().thenRun(front::close);
      }
      return system;
    } catch (RuntimeException e) {
      if (front != null) {
        front.close();
      }
      throw e;
    }
  }

  /** Stops {@code system} (leaving the cluster first) and waits up to {@code patience} for it. */
  static void stop(ActorSystem<?> system, Duration patience) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(patience.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Terminating is best effort: the process is ending anyway.
    }
  }

  /** The address other members reach {@code system} at, as HOST:PORT. */
  static String hostPort(ActorSystem<?> system) {
    String hp = system.address().hostPort();
    return hp.substring(hp.indexOf('@') + 1);
  }

  /** Whether {@code system} became an Up member of the cluster within {@code patience}. */
  static boolean awaitUp(ActorSystem<?> system, Duration patience) throws InterruptedException {
    CompletableFuture<Void> up = new CompletableFuture<>();
    org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up.complete(null));
    try {
      up.get(patience.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** A free port on loopback (for a first member that others join). */
  static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
