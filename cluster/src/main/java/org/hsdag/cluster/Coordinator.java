package org.hsdag.cluster;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Subscribe;
import org.hsdag.backend.BackendUnavailableException;
import org.hsdag.backend.Measurement;
import org.hsdag.cluster.WireMessage.MeasureTask;
import org.hsdag.cluster.WireMessage.TaskDone;

/**
 * Hands tasks to idle workers (the receptionist's {@link Worker#KEY} listing, filtered by label
 * role), one task per worker at a time, with a deadline each. A task whose worker refuses it, dies,
 * becomes unreachable (and is then downed) or misses the deadline goes to another worker; after
 * {@value #MAX_TRIES} tries it is a failed measurement. A late answer to an abandoned try is
 * dropped, so nothing is counted twice. Pending tasks with no fitting worker for {@code workerWait}
 * fail their batch with a {@link BackendUnavailableException} rather than wait forever.
 *
 * <p>An answer counts only when it carries the random token of the try it answers, which only the
 * worker that try was sent to has seen (tasks travel over mutually authenticated TLS); anything
 * else — a forged or replayed answer from another certificate holder — is dropped and noted, and
 * frees no worker. A measurement must also pass {@link AnswerCheck}. A worker that refuses a kind
 * of task (model, backend, profile, devices, input shape) is not offered that kind again while
 * another fitting worker that has not refused it is in the cluster. A listed worker is used only when its
 * certificate says worker ({@link CertifiedWorkers}), whatever role it declared.
 */
final class Coordinator extends AbstractBehavior<Coordinator.Command> {
  static final int MAX_TRIES = 3;
  private static final Duration ACTIVITY_EVERY = Duration.ofSeconds(10);
  /** Dropped answers noted one by one before they are only counted. */
  private static final int NOTED_DROPS = 5;

  /** What the coordinator handles. */
  interface Command {}

  /**
   * Measure {@code tasks} (prototypes: id, attempt and reply address are filled in here).
   *
   * @param done completed with one {@link Result} per task, in order
   */
  record Submit(List<MeasureTask> tasks, CompletableFuture<List<Result>> done) implements Command {}

  /** Completed with the number of fitting workers once there are at least {@code count}. */
  record AwaitWorkers(int count, CompletableFuture<Integer> done) implements Command {}

  /** Completed with {workers, busy workers}. */
  record Census(CompletableFuture<int[]> done) implements Command {}

  /**
   * One task's outcome.
   *
   * @param measurement the measurement (a failed one after {@value #MAX_TRIES} tries)
   * @param worker who measured it, or null
   * @param disputed when members disagreed and none was left to settle it: their answers (the coordinator
   *     measures itself and excludes those that disagree with it), else null
   */
  record Result(Measurement measurement, String worker, List<Quorum.Opinion> disputed) {
    Result(Measurement measurement, String worker) {
      this(measurement, worker, null);
    }
  }

  /** Exclude the worker named {@code worker} (its figures disagree with the coordinator's own). */
  record Exclude(String worker, String why) implements Command {}

  /**
   * The coordinator's settings.
   *
   * @param label the role a worker must have, or null for any worker
   * @param taskTimeout a try's deadline
   * @param workerWait how long pending tasks may wait with no fitting worker
   * @param notes per-worker activity lines
   * @param tally measurements per worker, updated as answers arrive
   */
  record Settings(String label, Duration taskTimeout, Duration workerWait, Consumer<String> notes, WorkerTally tally) {}

  private record Listed(Receptionist.Listing listing) implements Command {}

  private record WorkerGone(ActorRef<Worker.Command> worker) implements Command {}

  private record ReachabilityChanged(ClusterEvent.ReachabilityEvent event) implements Command {}

  private record TimedOut(long taskId) implements Command {}

  private enum Tick implements Command { NO_WORKERS, ACTIVITY, VERIFY }

  /** One task of a batch, across its tries. */
  private static final class Job {
    final TaskBatch batch;
    final int index;
    final MeasureTask prototype;
    final Set<ActorRef<Worker.Command>> tried = new HashSet<>();
    final List<Quorum.Opinion> answers = new ArrayList<>();
    final Set<ActorRef<Worker.Command>> answered = new HashSet<>();
    final String kind;
    int tries;

    Job(TaskBatch batch, int index, MeasureTask prototype) {
      this.batch = batch;
      this.index = index;
      this.prototype = prototype;
      kind = prototype.modelSha256() + " " + prototype.backend() + "/" + prototype.profile() + " "
          + prototype.devices() + " " + prototype.inputShape();
    }
  }

  /** A worker: its name, the try it is busy with (0: idle) and that try's token, and the task kinds it refused. */
  private static final class WorkerState {
    final String name;
    final Set<String> refused = new HashSet<>();
    long busyWith;
    long token;

    WorkerState(String name) {
      this.name = name;
    }
  }

  private final TimerScheduler<Command> timers;
  private final Settings settings;
  private final String replyTo;
  private final Cluster cluster;
  private final Map<ActorRef<Worker.Command>, WorkerState> workers = new LinkedHashMap<>();
  private final Set<Address> excluded = new HashSet<>();
  private final Deque<Job> pending = new ArrayDeque<>();
  private final Map<Long, Job> inFlight = new HashMap<>();
  private final List<AwaitWorkers> awaiting = new ArrayList<>();
  private final SecureRandom tokens = new SecureRandom();
  private final CertifiedWorkers certified;
  private Set<ActorRef<Worker.Command>> listed = Set.of();
  private long nextTaskId = 1;
  private long dropped;

  private Coordinator(ActorContext<Command> ctx, TimerScheduler<Command> timers, Settings settings) {
    super(ctx);
    this.timers = timers;
    this.settings = settings;
    this.cluster = Cluster.get(ctx.getSystem());
    certified = new CertifiedWorkers(ctx.getSystem(), settings.notes(), timers, Tick.VERIFY);
    replyTo = ActorRefResolver.get(ctx.getSystem()).toSerializationFormat(ctx.getSelf());
    ctx.getSystem().receptionist().tell(Receptionist.subscribe(Worker.KEY,
        ctx.messageAdapter(Receptionist.Listing.class, Listed::new)));
    cluster.subscriptions().tell(Subscribe.create(
        ctx.messageAdapter(ClusterEvent.ReachabilityEvent.class, ReachabilityChanged::new),
        ClusterEvent.ReachabilityEvent.class));
    timers.startTimerAtFixedRate(Tick.ACTIVITY, Tick.ACTIVITY, ACTIVITY_EVERY);
  }

  static Behavior<Command> create(Settings settings) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new Coordinator(ctx, timers, settings)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(AwaitWorkers.class, this::onAwait)
        .onMessage(Census.class, c -> census(c.done()))
        .onMessage(Listed.class, l -> onListed(l.listing().getServiceInstances(Worker.KEY)))
        .onMessageEquals(Tick.VERIFY, () -> onListed(listed))
        .onMessage(WorkerGone.class, m -> lose(m.worker(), "left the cluster"))
        .onMessage(ReachabilityChanged.class, this::onReachability)
        .onMessage(TaskDone.class, this::onDone)
        .onMessage(TimedOut.class, this::onTimedOut)
        .onMessage(Exclude.class, e -> exclude(e.worker(), e.why()))
        .onMessageEquals(Tick.NO_WORKERS, this::onNoWorkers)
        .onMessageEquals(Tick.ACTIVITY, this::onActivity)
        .build();
  }

  private Behavior<Command> onSubmit(Submit s) {
    TaskBatch batch = new TaskBatch(s.tasks().size(), s.done());
    for (int i = 0; i < s.tasks().size(); i++) {
      pending.add(new Job(batch, i, s.tasks().get(i)));
    }
    if (batch.open == 0) {
      batch.done.complete(List.of());
    }
    return dispatch();
  }

  private Behavior<Command> census(CompletableFuture<int[]> done) {
    done.complete(new int[] {workers.size(), (int) workers.values().stream().filter(w -> w.busyWith != 0).count()});
    return this;
  }

  private Behavior<Command> onAwait(AwaitWorkers a) {
    awaiting.add(a);
    return dispatch();
  }

  private Behavior<Command> onListed(Set<ActorRef<Worker.Command>> now) {
    listed = now;
    for (ActorRef<Worker.Command> w : listed) {
      if (!workers.containsKey(w) && !excluded.contains(w.path().address()) && fits(w)
          && certified.admits(w.path().address(), nameOf(w))) {
        workers.put(w, new WorkerState(nameOf(w)));
        getContext().watchWith(w, new WorkerGone(w));
        settings.notes().accept("cluster: worker " + nameOf(w) + " joined");
      }
    }
    for (ActorRef<Worker.Command> w : new ArrayList<>(workers.keySet())) {
      if (!listed.contains(w)) {
        lose(w, "left the cluster");
      }
    }
    return dispatch();
  }

  private Behavior<Command> onReachability(ReachabilityChanged r) {
    if (r.event() instanceof ClusterEvent.UnreachableMember u) {
      Address a = u.member().address();
      // A worker stopping after it left (SIGTERM) may miss heartbeats before its removal reaches this member.
      boolean left = u.member().status().equals(MemberStatus.leaving())
          || u.member().status().equals(MemberStatus.exiting());
      for (ActorRef<Worker.Command> w : new ArrayList<>(workers.keySet())) {
        if (w.path().address().equals(a)) {
          lose(w, left ? "left the cluster" : "became unreachable");
        }
      }
      if (!left) {
        // A worker that stopped answering heartbeats is taken out of the cluster; restarted, it joins again.
        cluster.manager().tell(new Down(a));
      }
    }
    return dispatch();
  }

  /** Forgets {@code w}; the try it was busy with goes to another worker. */
  private Behavior<Command> lose(ActorRef<Worker.Command> w, String why) {
    WorkerState s = workers.remove(w);
    if (s == null) {
      return this;
    }
    settings.notes().accept("cluster: worker " + s.name + " " + why);
    Job job = s.busyWith == 0 ? null : inFlight.remove(s.busyWith);
    if (job != null) {
      timers.cancel(s.busyWith);
      retryOrFail(job, "worker " + s.name + " " + why + " while measuring");
    }
    return dispatch();
  }

  private Behavior<Command> onDone(TaskDone d) {
    WorkerState from = null;
    ActorRef<Worker.Command> fromRef = null;
    for (Map.Entry<ActorRef<Worker.Command>, WorkerState> e : workers.entrySet()) {
      WorkerState s = e.getValue();
      if (s.busyWith != 0 && s.busyWith == d.taskId() && s.token == d.token()) {
        from = s;
        fromRef = e.getKey();
      }
    }
    if (from == null) {
      // Not the answer of the worker that try was sent to (a forgery, a replay, or a worker already forgotten).
      if (++dropped <= NOTED_DROPS) {
        settings.notes().accept("cluster: dropped an answer to task " + d.taskId() + " (claimed by " + d.worker()
            + ") that does not carry the token of a try in progress");
      }
      return this;
    }
    from.busyWith = 0;
    Job job = inFlight.remove(d.taskId());
    timers.cancel(d.taskId());
    if (job == null) {
      return dispatch(); // an abandoned try: its task was already given to another worker
    }
    String implausible = d.measurement() == null ? null : AnswerCheck.problem(job.prototype, d.measurement());
    if (d.refusal() != null || d.measurement() == null || implausible != null) {
      String why = d.refusal() != null ? d.refusal() : implausible != null ? "implausible answer: " + implausible
          : "no measurement";
      from.refused.add(job.kind);
      if (implausible != null) {
        settings.notes().accept("cluster: worker " + from.name + " gave an implausible answer to task " + d.taskId()
            + " (" + implausible + "); not counted");
      }
      retryOrFail(job, from.name + " refused: " + why);
    } else {
      job.answers.add(new Quorum.Opinion(from.name, d.measurement()));
      job.answered.add(fromRef);
      settle(job, false);
    }
    return dispatch();
  }

  /**
   * Finishes {@code job} once two members' answers agree (excluding those that disagree with them), or, when
   * {@code noOneElse} can give another answer, with its only answer or as disputed; else asks another member.
   */
  private void settle(Job job, boolean noOneElse) {
    int agreed = Quorum.agreed(job.answers);
    if (agreed >= 0) {
      Quorum.Opinion chosen = job.answers.get(agreed);
      for (Quorum.Opinion o : List.copyOf(job.answers)) {
        if (Quorum.agree(o.measurement(), chosen.measurement())) {
          settings.tally().add(o.member());
        } else {
          exclude(o.member(), "answered " + Quorum.figure(o.measurement()) + " where " + chosen.member()
              + " and another member measured " + Quorum.figure(chosen.measurement()) + " for the same task");
        }
      }
      finish(job, new Result(chosen.measurement(), chosen.member()));
    } else if (noOneElse && job.answers.size() == 1) {
      settings.tally().add(job.answers.get(0).member()); // the only fitting worker: nobody to compare with
      finish(job, new Result(job.answers.get(0).measurement(), job.answers.get(0).member()));
    } else if (noOneElse) {
      finish(job, new Result(job.answers.get(0).measurement(), null, List.copyOf(job.answers)));
    } else {
      pending.addFirst(job);
    }
  }

  /** Takes the worker named {@code name} out of the run for good (and out of the cluster), naming it. */
  private Behavior<Command> exclude(String name, String why) {
    settings.tally().exclude(name, why);
    for (Map.Entry<ActorRef<Worker.Command>, WorkerState> e : new ArrayList<>(workers.entrySet())) {
      if (e.getValue().name.equals(name)) {
        Address a = e.getKey().path().address();
        excluded.add(a);
        lose(e.getKey(), "excluded: its figures disagree with the others' beyond the noise (" + why + ")");
        cluster.manager().tell(new Down(a));
      }
    }
    java.util.stream.Stream.concat(pending.stream(), inFlight.values().stream())
        .forEach(j -> j.answers.removeIf(o -> o.member().equals(name)));
    return this;
  }

  private Behavior<Command> onTimedOut(TimedOut t) {
    Job job = inFlight.remove(t.taskId());
    if (job != null) {
      // The worker stays busy until it answers (late answers are dropped) or leaves.
      retryOrFail(job, "no answer within " + settings.taskTimeout().toSeconds() + " s");
    }
    return dispatch();
  }

  private void retryOrFail(Job job, String problem) {
    if (job.tries - job.answers.size() >= MAX_TRIES) {
      MeasureTask p = job.prototype;
      finish(job, new Result(Measurement.failed("not measured after " + MAX_TRIES + " tries (last: " + problem + ")",
          p.backend(), p.profile()), null));
    } else {
      pending.addFirst(job);
    }
  }

  private void finish(Job job, Result r) {
    if (job.batch.done.isDone()) {
      return;
    }
    job.batch.results[job.index] = r;
    if (--job.batch.open == 0) {
      job.batch.done.complete(List.of(job.batch.results));
    }
  }

  /** Gives pending tasks to idle workers, preferring one that has not tried the task yet. */
  private Behavior<Command> dispatch() {
    awaiting.removeIf(a -> workers.size() >= a.count() && a.done().complete(workers.size()));
    pending.removeIf(j -> j.batch.done.isDone());
    List<Job> waiting = new ArrayList<>();
    while (!pending.isEmpty()) {
      Job job = pending.pollFirst();
      if (!job.answers.isEmpty() && noOtherAnswer(job)) {
        settle(job, true);
        continue;
      }
      ActorRef<Worker.Command> w = pick(job);
      if (w == null) {
        waiting.add(job);
        continue;
      }
      long id = nextTaskId++;
      job.tries++;
      job.tried.add(w);
      WorkerState state = workers.get(w);
      state.busyWith = id;
      state.token = tokens.nextLong();
      inFlight.put(id, job);
      Worker.send(w, job.prototype.sent(id, job.tries, replyTo, state.token), getContext().getSelf());
      timers.startSingleTimer(id, new TimedOut(id), settings.taskTimeout());
    }
    pending.addAll(waiting);
    if (pending.isEmpty() || !workers.isEmpty()) {
      timers.cancel(Tick.NO_WORKERS);
    } else if (!timers.isTimerActive(Tick.NO_WORKERS)) {
      timers.startSingleTimer(Tick.NO_WORKERS, Tick.NO_WORKERS, settings.workerWait());
    }
    return this;
  }

  /** Whether no worker in the cluster can give {@code job} another answer (all answered it or refuse its kind). */
  private boolean noOtherAnswer(Job job) {
    return workers.entrySet().stream()
        .allMatch(e -> job.answered.contains(e.getKey()) || e.getValue().refused.contains(job.kind));
  }

  /**
   * An idle worker for {@code job}: one that has not tried it, else any; a worker that refused the
   * job's kind only when every fitting worker has refused it (then the job fails with their reasons).
   */
  private ActorRef<Worker.Command> pick(Job job) {
    boolean someoneWilling = workers.values().stream().anyMatch(s -> !s.refused.contains(job.kind));
    ActorRef<Worker.Command> any = null;
    for (Map.Entry<ActorRef<Worker.Command>, WorkerState> e : workers.entrySet()) {
      WorkerState s = e.getValue();
      if (s.busyWith != 0 || (someoneWilling && s.refused.contains(job.kind)) || job.answered.contains(e.getKey())) {
        continue;
      }
      if (!job.tried.contains(e.getKey())) {
        return e.getKey();
      }
      any = any == null ? e.getKey() : any;
    }
    return any;
  }

  private Behavior<Command> onNoWorkers() {
    if (workers.isEmpty() && !pending.isEmpty()) {
      BackendUnavailableException e = new BackendUnavailableException("no worker" + labelText() + " in the cluster for "
          + settings.workerWait().toSeconds() + " s; start one with 'hsdag worker --join HOST:PORT"
          + (settings.label() == null ? "" : " --label " + settings.label()) + "' (the run stays resumable)");
      for (Job j : pending) {
        j.batch.done.completeExceptionally(e);
      }
      pending.clear();
    }
    return this;
  }

  private Behavior<Command> onActivity() {
    if (!inFlight.isEmpty() || !pending.isEmpty()) {
      StringBuilder line = new StringBuilder("cluster: " + pending.size() + " waiting;");
      for (WorkerState s : workers.values()) {
        line.append(' ').append(s.name).append(s.busyWith != 0 ? " busy" : " idle").append(" (")
            .append(settings.tally().count(s.name)).append(" done)");
      }
      settings.notes().accept(line.toString());
    }
    return this;
  }

  private String labelText() {
    return settings.label() == null ? "" : " with label " + settings.label();
  }

  private boolean fits(ActorRef<Worker.Command> w) {
    return settings.label() == null || rolesOf(w).contains(settings.label());
  }

  private Set<String> rolesOf(ActorRef<Worker.Command> w) {
    for (Member m : cluster.state().getMembers()) {
      if (m.address().equals(w.path().address())) {
        return m.getRoles();
      }
    }
    return Set.of();
  }

  /** The worker's label (if any) and address, as reports name it. */
  private String nameOf(ActorRef<Worker.Command> w) {
    String label = rolesOf(w).stream().filter(r -> r.startsWith(Worker.LABEL_PREFIX)).findFirst().orElse(null);
    String hostPort = w.path().address().hostPort();
    String address = hostPort.substring(hostPort.indexOf('@') + 1);
    return label == null ? address : label + "@" + address;
  }
}
