package org.hsdag.openvino;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;

/**
 * {@link OpenVinoRuntime} in a child process ({@link RuntimeChild}): every native call — read,
 * reshape, query, compile, infer, profile — is a request to the child, so a native crash or hang
 * ends the child, not the tune. Models and compiled models stay in the child between calls (the
 * compile cache keeps working); this side holds their handles. When the child is lost ({@link
 * RuntimeLostException}) every handle of it is dead ({@link #generation()} moves on) and the next
 * call starts a fresh child, replaying the test devices and properties set so far.
 *
 * <p>Inside a {@link #deadline}, a measurement's calls must all be answered by the deadline set before it;
 * outside one, each call by the limit {@link #watch} gives (none by default). Not thread-safe beyond the
 * backend's own serialisation.
 */
final class IsolatedRuntime implements OpenVinoRuntime {
  private final Function<Path, List<String>> command;
  private final List<TestDevice> testDevices = new ArrayList<>();
  private final List<List<String>> properties = new ArrayList<>();
  private RuntimeChild child;
  private volatile long pid;
  private long generation;
  private long deadlineNanos = Long.MAX_VALUE;
  private String onTimeout = "";
  private java.util.function.Supplier<Duration> callLimit = () -> null;
  /**
   * A call outside a measurement gets at least this long, whatever the measurement limit: opening the runtime,
   * reading the model and a whole-model profiling compile are not what a short limit is set for, and a hang there
   * is still ended.
   */
  static final Duration OUTSIDE_MEASUREMENT_FLOOR = Duration.ofSeconds(30);
  private java.util.function.BiConsumer<String, String> lost = (reason, op) -> {};
  /** Calls before which an armed test fault injector makes the child fail: a measurement's compile or inference. */
  private static final java.util.Set<String> FAULT_AT = java.util.Set.of("compile", "compileAutomatic",
      "compileForThroughput", "inferTimed", "inferThroughput");
  /** Set by a test's fault injector ({@link RuntimeFaultInjector}) only; cleared when the measurement ends. */
  private RuntimeFaultInjector.Fault armed;
  private String version;
  /** Wall time waiting on the child by call name; read by the tune's timing from any thread. */
  private final Map<String, Long> busy = new java.util.concurrent.ConcurrentHashMap<>();

  /** A runtime whose children {@code command} starts (given the socket path); the first starts at once. */
  IsolatedRuntime(Function<Path, List<String>> command) {
    this.command = command;
    child();
  }

  /** The real runtime in a child JVM with this JVM's class path. */
  static IsolatedRuntime java() {
    return new IsolatedRuntime(RuntimeChild::javaCommand);
  }

  @Override
  public boolean isolated() {
    return true;
  }

  @Override
  public synchronized void deadline(Duration limit) {
    if (limit != null && child != null && !child.alive()) {
      // It died between measurements: the next measurement gets a fresh child and no blame.
      child.close();
      child = null;
      generation++;
    }
    if (limit != null) {
      freshForMeasurement(); // before the deadline runs: a child's start is not the measurement's time
    }
    if (limit == null) {
      deadlineNanos = Long.MAX_VALUE;
      armed = null;
    } else {
      deadlineNanos = System.nanoTime() + limit.toNanos();
      onTimeout = "no answer in " + MeasurementLimit.describe(limit) + " (the runtime was ended)";
    }
  }

  @Override
  public synchronized void watch(java.util.function.Supplier<Duration> limit,
      java.util.function.BiConsumer<String, String> lost) {
    this.callLimit = limit;
    this.lost = lost;
  }

  @Override
  public synchronized long generation() {
    return generation;
  }

  /** Read without the lock, which a call holds while it waits for the child. */
  @Override
  public OptionalLong childPid() {
    long p = pid;
    return p == 0 ? OptionalLong.empty() : OptionalLong.of(p);
  }

  @Override
  public long residentBytes() {
    long p = pid;
    return p == 0 ? 0 : CompileBudget.residentBytes(Path.of("/proc", Long.toString(p), "statm"));
  }

  /**
   * The child for the next measurement. One that dies while it starts is no placement's doing and would fail
   * whichever comes next, so it is said and a second start is tried; a second failure goes to the caller.
   */
  private void freshForMeasurement() {
    try {
      child();
    } catch (OpenVinoException first) {
      lost.accept(first.getMessage(), RuntimeLoss.STARTING);
      child();
    }
  }

  private RuntimeChild child() {
    if (child == null) {
      RuntimeChild c = RuntimeChild.start(command, RuntimeChild.START_LIMIT);
      try {
        for (TestDevice t : testDevices) {
          c.call(Long.MAX_VALUE, "", "registerTestDevice", 0, t.name(), t.threads(), t.precision());
        }
        for (List<String> p : properties) {
          c.call(Long.MAX_VALUE, "", "setProperty", 0, p.get(0), p.get(1), p.get(2));
        }
      } catch (RuntimeException e) {
        c.close();
        throw e;
      }
      child = c;
      pid = c.pid();
    }
    return child;
  }

  /**
   * For a test's fault injector only ({@link RuntimeFaultInjector}): at the next measurement's first compile or
   * inference the child crashes itself, or hangs, as a native crash or hang there would.
   */
  synchronized void faultInNextMeasurement(RuntimeFaultInjector.Fault fault) {
    armed = fault;
  }

  /** One call to the child on {@code handle} made in {@code gen}; a lost child is ended and forgotten. */
  synchronized List<Object> call(long gen, long handle, String op, Object... args) {
    if (gen != generation) {
      throw new RuntimeLostException("the runtime was restarted since this model was read");
    }
    RuntimeChild c = child();
    long deadline = deadlineNanos;
    String reason = onTimeout;
    Duration perCall = deadline == Long.MAX_VALUE ? callLimit.get() : null;
    if (perCall != null) {
      perCall = perCall.compareTo(OUTSIDE_MEASUREMENT_FLOOR) < 0 ? OUTSIDE_MEASUREMENT_FLOOR : perCall;
      // Outside a measurement: this call alone must be answered in time (a profiling compile, a boundary check).
      deadline = System.nanoTime() + perCall.toNanos();
      reason = "no answer in " + MeasurementLimit.describe(perCall) + " to " + op + " (the runtime was ended)";
    }
    long start = System.nanoTime();
    try {
      if (armed != null && deadlineNanos != Long.MAX_VALUE && FAULT_AT.contains(op)) {
        String fault = armed.request();
        armed = null;
        c.call(deadline, reason, fault, 0); // the child dies in it or hangs after it, or refuses when off
      }
      return c.call(deadline, reason, op, handle, args);
    } catch (RuntimeLostException e) {
      child = null;
      pid = 0;
      generation++;
      lost.accept(e.getMessage(), op);
      throw e;
    } finally {
      busy.merge(op, System.nanoTime() - start, Long::sum);
    }
  }

  @Override
  public Map<String, Long> busyNanos() {
    return Map.copyOf(busy);
  }

  /** Closes a handle; nothing to do when its child is gone. */
  synchronized void release(long gen, long handle) {
    if (gen == generation && child != null) {
      call(gen, handle, "close");
    }
  }

  private List<Object> call(String op, Object... args) {
    long gen;
    synchronized (this) {
      child();
      gen = generation;
    }
    return call(gen, 0, op, args);
  }

  @Override
  public synchronized String version() {
    if (version == null) {
      version = (String) call("version").get(0);
    }
    return version;
  }

  @Override
  public List<DeviceInfo> devices() {
    List<DeviceInfo> out = new ArrayList<>();
    for (Object d : call("devices")) {
      List<?> pair = (List<?>) d;
      out.add(new DeviceInfo((String) pair.get(0), (String) pair.get(1)));
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized void registerTestDevice(TestDevice device) {
    call("registerTestDevice", device.name(), device.threads(), device.precision());
    testDevices.add(device);
  }

  @Override
  public synchronized void setProperty(String device, String key, String value) {
    call("setProperty", device, key, value);
    properties.add(List.of(device, key, value));
  }

  @Override
  public OptionalLong unsignedProperty(String device, String key) {
    List<Object> v = call("unsignedProperty", device, key);
    return v.isEmpty() ? OptionalLong.empty() : OptionalLong.of((Long) v.get(0));
  }

  @Override
  public Model readModel(Path xml) {
    long gen;
    synchronized (this) {
      child();
      gen = generation;
    }
    long handle = (Long) call(gen, 0, "readModel", xml.toAbsolutePath().toString()).get(0);
    return new IsolatedModel(this, gen, handle);
  }

  /** Asks the child to end and ends it. */
  @Override
  public synchronized void close() {
    if (child != null) {
      try {
        child.call(System.nanoTime() + Duration.ofSeconds(5).toNanos(), "", "exit", 0);
      } catch (RuntimeException e) {
        // ended below anyway
      }
      child.close();
      child = null;
      pid = 0;
      generation++;
    }
  }

  /** Casts an answer's value, for the proxies. */
  static <T> T value(List<Object> answer, Class<T> type) {
    return type.cast(answer.get(0));
  }

  /** The list of strings an answer carries first. */
  static List<String> strings(List<Object> answer) {
    return ((List<?>) answer.get(0)).stream().map(String.class::cast).toList();
  }

  /** The handle of a compiled model in {@code answer}, wrapped. */
  IsolatedCompiled compiled(long gen, List<Object> answer) {
    return new IsolatedCompiled(this, gen, (Long) answer.get(0));
  }

  /** A map as the wire carries it. */
  static Map<String, String> map(Map<String, String> m) {
    return new java.util.LinkedHashMap<>(m);
  }
}
