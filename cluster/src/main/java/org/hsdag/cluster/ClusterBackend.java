package org.hsdag.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.hsdag.backend.BackendUnavailableException;
import org.hsdag.backend.CallTiming;
import org.hsdag.backend.BatchMeasurement;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.RemoteMeasurement;
import org.hsdag.cli.UserInputException;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;

/**
 * The coordinator's side of {@code --cluster}: a backend whose measurements are made by the
 * cluster's workers (a {@link Coordinator} actor hands them out) while devices, support and the
 * cost model come from the local backend. Every task carries its noise key, so a result does not
 * depend on which worker measured it or when. Closing it reports the workers and leaves the cluster.
 */
final class ClusterBackend extends ForwardingBackend implements KeyedMeasurement, BatchMeasurement {
  private final OpGraph graph;
  private final RemoteMeasurement.Request request;
  private final ActorSystem<Coordinator.Command> system;
  private final WorkerTally tally;
  /** Reasons of the failed measurements so far, by count. */
  private final Map<String, Integer> failures = new LinkedHashMap<>();
  /** Wall time this member waited for the workers (joining included) and what they measured: not hsdag's own. */
  private long waitedNanos;
  private int remoteMeasurements;

  private ClusterBackend(LatencyBackend local, OpGraph graph, RemoteMeasurement.Request request,
      ActorSystem<Coordinator.Command> system, WorkerTally tally, long joinNanos) {
    super(local);
    this.graph = graph;
    this.request = request;
    this.system = system;
    this.tally = tally;
    this.waitedNanos = joinNanos;
  }

  /**
   * Joins the cluster as a coordinator and waits for a fitting worker.
   *
   * @throws UserInputException when no fitting worker answers within the request's wait
   */
  static ClusterBackend start(ClusterSettings settings, RemoteMeasurement.Request request, LatencyBackend local,
      OpGraph graph) {
    WorkerTally tally = WorkerTally.resumed(request.workersFile());
    ActorSystem<Coordinator.Command> system = Members.create(Coordinator.create(new Coordinator.Settings(
        request.label(), request.taskTimeout(), request.workerWait(), request.notes(), tally)), settings,
        request.notes());
    long joinStart = System.nanoTime();
    CompletableFuture<Integer> ready = new CompletableFuture<>();
    system.tell(new Coordinator.AwaitWorkers(request.minWorkers(), ready));
    try {
      int n = ready.get(request.workerWait().toMillis(), TimeUnit.MILLISECONDS);
      request.notes().accept("cluster: joined " + request.seedNode() + " as " + Members.hostPort(system) + "; " + n
          + " worker" + (n == 1 ? "" : "s") + (request.label() == null ? "" : " with label " + request.label()));
    } catch (TimeoutException | ExecutionException e) {
      Members.stop(system, Duration.ofSeconds(10));
      String cause = JoinProbe.diagnose(ClusterSettings.parseHostPort(request.seedNode(), "--cluster"),
          settings.tls());
      throw new UserInputException("--cluster " + request.seedNode() + ": "
          + (request.minWorkers() == 1 ? "no worker" : "fewer than " + request.minWorkers() + " workers")
          + (request.label() == null ? "" : " with label " + request.label()) + " answered within "
          + request.workerWait().toSeconds() + " s ("
          + (cause != null ? cause : "the member there accepts this member's certificate: is 'hsdag worker"
              + (request.label() == null ? "" : " --label " + request.label()) + "' running in that cluster?")
          + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Members.stop(system, Duration.ofSeconds(10));
      throw new BackendUnavailableException("interrupted while joining the cluster");
    }
    return new ClusterBackend(local, graph, request, system, tally, System.nanoTime() - joinStart);
  }

  @Override
  public Measurement measure(OpGraph g, Placement placement, MeasurementProtocol protocol, long key) {
    return measureAll(g, List.of(new Task(placement, key)), protocol).get(0);
  }

  @Override
  public List<Measurement> measureAll(OpGraph g, List<Task> tasks, MeasurementProtocol protocol) {
    if (!graph.equals(g)) {
      throw new IllegalStateException("this cluster backend measures " + graph + ", not " + g);
    }
    List<WireMessage.MeasureTask> prototypes = new ArrayList<>();
    for (Task t : tasks) {
      prototypes.add(WireMessage.MeasureTask.prototype(request.modelSha256(), delegate.name(), delegate.profile(),
          request.seed(), request.inputShape(), t.placement().devices().names(), t.placement().deviceOf(), t.key(),
          protocol));
    }
    CompletableFuture<List<Coordinator.Result>> done = new CompletableFuture<>();
    long start = System.nanoTime();
    system.tell(new Coordinator.Submit(prototypes, done));
    try {
      List<Coordinator.Result> results = done.get();
      synchronized (this) {
        waitedNanos += System.nanoTime() - start;
        remoteMeasurements += results.size();
      }
      List<Measurement> out = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        Coordinator.Result r = results.get(i);
        Measurement m = r.disputed() == null ? r.measurement() : arbitrate(g, tasks.get(i), protocol, r.disputed());
        out.add(m);
        if (!m.ok()) {
          failures.merge(String.valueOf(m.reason()), 1, Integer::sum);
        }
      }
      writeWorkersFile(); // kept current, so the run's report (written before close) names the workers
      return out;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new BackendUnavailableException("cluster: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendUnavailableException("interrupted while the cluster measured");
    }
  }

  /**
   * Members disagreed on a task and no other could settle it: the coordinator measures it itself, and the
   * members whose figures disagree with its own are excluded.
   */
  private Measurement arbitrate(OpGraph g, Task t, MeasurementProtocol protocol, List<Quorum.Opinion> disputed) {
    Optional<KeyedMeasurement> keyed = delegate.capability(KeyedMeasurement.class);
    Measurement own = keyed.isPresent() ? keyed.get().measure(g, t.placement(), protocol, t.key())
        : delegate.measure(g, t.placement(), protocol);
    for (Quorum.Opinion o : disputed) {
      if (!Quorum.agree(o.measurement(), own)) {
        system.tell(new Coordinator.Exclude(o.member(), "answered " + Quorum.figure(o.measurement())
            + " where the coordinator measured " + Quorum.figure(own) + " for the same task"));
      }
    }
    return own;
  }

  /** The local backend's time shares, with the wait for the workers counted apart from hsdag's own. */
  @Override
  public <T> Optional<T> capability(Class<T> type) {
    Optional<CallTiming> local = type == CallTiming.class ? delegate.capability(CallTiming.class) : Optional.empty();
    if (local.isEmpty()) {
      return super.capability(type);
    }
    CallTiming timing = (elsewhere, wallSeconds) -> {
      synchronized (this) {
        return local.get().shares(new CallTiming.Elsewhere("cluster workers",
            elsewhere.millis() + waitedNanos / 1e6, elsewhere.measurements() + remoteMeasurements), wallSeconds);
      }
    };
    return Optional.of(type.cast(timing));
  }

  /** {fitting workers, busy ones} right now. */
  int[] census() throws InterruptedException, ExecutionException {
    CompletableFuture<int[]> c = new CompletableFuture<>();
    system.tell(new Coordinator.Census(c));
    return c.get();
  }

  /** Reports each worker's share (and writes it to the request's file), then leaves the cluster; the local backend stays open. */
  @Override
  public void close() {
    Map<String, Integer> counts = tally.snapshot();
    StringBuilder line = new StringBuilder("cluster: measured by " + counts.size() + " worker"
        + (counts.size() == 1 ? "" : "s") + ":");
    counts.forEach((w, n) -> line.append(' ').append(w).append(' ').append(n).append(','));
    request.notes()
        .accept(counts.isEmpty() ? "cluster: no worker measured anything" : line.substring(0, line.length() - 1));
    if (!failures.isEmpty()) {
      StringBuilder why = new StringBuilder("cluster: failed measurements by reason:");
      failures.entrySet().stream().limit(5)
          .forEach(f -> why.append(' ').append(f.getValue()).append("x \"").append(f.getKey()).append("\";"));
      request.notes().accept(why.substring(0, why.length() - 1));
    }
    tally.excluded().forEach((w, why) -> request.notes().accept("cluster: worker " + w + " was excluded from the run:"
        + " its figures disagree with the others' beyond the noise (" + why + ")"));
    writeWorkersFile();
    Members.stop(system, Duration.ofSeconds(15));
  }

  /**
   * Writes the seed node, label and measurements per worker to the request's workers file
   * (atomically); a resumed run's file keeps the counts of the runs before it.
   */
  private void writeWorkersFile() {
    if (request.workersFile() == null) {
      return;
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("cluster", request.seedNode());
    doc.put("label", request.label());
    doc.put("measurements_by_worker", tally.snapshot());
    doc.put("excluded_workers", tally.excluded());
    try {
      AtomicFiles.writeString(request.workersFile(),
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n");
    } catch (IOException e) {
      request.notes().accept("cluster: could not write " + request.workersFile() + " (" + e.getMessage() + ")");
    }
  }
}
