package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.CompileStats;

/**
 * The compiled models (each with its infer request and filled inputs) an {@link OpenVinoBackend}
 * keeps for reuse within a session, so a placement measured again — in the search, the final
 * interleaved rounds, the baselines — is not compiled again; least recently used released first
 * under a {@link CompileBudget}; with the compile figures of the session. A compile or infer
 * request that fails, or a kept model whose inference fails, is never kept. Not thread-safe: the
 * backend serialises its measurements.
 */
final class CompiledModels implements AutoCloseable {
  /** What the cost model's fit compiles, as the compile stats name it. */
  static final String DESIGNED_SPLITS = "the splits the cost model is fitted on, while building it";

  /**
   * Everything that makes two compiled models differ within one backend: the model file, the device
   * string ({@code HETERO:CPU,CPU2}) and every node's affinity as set. The backend's input shapes,
   * device properties (test devices) and {@code CACHE_DIR} are fixed when it opens.
   */
  record Key(Path xml, String device, Map<String, String> affinities) {
    Key {
      affinities = Map.copyOf(affinities);
    }
  }

  private final CompiledModelCache<Key, OpenVinoRuntime.Compiled> cache = new CompiledModelCache<>(0,
      OpenVinoRuntime.Compiled::close);
  private final Set<Key> distinct = new HashSet<>();
  private long requestedBytes = CompileCaching.DEFAULT_BUDGET;
  private String requestedSource = "default";
  private CompileBudget budget;
  private int compiles;
  private int failed;
  /** What the compiles are for while {@link #during} runs; null: the run's own measurements. */
  private String purpose;
  /** Failed compiles per purpose, with the first one's reason, for the stats line. */
  private final Map<String, Failures> failures = new java.util.LinkedHashMap<>();
  private double compileMillis;
  private final java.util.function.LongSupplier resident;

  /** {@code resident}: the resident bytes of the process the compiled models live in. */
  CompiledModels(java.util.function.LongSupplier resident) {
    this.resident = resident;
  }

  /** Sets the budget ({@link CompileCaching#compileCacheBudget}); the default is derived when first needed. */
  void budget(long bytes, String source) {
    requestedBytes = bytes;
    requestedSource = source;
    budget = bytes < 0 ? null : new CompileBudget(bytes, source);
    if (budget != null) {
      cache.budget(budget.bytes());
    }
  }

  /** The compiled model kept for {@code key} (a cache hit), or null. */
  OpenVinoRuntime.Compiled kept(Key key) {
    return cache.get(key);
  }

  /** Compiles by {@code compile}, counting the call and its time; a failure propagates (and is counted). */
  OpenVinoRuntime.Compiled compile(Key key, Supplier<OpenVinoRuntime.Compiled> compile) {
    long t = System.nanoTime();
    compiles++;
    distinct.add(key);
    try {
      return compile.get();
    } catch (RuntimeException e) {
      failed++;
      failures.merge(purpose == null ? "measurements of the run" : purpose, new Failures(1, e.getMessage()),
          (a, b) -> new Failures(a.count() + 1, a.firstReason()));
      throw e;
    } finally {
      compileMillis += (System.nanoTime() - t) / 1e6;
    }
  }

  /**
   * Runs {@code work}, whose compiles are for {@code what} (e.g. the cost model's designed splits): a
   * compile that fails in it is counted under that purpose, so the stats line says why it failed.
   */
  <T> T during(String what, Supplier<T> work) {
    String was = purpose;
    purpose = what;
    try {
      return work.get();
    } finally {
      purpose = was;
    }
  }

  /** Failed compiles of one purpose and why the first failed. */
  private record Failures(int count, String firstReason) {
    String describe(String purpose) {
      String why = firstReason == null ? "" : firstReason.strip().replaceAll("\\s+", " ");
      return count + " while compiling " + purpose
          + (why.isEmpty() ? "" : " (" + (why.length() > 160 ? why.substring(0, 160) + "…" : why) + ")");
    }
  }

  /**
   * Measures {@code c} by {@code measure}; a {@code fresh} one gets its inputs (from {@code seed}) first
   * and is then kept or closed ({@link #keepOrClose}); a kept one whose measurement fails is released.
   */
  <T> T use(Key key, OpenVinoRuntime.Compiled c, boolean fresh, long residentBefore, long seed,
      Function<OpenVinoRuntime.Compiled, T> measure) {
    boolean ok = false;
    try {
      if (fresh) {
        c.fillInputs(seed); // a kept model keeps its filled inputs: the same seed, the same data
      }
      T result = measure.apply(c);
      ok = true;
      return result;
    } finally {
      if (fresh) {
        keepOrClose(key, c, ok, residentBefore);
      } else if (!ok) {
        drop(key);
      }
    }
  }

  /**
   * After a freshly compiled model's first measurement: kept when it {@code succeeded} and fits the
   * budget (charged its resident growth since {@code residentBefore}, at least the weights), else closed.
   */
  private void keepOrClose(Key key, OpenVinoRuntime.Compiled c, boolean succeeded, long residentBefore) {
    if (!succeeded) {
      c.close();
      return;
    }
    long weights = CompileBudget.weightBytes(key.xml());
    if (budget == null) {
      budget = requestedBytes < 0 ? CompileBudget.byDefault(CompileBudget.memAvailable(), weights)
          : new CompileBudget(requestedBytes, requestedSource);
      cache.budget(budget.bytes());
    }
    long charge = CompileBudget.charge(residentBefore, resident.getAsLong(), weights);
    if (!cache.put(key, c, charge)) {
      c.close();
    }
  }

  /** Releases the kept model of {@code key} (its inference failed: it is not trusted again). */
  private void drop(Key key) {
    cache.remove(key);
  }

  CompileStats stats(String backend) {
    CompileBudget b = budget != null ? budget
        : new CompileBudget(Math.max(0, requestedBytes),
            requestedBytes < 0 ? "default, not derived yet" : requestedSource);
    java.util.List<String> why = new java.util.ArrayList<>();
    failures.forEach((purpose, f) -> why.add(f.describe(purpose)));
    return new CompileStats(backend, compiles, failed, compileMillis, distinct.size(), cache.hits(), cache.evictions(),
        b.bytes(), b.source(), cache.peakBytes(), cache.peakEntries(), String.join("; ", why));
  }

  /** Releases every kept compiled model. */
  @Override
  public void close() {
    cache.clear();
  }
}
