package org.hsdag.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;
import org.hsdag.search.SearchStrategy;
import org.hsdag.tune.RunFolder;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.RunObjective;
import org.hsdag.tune.RunStart;
import org.hsdag.tune.TuneConfig;

/** How a new {@code tune} begins: once its devices are known and before its cost model is built. */
final class TuneStart {
  private TuneStart() {}

  /**
   * A new run's config, its strategy and, once begun, its manifest.
   *
   * @param manifest null until {@link #begin}
   */
  record Prepared(TuneConfig config, SearchStrategy strategy, RunManifest manifest) {
    /**
     * Writes the run's manifest and objective into {@code folder} (held by this process): from here on the folder
     * holds a run that {@code tune --resume} continues, even if the process is killed while it builds its cost model.
     *
     * @param opened the request the backend was opened from; null for a backend given to the command
     */
    Prepared begin(RunFolder folder, Path model, OpGraph graph, LatencyBackend backend, BackendRequest opened,
        RunStart.InputShapeChoice shapes, RunStart.Software software, RunObjective objective) {
      try {
        // The simulator's profile is recorded by content, so a resume finds it again; a real backend names its own.
        RunManifest.ProfileSource profile = opened != null && backend.simulated() ? RunManifest.ProfileSource.of(
            opened.profile(), opened.mismatch().amplitude(), opened.mismatch().seed()) : null;
        RunManifest m = RunStart.begin(folder, model, graph, backend, profile, shapes, config, software);
        objective.write(folder.dir());
        return new Prepared(config, strategy, m);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The same run with {@code newPatience} (it expected a cost model and searches cold), its manifest rewritten. */
    Prepared withPatience(int newPatience, RunFolder folder) throws IOException {
      TuneConfig c = config.withPatience(newPatience);
      RunManifest m = manifest.withConfig(c);
      m.write(folder.dir());
      return new Prepared(c, c.newStrategy(), m);
    }
  }
}
