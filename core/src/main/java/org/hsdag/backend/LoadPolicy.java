package org.hsdag.backend;

import java.util.Locale;

/**
 * When a real measurement counts as taken under foreign load, and what to do about it: a
 * measurement during which other processes used more than {@code limit} of the machine's CPU time
 * is taken again, at most {@code retakes} times; if every attempt was loaded, the least loaded one
 * is kept and flagged.
 *
 * <p>Why 0.25 by default: a latency-mode CPU inference runs one stream on every core, so foreign
 * processes taking a share s of the CPU time stretch a compute-bound inference by up to s / (1 − s):
 * 33 % at 0.25, far more than the few per cent that separate placements worth telling apart, while
 * lower limits would re-take nearly every measurement on a machine with a background job.
 *
 * @param limit the largest foreign share of the machine's CPU time (0 to 1) a measurement is trusted under
 * @param retakes how often a loaded measurement is taken again before it is kept flagged
 */
public record LoadPolicy(double limit, int retakes) {
  /** Default: re-take above a quarter of the machine, twice at most. */
  public static final LoadPolicy DEFAULT = new LoadPolicy(0.25, 2);

  public LoadPolicy {
    if (!(limit > 0 && limit <= 1) || retakes < 0) {
      throw new IllegalArgumentException(
          String.format(Locale.ROOT, "load limit must be in (0, 1] and retakes >= 0 (got %s, %d)", limit, retakes));
    }
  }

  /** Whether a measurement under {@code load} is too loaded to trust. */
  public boolean tooLoaded(MeasurementLoad load) {
    return load.foreignShare() > limit;
  }

  public String describe() {
    return String.format(Locale.ROOT, "re-taken (at most %d times) when other processes use more than %.0f %% of the "
        + "CPU time, then kept and flagged", retakes, 100 * limit);
  }
}
