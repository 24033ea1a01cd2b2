package org.hsdag.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.cluster.WireMessage.MeasureTask;
import org.hsdag.cluster.WireMessage.TaskDone;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.tune.RunManifest;

/**
 * What a worker does with a task: finds the model by content hash among its own files, checks that
 * its backend, profile and devices are the ones asked for (else it refuses, saying why), and times
 * the placement while holding an OS-level lock on a per-machine file, so two workers on one machine
 * never measure at the same time. Called from one thread.
 */
final class MeasuringService implements AutoCloseable {
  /** Opens the worker's backend for a run: seeded by the run, sized by its {@code --input-shape}. */
  interface Backends {
    LatencyBackend open(long seed, String inputShape, OpGraph graph, Path model);
  }

  private static final int SCAN_DEPTH = 6;

  private final Path modelsDir;
  private final Path lockFile;
  private final Backends backends;
  private final Map<String, Path> models = new HashMap<>();
  private final Map<String, OpGraph> graphs = new HashMap<>();
  private Opened opened;

  /** The backend open for one run (seed and input sizes) of one model. */
  private record Opened(String modelSha256, long seed, String inputShape, LatencyBackend backend) {}

  MeasuringService(Path modelsDir, Path lockFile, Backends backends) {
    this.modelsDir = modelsDir;
    this.lockFile = lockFile;
    this.backends = backends;
  }

  /** Measures {@code t} or refuses it; never throws. */
  TaskDone handle(MeasureTask t, String worker) {
    try {
      String outOfBounds = TaskBounds.problem(t);
      if (outOfBounds != null) {
        return refuse(t, worker, "task out of bounds: " + outOfBounds);
      }
      Path model = model(t.modelSha256());
      if (model == null) {
        return refuse(t, worker, "no model file with SHA-256 " + t.modelSha256() + " under " + modelsDir);
      }
      OpGraph graph = graphs.computeIfAbsent(t.modelSha256(), sha -> read(model));
      LatencyBackend backend = backend(t, graph, model);
      if (!backend.name().equals(t.backend()) || !backend.profile().equals(t.profile())) {
        return refuse(t, worker, "this worker measures with " + backend.name() + "/" + backend.profile()
            + ", the task asks for " + t.backend() + "/" + t.profile());
      }
      List<String> own = backend.devices().stream().map(DeviceInfo::name).toList();
      for (String d : t.devices()) {
        if (!own.contains(d)) {
          return refuse(t, worker, "device " + d + " is not on this worker (it has " + String.join(",", own) + ")");
        }
      }
      if (t.deviceOf().length != graph.nodeCount()) {
        return refuse(t, worker, "the placement has " + t.deviceOf().length + " nodes, the model " + graph.nodeCount());
      }
      Placement p = new Placement(new DeviceSet(t.devices()), t.deviceOf());
      return new TaskDone(t.taskId(), t.attempt(), t.token(), worker, measureLocked(backend, graph, p, t), null);
    } catch (RuntimeException e) {
      return refuse(t, worker, "cannot measure here: " + e.getMessage());
    }
  }

  private Measurement measureLocked(LatencyBackend backend, OpGraph graph, Placement p, MeasureTask t) {
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      var keyed = backend.capability(KeyedMeasurement.class);
      return keyed.isPresent() ? keyed.get().measure(graph, p, t.protocol(), t.key())
          : backend.measure(graph, p, t.protocol());
    } catch (IOException e) {
      throw new UncheckedIOException("lock file " + lockFile + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // As on one machine: a backend error is a failed measurement, not the end of the run.
      return Measurement.failed("backend error: " + e, backend.name(), backend.profile());
    }
  }

  private LatencyBackend backend(MeasureTask t, OpGraph graph, Path model) {
    Opened want = new Opened(t.modelSha256(), t.seed(), t.inputShape(), null);
    if (opened == null || !opened.modelSha256().equals(want.modelSha256()) || opened.seed() != want.seed()
        || !Objects.equals(opened.inputShape(), want.inputShape())) {
      close();
      opened = new Opened(t.modelSha256(), t.seed(), t.inputShape(),
          backends.open(t.seed(), t.inputShape(), graph, model));
    }
    return opened.backend();
  }

  /** The model file with that content hash, scanning the folder again when it is not known yet. */
  private Path model(String sha256) {
    Path known = models.get(sha256);
    if (known != null && Files.isRegularFile(known)) {
      return known;
    }
    models.clear();
    try (Stream<Path> files = Files.walk(modelsDir, SCAN_DEPTH)) {
      files.filter(f -> f.getFileName().toString().endsWith(".xml") && Files.isRegularFile(f)).forEach(f -> {
        try {
          models.putIfAbsent(RunManifest.sha256(f), f);
        } catch (IOException e) {
          // An unreadable file is simply not a model this worker offers.
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("models folder " + modelsDir + ": " + e.getMessage(), e);
    }
    return models.get(sha256);
  }

  private static OpGraph read(Path model) {
    return new IrReader().read(model);
  }

  private static TaskDone refuse(MeasureTask t, String worker, String why) {
    return new TaskDone(t.taskId(), t.attempt(), t.token(), worker, null, why);
  }

  @Override
  public void close() {
    if (opened != null) {
      opened.backend().close();
      opened = null;
    }
  }
}
