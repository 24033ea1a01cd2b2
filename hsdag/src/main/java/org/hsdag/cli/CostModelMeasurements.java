package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.tune.RunFolder;

/**
 * The measurements a backend built the run's cost model from, kept in the run folder as they are taken (the same
 * text {@link CostModelStore} keeps for {@code plan}), so a resume plans on the same numbers and a tune killed while
 * it profiled does not profile again what it had measured.
 */
final class CostModelMeasurements {
  private CostModelMeasurements() {}

  /** The run's file of what a measured cost model was built from ({@link CostModelSource#costModelMeasurements}). */
  static final String FILE = "cost-model-measurements.json";

  /** Saves what the backend measured to build the cost model, so that a resume plans on the same numbers. */
  static void save(RunFolder folder, LatencyBackend backend, OpGraph graph)
      throws IOException {
    var source = backend.capability(CostModelSource.class);
    if (source.isPresent()) {
      var saved = source.get().costModelMeasurements(graph);
      if (saved.isPresent()) {
        // After the progress still queued, which would otherwise replace it with less.
        folder.inOrder(() -> AtomicFiles.writeString(folder.dir().resolve(FILE), saved.get()));
      }
    }
  }

  /**
   * Has the backend hand each part of the cost model's measurements to the run folder as soon as it is measured
   * (the file replaced atomically each time, by the folder's background writer: the profiling does not wait for a
   * disk flush per part, and parts handed while one is written are written once, the newest), so a kill during the
   * build keeps what was profiled but the part being written.
   */
  static void track(RunFolder folder, LatencyBackend backend, OpGraph graph, Consumer<String> notices) {
    backend.capability(CostModelSource.class)
        .ifPresent(s -> s.costModelProgress(graph, new Saving(folder, folder.dir().resolve(FILE), notices)));
  }

  /** Whether the run folder holds measurements of a cost model (a run that profiled, in part or whole). */
  static boolean saved(Path dir) {
    return Files.isRegularFile(dir.resolve(FILE));
  }

  /**
   * Gives the backend the measurements saved in the run folder, whole or in part.
   *
   * @return the line that says so ({@code cost model: reused the profiling saved in the run folder (…)}); empty
   *     when nothing was saved
   */
  static Optional<String> reuse(RunFolder folder, LatencyBackend backend, OpGraph graph)
      throws IOException {
    Path file = folder.dir().resolve(FILE);
    var source = backend.capability(CostModelSource.class);
    if (!Files.exists(file) || source.isEmpty()) {
      return Optional.empty();
    }
    try {
      source.get().reuseCostModelMeasurements(graph, Files.readString(file));
    } catch (IllegalArgumentException e) {
      throw new UserInputException(file + ": " + e.getMessage());
    }
    String what = source.get().costModelMeasured(graph).orElse(FILE);
    return Optional.of("cost model: reused the profiling saved in the run folder (" + what + ")"
        + (source.get().costModelPending(graph) ? "; measuring the rest" : ""));
  }

  /**
   * Writes the newest text it is handed to {@code file} in the background; a write that fails is said once and the
   * build goes on.
   */
  private static final class Saving implements Consumer<String> {
    private final RunFolder folder;
    private final Path file;
    private final Consumer<String> notices;
    private final java.util.concurrent.atomic.AtomicReference<String> newest = new java.util.concurrent.atomic.AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();

    Saving(RunFolder folder, Path file, Consumer<String> notices) {
      this.folder = folder;
      this.file = file;
      this.notices = notices;
    }

    @Override
    public void accept(String measurements) {
      if (newest.getAndSet(measurements) == null) {
        folder.inBackground(this::writeNewest);
      }
    }

    private void writeNewest() {
      String text = newest.getAndSet(null);
      if (text == null) {
        return;
      }
      try {
        AtomicFiles.writeString(file, text);
      } catch (IOException e) {
        if (!failed.getAndSet(true)) {
          notices.accept("the cost model's measurements could not be saved in the run folder (" + e.getMessage()
              + "); a resume would profile again");
        }
      }
    }
  }
}
