package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;

/** Timing is asked of the backend: one that can be timed is wrapped, any other is used as it is. */
class CallTimingTest {
  @Test
  void aBackendThatCannotBeTimedIsReturnedAsItIs() {
    FakeBackend fake = FakeBackend.cpuGpu();
    assertSame(fake, CallTiming.wrap(fake));
    assertTrue(fake.capability(CallTiming.class).isEmpty());
  }

  @Test
  void aTimeableBackendIsReplacedByItsTimedSelfAndADecoratorIsNotLookedThrough() {
    AtomicInteger timedCalls = new AtomicInteger();
    FakeBackend inner = FakeBackend.cpuGpu();
    LatencyBackend timedView = new Timed(inner);
    Timeable timeable = new Timeable(inner, () -> {
      timedCalls.incrementAndGet();
      return timedView;
    });
    LatencyBackend wrapped = CallTiming.wrap(timeable);
    assertSame(timedView, wrapped);
    assertEquals(1, timedCalls.get());
    assertEquals("wall 1.0 s", wrapped.capability(CallTiming.class).orElseThrow().shares(1.0));

    ForwardingBackend decorated = new ForwardingBackend(timeable) {};
    assertSame(decorated, CallTiming.wrap(decorated));
    assertEquals(1, timedCalls.get(), "a decorator's delegate is not timed behind its back");
  }

  /** A backend that can be timed, as the native one. */
  private static final class Timeable extends ForwardingBackend implements CallTiming.Timeable {
    private final Supplier<LatencyBackend> timed;

    Timeable(LatencyBackend delegate, Supplier<LatencyBackend> timed) {
      super(delegate);
      this.timed = timed;
    }

    @Override
    public LatencyBackend timed() {
      return timed.get();
    }
  }

  /** The timed view: it states its shares. */
  private static final class Timed extends ForwardingBackend implements CallTiming {
    Timed(LatencyBackend delegate) {
      super(delegate);
    }

    @Override
    public String shares(Elsewhere elsewhere, double wallSeconds) {
      return String.format(java.util.Locale.ROOT, "wall %.1f s", wallSeconds);
    }
  }
}
