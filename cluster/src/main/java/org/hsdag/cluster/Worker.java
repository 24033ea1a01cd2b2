package org.hsdag.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
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

  /**
   * @param service measures or refuses tasks
   * @param name how the worker names itself in its answers
   * @param measuring the single thread measurements run on, off the actor's dispatcher
   */
  static Behavior<Command> create(MeasuringService service, String name, Executor measuring) {
    return Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
      ActorRefResolver resolver = ActorRefResolver.get(ctx.getSystem());
      return Behaviors.receive(Command.class)
          .onMessage(MeasureTask.class, t -> {
            ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> service.handle(t, name), measuring),
                (done, error) -> new Measured(t, done != null ? done
                    : new TaskDone(t.taskId(), t.attempt(), name, null, "worker error: " + error)));
            return Behaviors.same();
          })
          .onMessage(Measured.class, m -> {
            ActorRef<Coordinator.Command> coordinator = resolver.resolveActorRef(m.task().replyTo());
            coordinator.tell(m.done());
            return Behaviors.same();
          })
          .build();
    });
  }
}
