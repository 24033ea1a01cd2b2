package org.hsdag.cli;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.hsdag.backend.BackendRequest;
import picocli.CommandLine.Option;

/**
 * The picocli mixin of the commands that build a real backend's cost model and keep it for the next
 * call ({@code plan}, {@code tune}): one store, one key and one {@code --fresh-profile} for both, so a
 * tune after a plan of the same model on the same machine plans on the numbers the plan profiled.
 */
public final class CostModelStoreOptions {
  @Option(names = "--fresh-profile",
      description = "Real backends: profile the model again instead of reusing the cost model a plan or tune of the "
          + "same model, devices, test devices, runtime and sizes saved, and the op records of the profile database "
          + "(which it refreshes).")
  boolean freshProfile;

  @Option(names = "--cost-model-cache", paramLabel = "DIR", hidden = true,
      description = "Where real backends' cost models are saved for reuse. Default: ~/.cache/hsdag/cost-models (its profiles.db).")
  Path costModelCache;

  /** The reuse of {@code xml}'s cost model under {@code request}, from the store these options name. */
  CostModelReuse reuse(Path xml, BackendRequest request, Consumer<String> notices) {
    return new CostModelReuse(store(), xml, request, freshProfile, notices);
  }

  /**
   * Has a real {@code backend} build its cost models on these options' profile database (read unless
   * {@code --fresh-profile}, fed with what it profiles), without the per-model store: for commands that rebuild the
   * model-level fit on purpose ({@code bench fidelity}).
   */
  public void useProfileDatabase(org.hsdag.backend.LatencyBackend backend, Consumer<String> notices) {
    if (!backend.simulated()) {
      backend.capability(org.hsdag.openvino.ProfileDatabaseUser.class)
          .ifPresent(u -> u.useProfileDatabase(store().database(), freshProfile, notices));
    }
  }

  /** What {@code graph}'s cost model on {@code backend} took from the profile database, as the summary says it. */
  public static java.util.Optional<String> databaseLine(org.hsdag.backend.LatencyBackend backend,
      org.hsdag.ir.OpGraph graph) {
    return CostModelReuse.databaseLine(backend, graph);
  }

  /** The store (and profile database) these options name. */
  CostModelStore store() {
    return costModelCache == null ? CostModelStore.Database.defaultFolder()
        : new CostModelStore.Database(costModelCache);
  }
}
