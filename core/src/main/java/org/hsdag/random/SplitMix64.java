package org.hsdag.random;

/**
 * SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
 * 2014), the one definition every seeded stream in hsdag derives from: a run's seed and a key (a
 * step, a measurement, a region) give a seed of their own, so each stream is reproducible alone.
 */
public final class SplitMix64 {
  /** The golden-ratio increment, 2^64 / phi, odd. */
  public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private SplitMix64() {}

  /** The finaliser (variant 13 of Stafford's mixers): every input bit affects every output bit. */
  public static long finalise(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The next output of a SplitMix64 generator whose state was {@code state}. */
  public static long next(long state) {
    return finalise(state + GOLDEN_GAMMA);
  }

  /** The seed of stream {@code index} (0, 1, ...) of a run seeded {@code seed}: output {@code index + 1} of SplitMix64 from {@code seed}. */
  public static long stream(long seed, long index) {
    return finalise(seed + GOLDEN_GAMMA * (index + 1));
  }

  /** A seed for {@code key} within a run seeded {@code seed}, with the seed scaled by the gamma before the key is added. */
  public static long mix(long seed, long key) {
    return finalise(seed * GOLDEN_GAMMA + key);
  }
}
