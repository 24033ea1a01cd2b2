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
          + "same model, devices, test devices, runtime and sizes saved.")
  boolean freshProfile;

  @Option(names = "--cost-model-cache", paramLabel = "DIR", hidden = true,
      description = "Where real backends' cost models are saved for reuse. Default: ~/.cache/hsdag/cost-models.")
  Path costModelCache;

  /** The reuse of {@code xml}'s cost model under {@code request}, from the store these options name. */
  CostModelReuse reuse(Path xml, BackendRequest request, Consumer<String> notices) {
    return new CostModelReuse(costModelCache == null ? CostModelStore.Folder.defaultFolder()
        : new CostModelStore.Folder(costModelCache), xml, request, freshProfile, notices);
  }
}
