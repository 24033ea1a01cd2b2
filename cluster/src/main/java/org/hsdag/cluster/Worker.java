package org.hsdag.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.remote.artery.ThisActorSystemQuarantinedEvent;
import org.hsdag.cluster.WireMessage.MeasureTask;
import org.hsdag.cluster.WireMessage.TaskDone;

/**
 * A worker's actor: registered with the receptionist under {@link #KEY}, it measures each task it
 * is sent by a certified coordinator ({@link CertifiedCoordinators}) on {@code measuring} (one thread, so
 * one at a time) and answers that coordinator.
 */
final class Worker {
  private Worker() {}

  /** What a worker handles. */
  interface Command {}

  static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "hsdag-worker");
  /** Cluster roles starting with this are hardware labels ({@code --label hw=NAME}). */
  static final String LABEL_PREFIX = "hw=";

  /** A sender with no finished TLS handshake yet is asked about again this often, this many times. */
  private static final Duration RECHECK = Duration.ofMillis(200);
  private static final int RECHECKS = 50;

  private record Measured(MeasureTask task, TaskDone done) implements Command {}

  /** A task, the member that sent it, and how often its sender was asked about again. */
  private record Asked(MeasureTask task, org.apache.pekko.actor.ActorRef sender, int tries) implements Command {}

  private record Quarantined(ThisActorSystemQuarantinedEvent event) implements Command {}

  /**
   * @param service measures or refuses tasks
   * @param name how the worker names itself in its answers
   * @param measuring the single thread measurements run on, off the actor's dispatcher
   * @param fatal told why the worker stops on its own (another member quarantined it)
   * @param log told, once per member, whose tasks it drops
   */
  static Behavior<Command> create(MeasuringService service, String name, Executor measuring, Consumer<String> fatal,
      Consumer<String> log) {
    return Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
      // Quarantined (e.g. paused for longer than the others waited): it can never talk to them again.
      ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(ThisActorSystemQuarantinedEvent.class,
          ctx.messageAdapter(ThisActorSystemQuarantinedEvent.class, Quarantined::new)));
      ActorRefResolver resolver = ActorRefResolver.get(ctx.getSystem());
      CertifiedCoordinators asks = new CertifiedCoordinators(ctx.getSystem(), log);
      return Behaviors.receive(Command.class)
          .onMessage(MeasureTask.class, t -> {
            // Artery delivers the sender the asking member wrote; the coordinator sends with itself (send).
            onTask(ctx, asks, service, name, measuring, new Asked(t, Adapter.toClassic(ctx).sender(), 0));
            return Behaviors.same();
          })
          .onMessage(Asked.class, a -> {
            onTask(ctx, asks, service, name, measuring, a);
            return Behaviors.same();
          })
          .onMessage(Quarantined.class, q -> {
            fatal.accept("member " + q.event().remoteAddress().address().hostPort()
                + " quarantined this worker (it was unreachable too long, e.g. paused); it cannot rejoin as it is");
            return Behaviors.stopped();
          })
          .onMessage(Measured.class, m -> {
            ActorRef<Coordinator.Command> coordinator = resolver.resolveActorRef(m.task().replyTo());
            coordinator.tell(m.done());
            return Behaviors.same();
          })
          .build();
    });
  }

  /** Sends {@code task} to {@code worker} with {@code from} as its sender, the member a worker checks. */
  static void send(ActorRef<Command> worker, MeasureTask task, ActorRef<?> from) {
    Adapter.toClassic(worker).tell(task, Adapter.toClassic(from));
  }

  /**
   * Measures a task whose sender is a certified coordinator (and the member its answer goes to); drops any
   * other unanswered. A sender with no finished TLS handshake yet is asked about again shortly.
   */
  private static void onTask(ActorContext<Command> ctx, CertifiedCoordinators asks, MeasuringService service,
      String name, Executor measuring, Asked a) {
    MeasureTask t = a.task();
    switch (asks.check(a.sender(), t.replyTo(), a.tries() >= RECHECKS)) {
      case ACCEPT -> ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> service.handle(t, name), measuring),
          (done, error) -> new Measured(t, done != null ? done
              : new TaskDone(t.taskId(), t.attempt(), t.token(), name, null, "worker error: " + error)));
      case ASK_AGAIN -> ctx.scheduleOnce(RECHECK, ctx.getSelf(), new Asked(t, a.sender(), a.tries() + 1));
      case DROP -> {
        // Not measured and not answered.
      }
    }
  }
}
