package org.hsdag.testkit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.openvino.OpenVinoAvailability;
import org.hsdag.openvino.OpenVinoBackend;

/**
 * The real OpenVINO runtime for tests. In CI ({@code CI=true}) a test that needs it and cannot
 * have it fails, so a broken provisioning can never pass as a row of skips; elsewhere it is
 * skipped with the reason.
 */
public final class RealOpenVino {
  private RealOpenVino() {}

  /** The available runtime, or the test is failed (CI) or skipped (elsewhere) with the reason. */
  public static OpenVinoAvailability require() {
    OpenVinoAvailability a = OpenVinoBackend.availability();
    if (!a.available()) {
      unavailable(a.oneLine());
    }
    return a;
  }

  /** The Python of the OpenVINO the native library was built against (its {@code openvino} package imports). */
  public static Path python() {
    require();
    Path python = OpenVinoAvailability.runtimePython().orElse(null);
    if (python == null || !Files.isExecutable(python)) {
      unavailable("no Python with the openvino package recorded by native/provision.sh (" + python + ")");
    }
    return python;
  }

  private static void unavailable(String why) {
    if ("true".equals(System.getenv("CI"))) {
      fail("CI=true, so the real OpenVINO runtime must run here: " + why);
    }
    assumeTrue(false, "skipped: " + why);
  }
}
