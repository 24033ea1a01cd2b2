package org.hsdag.tune;

import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.testkit.FakeBackend;

/**
 * The test {@link FakeBackend} as a provider, registered in this module's test resources: what
 * adding a backend takes (this class and one service line), usable by name from the CLI
 * ({@code --backend fake}). Never picked by auto.
 */
public final class FakeBackendProvider implements BackendProvider {
  @Override
  public String name() {
    return "fake";
  }

  @Override
  public String summary() {
    return "deterministic test backend";
  }

  @Override
  public boolean simulated() {
    return true;
  }

  @Override
  public Set<Feature> features() {
    return Set.of();
  }

  @Override
  public OptionalInt autoRank() {
    return OptionalInt.empty();
  }

  @Override
  public LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    return FakeBackend.cpuGpu();
  }
}
