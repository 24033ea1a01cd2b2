package org.hsdag.plan;

import java.nio.IntBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every {@link CostCorrection} of one {@link PlacementProxy} computes alike, computed once: the
 * grouping of its terms and each placement's term sums. Both depend only on the proxy (its cost model
 * and objective) and the placement, while a run builds many corrections of the same proxy on the same
 * measured placements (a new one after each measurement, and one per left-out measurement to judge its
 * error): without this, hsdag's own time per measurement grew with the square of the measurements.
 * Thread-safe; the cached arrays are never written after they are built.
 */
final class CorrectionMemo {
  private final Map<IntBuffer, double[]> features = new ConcurrentHashMap<>();
  private volatile Object basis;

  /** The basis {@code build} makes, built on the first call only. */
  <T> T basis(Class<T> type, Supplier<T> build) {
    Object b = basis;
    if (b == null) {
      synchronized (this) {
        b = basis;
        if (b == null) {
          b = build.get();
          basis = b;
        }
      }
    }
    return type.cast(b);
  }

  /** The term sums of {@code opDevices} as {@code compute} gives them, computed once per placement (not copied). */
  double[] features(int[] opDevices, Function<int[], double[]> compute) {
    return features.computeIfAbsent(IntBuffer.wrap(opDevices.clone()), k -> compute.apply(opDevices));
  }
}
