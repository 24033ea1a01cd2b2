package org.hsdag.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** Access to {@code ../shared/ir-samples/}; tests that need it skip with the reason when it is absent. */
public final class Samples {
  private Samples() {}

  /** The shared folder: system property {@code hsdag.shared.dir} (set by the build) or {@code ../shared}. */
  public static Path sharedDir() {
    String p = System.getProperty("hsdag.shared.dir");
    return p != null ? Path.of(p) : Path.of("..", "shared");
  }

  /** The folder of real IR samples, or a skipped test when it is absent. */
  public static Path irSamples() {
    Path dir = sharedDir().resolve("ir-samples");
    assumeTrue(Files.isDirectory(dir), "skipped: real IR samples not found at " + dir.toAbsolutePath()
        + " (../shared/ir-samples is absent)");
    return dir;
  }

  /** One sample file, e.g. {@code resnet-50.xml}, or a skipped test. */
  public static Path irSample(String file) {
    Path f = irSamples().resolve(file);
    assumeTrue(Files.isRegularFile(f), "skipped: sample " + f + " is absent");
    return f;
  }
}
