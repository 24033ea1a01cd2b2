package org.hsdag.backend;

/**
 * A backend that times its own calls, so a whole session can say where its wall time went
 * (OpenVINO compile, inference, cost-model profiling, hsdag's own time). The native backend offers
 * it through {@link Timeable}; the simulator, which takes no time of its own worth counting, does
 * not. Callers ask {@link LatencyBackend#capability} for it and never name the timed backend.
 */
public interface CallTiming {
  /**
   * One line: the share of each kind of call in {@code wallSeconds}, this session's wall time as
   * the caller counts it (a tune: since the command started, as its {@code wall:} line), so the two
   * figures agree; hsdag's own time is the rest.
   */
  default String shares(double wallSeconds) {
    return shares(Elsewhere.NONE, wallSeconds);
  }

  /** As {@link #shares(double)}, with the wall spent waiting for measurements made {@code elsewhere}: not hsdag's own. */
  String shares(Elsewhere elsewhere, double wallSeconds);

  /**
   * Wall time spent waiting for measurements another machine made (e.g. cluster workers).
   *
   * @param where who measured, e.g. {@code cluster workers}
   * @param millis the wall time waited, joining included
   * @param measurements how many they made
   */
  record Elsewhere(String where, double millis, int measurements) {
    public static final Elsewhere NONE = new Elsewhere("", 0, 0);
  }

  /** A backend that can be wrapped so that its calls are timed. */
  interface Timeable {
    /** This backend with its calls timed (offering {@link CallTiming}); closing the result closes this. */
    LatencyBackend timed();
  }

  /**
   * {@code backend} timed, and closed with the result, when it is itself {@link Timeable}; else
   * {@code backend}. A decorator is not looked through: the timer wraps the backend's own calls.
   */
  static LatencyBackend wrap(LatencyBackend backend) {
    return backend instanceof Timeable t ? t.timed() : backend;
  }
}
