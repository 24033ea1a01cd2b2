package org.hsdag.tune;

import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.testkit.FakeBackend;

/**
 * {@link FakeBackend#cpuGpuWhereSplitsFail} by name from the CLI ({@code --backend fake-splits-fail}):
 * a backend on which a split placement fails to run, as a real runtime's may. Never picked by auto.
 */
public final class SplitsFailBackendProvider implements BackendProvider {
  @Override
  public String name() {
    return "fake-splits-fail";
  }

  @Override
  public String summary() {
    return "test backend whose split placements fail";
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
    return FakeBackend.cpuGpuWhereSplitsFail();
  }
}
