package org.hsdag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;
import org.hsdag.tune.RunFolder;

/** The measurements a backend built the run's cost model from, kept in the run folder so a resume plans on the same numbers. */
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
        AtomicFiles.writeString(folder.dir().resolve(FILE), saved.get());
      }
    }
  }

  static void reuse(RunFolder folder, LatencyBackend backend, OpGraph graph)
      throws IOException {
    Path file = folder.dir().resolve(FILE);
    var source = backend.capability(CostModelSource.class);
    if (Files.exists(file) && source.isPresent()) {
      try {
        source.get().reuseCostModelMeasurements(graph, Files.readString(file));
      } catch (IllegalArgumentException e) {
        throw new UserInputException(file + ": " + e.getMessage());
      }
    }
  }
}
