package org.hsdag.sim;

import java.util.EnumSet;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cost.DeviceProfile;

/** The embedded simulator as a {@link BackendProvider}: last in auto's order, so it answers when nothing real can. */
public final class SimBackendProvider implements BackendProvider {
  /** After every real backend. */
  private static final int AUTO_RANK = 100;

  @Override
  public String name() {
    return "sim";
  }

  @Override
  public String summary() {
    return "embedded HETERO simulator of a machine profile";
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public Set<Feature> features() {
    return EnumSet.of(Feature.PROFILE_MISMATCH);
  }

  @Override
  public OptionalInt autoRank() {
    return OptionalInt.of(AUTO_RANK);
  }

  @Override
  public LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    SimOptions options = SimOptions.DEFAULT.withSeed(request.seed()).withShapes(request.inputShapes().shapes());
    if (!request.mismatch().any()) {
      return SimBackend.open(request.profile(), options);
    }
    ProfileMismatch m = ProfileMismatch.named(request.mismatch().amplitude(), request.mismatch().seed());
    SimBackend sim = new SimBackend(m.apply(DeviceProfile.load(request.profile())), options);
    notices
        .accept("backend sim on a perturbed machine, " + sim.profile() + "; the cost model stays " + request.profile()
            + " (every number is simulated)");
    return sim;
  }
}
