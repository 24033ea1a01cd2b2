package org.hsdag.tune;

import org.hsdag.testkit.FakeBackend;

/**
 * {@link FakeBackend#cpuGpuWhereSplitsFail} by name from the CLI ({@code --backend fake-splits-fail}):
 * a backend on which a split placement fails to run, as a real runtime's may. Never picked by auto.
 */
public final class SplitsFailBackendProvider extends FakeBackendProvider {
  public SplitsFailBackendProvider() {
    super("fake-splits-fail", "test backend whose split placements fail", FakeBackend::cpuGpuWhereSplitsFail);
  }
}
