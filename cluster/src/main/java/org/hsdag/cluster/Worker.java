package org.hsdag.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.remote.artery.ThisActorSystemQuarantinedEvent;
import org.hsdag.cluster.WireMessage.MeasureTask;
import org.hsdag.cluster.WireMessage.TaskDone;

/**
 * A worker's actor: registered with the receptionist under {@link #KEY}, it measures each task it
 * is sent on {@code measuring} (one thread, so one at a time) and answers the task's coordinator.
 */
final class Worker {
  private Worker() {}

  /** What a worker handles. */
  interface Command {}

  static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "hsdag-worker");
  /** Cluster roles starting with this are hardware labels ({@code --label hw=NAME}). */
  static final String LABEL_PREFIX = "hw=";

  private record Measured(MeasureTask task, TaskDone done) implements Command {}

  private record Quarantined(ThisActorSystemQuarantinedEvent event) implements Command {}

  /**
   * @param service measures or refuses tasks
   * @param name how the worker names itself in its answers
   * @param measuring the single thread measurements run on, off the actor's dispatcher
   * @param fatal told why the worker stops on its own (another member quarantined it)
   */
  static Behavior<Command> create(MeasuringService service, String name, Executor measuring, Consumer<String> fatal) {
    return Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
      // Quarantined (e.g. paused for longer than the others waited): it can never talk to them again.
      ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(ThisActorSystemQuarantinedEvent.class,
          ctx.messageAdapter(ThisActorSystemQuarantinedEvent.class, Quarantined::new)));
      ActorRefResolver resolver = ActorRefResolver.get(ctx.getSystem());
      return Behaviors.receive(Command.class)
          .onMessage(MeasureTask.class, t -> {
            if (!fromCoordinator(ctx.getSystem(), resolver, t.replyTo())) {
              // Not measured and not answered: a worker serves only coordinators that are members of its cluster.
              ctx.getLog().warn("dropped task {}: its reply address {} is not a coordinator of this cluster",
                  t.taskId(), t.replyTo());
              return Behaviors.same();
            }
            ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> service.handle(t, name), measuring),
                (done, error) -> new Measured(t, done != null ? done
                    : new TaskDone(t.taskId(), t.attempt(), t.token(), name, null, "worker error: " + error)));
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

  /** Whether {@code replyTo} is an actor on a cluster member (joining or up) with the coordinator role. */
  static boolean fromCoordinator(ActorSystem<?> system, ActorRefResolver resolver, String replyTo) {
    Address at;
    try {
      at = resolver.resolveActorRef(replyTo).path().address();
    } catch (RuntimeException e) {
      return false;
    }
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.address().equals(at) && m.hasRole(PekkoRemoteMeasurement.COORDINATOR_ROLE)
          && (m.status() == MemberStatus.up() || m.status() == MemberStatus.joining()
              || m.status() == MemberStatus.weaklyUp())) {
        return true;
      }
    }
    return false;
  }
}
