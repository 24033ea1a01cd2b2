package org.hsdag.backend;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * A {@link LatencyBackend} decorator that measures each (graph, placement, protocol) once: a
 * placement sampled again returns the stored {@link Measurement} (failed ones included, since a
 * placement that cannot run keeps failing) unless {@link #remeasure} asks for a fresh one.
 *
 * <p>Graphs are keyed by identity (the same {@link OpGraph} instance), placements by their device
 * set and assignment, protocols by value. At most {@code capacity} entries are kept per graph,
 * the least recently used evicted first. Thread-safe.
 */
public final class CachingLatencyBackend implements LatencyBackend {
  /** Default number of cached measurements per graph. */
  public static final int DEFAULT_CAPACITY = 1 << 20;

  private final LatencyBackend delegate;
  private final int capacity;
  private final Map<OpGraph, Map<Key, Measurement>> byGraph = new IdentityHashMap<>();
  private long hits;
  private long misses;

  public CachingLatencyBackend(LatencyBackend delegate, int capacity) {
    this.delegate = Objects.requireNonNull(delegate);
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1 (got " + capacity + ")");
    }
    this.capacity = capacity;
  }

  public CachingLatencyBackend(LatencyBackend delegate) {
    this(delegate, DEFAULT_CAPACITY);
  }

  /** The wrapped backend. */
  public LatencyBackend delegate() {
    return delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String profile() {
    return delegate.profile();
  }

  @Override
  public boolean simulated() {
    return delegate.simulated();
  }

  @Override
  public List<DeviceInfo> devices() {
    return delegate.devices();
  }

  @Override
  public SupportMatrix supports(OpGraph graph, DeviceSet devices) {
    return delegate.supports(graph, devices);
  }

  /** The cached measurement if there is one, else a new one (then cached). */
  @Override
  public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    Key key = new Key(placement, protocol);
    synchronized (this) {
      Measurement m = table(graph).get(key);
      if (m != null) {
        hits++;
        return m;
      }
      misses++;
    }
    // Measure outside the lock: a real measurement takes long and others may use the cache meanwhile.
    Measurement fresh = delegate.measure(graph, placement, protocol);
    synchronized (this) {
      table(graph).putIfAbsent(key, fresh);
    }
    return fresh;
  }

  /** Measures again even if cached, and stores the new measurement in place of the old one. */
  public Measurement remeasure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    Measurement fresh = delegate.measure(graph, placement, protocol);
    synchronized (this) {
      misses++;
      table(graph).put(new Key(placement, protocol), fresh);
    }
    return fresh;
  }

  /** The cached measurement, or null (never measures). */
  public synchronized Measurement cached(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
    Map<Key, Measurement> t = byGraph.get(graph);
    return t == null ? null : t.get(new Key(placement, protocol));
  }

  /** Forgets every cached measurement of {@code graph}. */
  public synchronized void invalidate(OpGraph graph) {
    byGraph.remove(graph);
  }

  /** Forgets everything. */
  public synchronized void clear() {
    byGraph.clear();
  }

  /** Number of cached measurements over all graphs. */
  public synchronized int size() {
    int n = 0;
    for (Map<Key, Measurement> t : byGraph.values()) {
      n += t.size();
    }
    return n;
  }

  /** Measurements answered from the cache. */
  public synchronized long hits() {
    return hits;
  }

  /** Measurements passed to the delegate (including {@link #remeasure}). */
  public synchronized long misses() {
    return misses;
  }

  @Override
  public void close() {
    delegate.close();
  }

  private Map<Key, Measurement> table(OpGraph graph) {
    return byGraph.computeIfAbsent(graph, g -> new LinkedHashMap<>(64, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, Measurement> eldest) {
        return size() > capacity;
      }
    });
  }

  /** Placement (devices + assignment, equality by value) and protocol. */
  private record Key(Placement placement, MeasurementProtocol protocol) {}
}
