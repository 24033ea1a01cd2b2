package org.hsdag.tune;

import java.util.HashMap;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.placement.Placement;

/**
 * Measurements by placement, so a placement the search proposes again is not timed again. Keys are
 * whole placements (not hashes), so a hash collision can never return another placement's number.
 */
public final class MeasurementCache {
  private final Map<Placement, Measurement> byPlacement = new HashMap<>();
  private int hits;

  /** The earlier measurement of {@code p}, or null (and counts a hit when found). */
  public Measurement lookup(Placement p) {
    Measurement m = byPlacement.get(p);
    if (m != null) {
      hits++;
    }
    return m;
  }

  /** Remembers the first measurement of {@code p}; later ones do not replace it. */
  public void put(Placement p, Measurement m) {
    byPlacement.putIfAbsent(p, m);
  }

  public int size() {
    return byPlacement.size();
  }

  /** Lookups answered from the cache. */
  public int hits() {
    return hits;
  }
}
