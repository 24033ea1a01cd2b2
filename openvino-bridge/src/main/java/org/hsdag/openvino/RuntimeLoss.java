package org.hsdag.openvino;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the real backend says when it loses its runtime child ({@link OpenVinoRuntime#watch}), as it happens: the
 * reason and what it costs. During a measurement the placement fails and is never measured again; outside one (a
 * cost model's profiling, a boundary check) that call fails. Either way the next call starts a fresh child.
 */
final class RuntimeLoss {
  private volatile Consumer<String> sink = s -> {};
  private volatile boolean measuring;
  /** The call name of a child's start, which no measurement is blamed for. */
  static final String STARTING = "start";

  void sink(Consumer<String> s) {
    sink = s;
  }

  /** Runs {@code measurement}: a loss during it is the measurement's. */
  <T> T during(Supplier<T> measurement) {
    measuring = true;
    try {
      return measurement.get();
    } finally {
      measuring = false;
    }
  }

  /** The child was lost for {@code reason} during its call {@code call}. */
  void lost(String reason, String call) {
    if (STARTING.equals(call)) {
      sink.accept("a fresh runtime child failed while it started (" + reason + "); starting another");
      return;
    }
    sink.accept(measuring
        ? "the runtime child was lost during a measurement (" + reason + "): that placement is recorded as failed and "
            + "never measured again; going on with a fresh runtime"
        : "the runtime child was lost during its call " + call + " (" + reason + "); the next call starts a fresh "
            + "runtime");
  }
}
