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
public class FakeBackendProvider implements BackendProvider {
  private final String name;
  private final String summary;
  private final java.util.function.Supplier<FakeBackend> backend;

  public FakeBackendProvider() {
    this("fake", "deterministic test backend", FakeBackend::cpuGpu);
  }

  /** Another fake backend by {@code name}, e.g. one whose splits fail. */
  protected FakeBackendProvider(String name, String summary, java.util.function.Supplier<FakeBackend> backend) {
    this.name = name;
    this.summary = summary;
    this.backend = backend;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String summary() {
    return summary;
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
    return backend.get();
  }
}
