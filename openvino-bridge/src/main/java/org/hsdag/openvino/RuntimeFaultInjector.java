package org.hsdag.openvino;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.hsdag.placement.Placement;

/**
 * A test fault injector, not a feature: only tests set one of its system properties, {@value #PROPERTY} or {@value
 * #HANG_PROPERTY}. With the first, the runtime child raises SIGSEGV on itself (in the thread that makes the native
 * calls) as one chosen measurement starts its compile or inference; with the second, that thread stops reading
 * requests there, as a native hang would, and nothing outside the child can make it answer again (a stopped child can
 * be continued by anyone's SIGCONT). Either way a test knows the fault lands inside that measurement and not in a
 * compile, a profiling run or between steps. Without them (always, for a user) nothing is counted, kept or sent, and
 * the child refuses the fault requests.
 *
 * <p>The value is {@code KIND:N}; the kinds name what the backend is asked to measure, which in a {@code tune} is its
 * phase: {@code baseline:N} the Nth placement on one device measured for the first time (a single-device baseline;
 * the search answers those from its cache), {@code search:N} the Nth split placement measured for the first time,
 * {@code final:N} the Nth measurement of a placement measured before but not just before (the final race's
 * re-measurements; a re-take of a loaded measurement follows its first take). The cost model's designed splits are
 * not counted. Mutable, owned by one backend.
 */
final class RuntimeFaultInjector {
  /** The system property that turns the injector on. Its name says what it is, so nobody sets it by accident. */
  static final String PROPERTY = "hsdag.testFaultInjector.crashRuntimeAt";
  /** The system property that turns the injector on to hang the child instead; the same values. */
  static final String HANG_PROPERTY = "hsdag.testFaultInjector.hangRuntimeAt";

  /** What the chosen measurement's child does: the request the tune sends it first. */
  enum Fault {
    CRASH(RuntimeServer.TEST_CRASH), HANG(RuntimeServer.TEST_HANG);

    private final String request;

    Fault(String request) {
      this.request = request;
    }

    String request() {
      return request;
    }
  }

  /** What a chosen measurement is. */
  enum Kind {
    BASELINE, SEARCH, FINAL
  }

  private final Kind kind;
  private final int ordinal;
  private final Fault fault;
  private final Set<Placement> measured = new HashSet<>();
  private Placement last;
  private int count;

  private RuntimeFaultInjector(Kind kind, int ordinal, Fault fault) {
    this.kind = kind;
    this.ordinal = ordinal;
    this.fault = fault;
  }

  /**
   * The injector {@link #PROPERTY} or {@link #HANG_PROPERTY} asks for; one that never fires when neither is set.
   *
   * @throws IllegalArgumentException when both are set, or for a value {@link #parse} refuses
   */
  static RuntimeFaultInjector fromSystemProperty() {
    String crash = System.getProperty(PROPERTY);
    String hang = System.getProperty(HANG_PROPERTY);
    if (crash != null && hang != null) {
      throw new IllegalArgumentException("set one of " + PROPERTY + " and " + HANG_PROPERTY + " (a test fault "
          + "injector), not both");
    }
    return hang != null ? parse(hang, Fault.HANG) : parse(crash, Fault.CRASH);
  }

  /** {@link #parse(String, Fault)} of a crash. */
  static RuntimeFaultInjector parse(String value) {
    return parse(value, Fault.CRASH);
  }

  /**
   * The injector of {@code fault} for {@code value} ({@code search:1}); one that never fires for null.
   *
   * @throws IllegalArgumentException for any other value
   */
  static RuntimeFaultInjector parse(String value, Fault fault) {
    String property = fault == Fault.HANG ? HANG_PROPERTY : PROPERTY;
    if (value == null) {
      return new RuntimeFaultInjector(null, 0, fault);
    }
    String[] parts = value.split(":", -1);
    try {
      int n = Integer.parseInt(parts[parts.length - 1]);
      if (parts.length != 2 || n < 1) {
        throw new NumberFormatException();
      }
      return new RuntimeFaultInjector(Kind.valueOf(parts[0].toUpperCase(Locale.ROOT)), n, fault);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + " (a test fault injector) is baseline:N, search:N or final:N, "
          + "N >= 1; got '" + value + "'", e);
    }
  }

  /** Whether it is on: a property was set. */
  boolean enabled() {
    return kind != null;
  }

  /** Counts the measurement of {@code p} about to start; true when it is the chosen one. */
  synchronized boolean fires(Placement p) {
    if (kind == null) {
      return false;
    }
    // The same placement right after itself is a re-take of a loaded measurement, not another measurement of it.
    boolean first = measured.add(p);
    Kind k = !first ? (p.equals(last) ? null : Kind.FINAL) : p.isSingleDevice() ? Kind.BASELINE : Kind.SEARCH;
    last = p;
    return k == kind && ++count == ordinal;
  }

  /** Counts the measurement of {@code p} (null: one not counted) and arms {@code runtime}'s child when chosen. */
  void before(Placement p, OpenVinoRuntime runtime) {
    if (p != null && fires(p) && runtime instanceof IsolatedRuntime isolated) {
      isolated.faultInNextMeasurement(fault);
    }
  }

  /**
   * Raises SIGSEGV in the calling thread by writing to address 0, as a native bug would: the JVM's fatal error
   * handler reports it and the process ends (the child's, when the injector asked it to).
   */
  static void crashThisThread() {
    try {
      Class<?> unsafe = Class.forName("sun.misc.Unsafe");
      java.lang.reflect.Field f = unsafe.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe.getMethod("putAddress", long.class, long.class).invoke(f.get(null), 0L, 0L);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the test fault injector cannot crash this process: " + e, e);
    }
    throw new IllegalStateException("the test fault injector wrote to address 0 and the process went on");
  }

  /**
   * Blocks the calling thread for good, as a native call that never returns would: the child's serving thread
   * reads no further request, and only ending the process ends it.
   */
  static void hangThisThread() {
    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    while (true) {
      try {
        never.await();
      } catch (InterruptedException e) {
        // a hang ignores interrupts as a native call does
      }
    }
  }
}
