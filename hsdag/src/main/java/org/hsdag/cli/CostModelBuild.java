package org.hsdag.cli;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.hsdag.backend.CostModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.OpGraph;

/**
 * Building a real backend's cost model before the search: profiling every op on every device,
 * then timing designed splits. On a large model or a busy machine that takes minutes, before the
 * first progress line, so it is said when it starts, and a Ctrl-C (or SIGTERM) during it says what
 * it stopped instead of ending silently.
 */
final class CostModelBuild {
  private CostModelBuild() {}

  /** What a stop during the build prints when nothing of it is kept ({@code plan}, {@code bench}). */
  static final String INTERRUPTED = "hsdag: interrupted while building the cost model, before the search measured "
      + "anything; run the same command again to start over";

  /** What a stop during a tune's build prints: its run folder keeps the manifest and what was profiled. */
  static String interruptedRun(java.nio.file.Path dir) {
    return "hsdag: interrupted while building the cost model; the run folder keeps what was profiled, continue with: "
        + CommandName.line("tune", "--resume", "--out", dir);
  }

  /**
   * Whether resolving the cost model of {@code graph} measures on hardware first: a real backend
   * with a cost model of its own that has not been built (or restored whole from a run's saved
   * measurements) yet, and no {@code --proxy-profile} in its place.
   */
  static boolean measuresFirst(LatencyBackend backend, OpGraph graph, String proxyProfile) {
    if (backend.simulated() || proxyProfile != null) {
      return false;
    }
    return backend.capability(CostModelSource.class).map(s -> s.costModelPending(graph)).orElse(false);
  }

  /** The notice said before the build starts. */
  static String announcement(LatencyBackend backend, OpGraph graph) {
    boolean resumed = backend.capability(CostModelSource.class).flatMap(s -> s.costModelMeasurements(graph))
        .isPresent();
    if (resumed) {
      return "finishing the cost model of " + graph.name() + " on " + backend.name() + ": measuring what the saved "
          + "profiling lacks (Ctrl-C stops it)";
    }
    return "building the cost model of " + graph.name() + " on " + backend.name() + " first: profiling every op on "
        + String.join(", ", backend.devices().stream().map(DeviceInfo::name).toList())
        + ", then timing a few designed splits (minutes on a large model or a busy machine; Ctrl-C stops it)";
  }

  /**
   * Runs {@code build}; when {@code measures}, says so through {@code notices} first and prints
   * {@code stopLine} ({@link #INTERRUPTED}, {@link #interruptedRun}) if the process is stopped before the build returns.
   */
  static <T> T run(boolean measures, LatencyBackend backend, OpGraph graph, Consumer<String> notices,
      String stopLine, Supplier<T> build) {
    if (!measures) {
      return build.get();
    }
    Thread hook = new Thread(() -> {
      System.err.println(stopLine);
      System.err.flush();
    }, "hsdag-cost-model-stop");
    // Hooked before it is announced: a stop right after the announcement must still be said.
    Runtime.getRuntime().addShutdownHook(hook);
    notices.accept(announcement(backend, graph));
    try {
      return build.get();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The process is stopping: the hook says so.
      }
    }
  }
}
