package org.hsdag.sim;

import java.util.SplittableRandom;

/**
 * Multiplicative run-to-run noise of simulated samples: each run is
 * {@code base · exp(sigma · z) · (1 + warmupPenalty · 2^-k)}, z standard normal and k the run's
 * index counting warm-up runs (the first runs of a fresh request are slower), and with
 * probability {@code outlierProbability} additionally times a factor uniform in
 * [{@code outlierMin}, {@code outlierMax}) (an OS hiccup, a GPU clock change).
 *
 * @param sigma log-normal spread (0.02 = about 2%)
 * @param outlierProbability chance that one run is an outlier
 * @param outlierMin smallest outlier factor (>= 1)
 * @param outlierMax largest outlier factor
 * @param warmupPenalty extra fraction of the first run, halving with every later run
 */
public record NoiseModel(double sigma, double outlierProbability, double outlierMin, double outlierMax,
    double warmupPenalty) {
  /** No noise at all: every sample equals the simulated latency (for exact tests). */
  public static final NoiseModel ZERO = new NoiseModel(0, 0, 1, 1, 0);
  /** 2% spread, 1% outliers of 1.3–2.5x, a 25% slower first run. */
  public static final NoiseModel DEFAULT = new NoiseModel(0.02, 0.01, 1.3, 2.5, 0.25);

  public NoiseModel {
    if (sigma < 0 || outlierProbability < 0 || outlierProbability > 1 || outlierMin < 1 || outlierMax < outlierMin
        || warmupPenalty < 0) {
      throw new IllegalArgumentException("bad noise model " + sigma + ", " + outlierProbability + ", " + outlierMin
          + ", " + outlierMax + ", " + warmupPenalty);
    }
  }

  public boolean isZero() {
    return sigma == 0 && outlierProbability == 0 && warmupPenalty == 0;
  }

  /** Fills {@code out} with the timed runs (after {@code warmup} untimed ones) of latency {@code base}. */
  public void sample(double base, int warmup, double[] out, SplittableRandom rng) {
    if (isZero()) {
      java.util.Arrays.fill(out, base);
      return;
    }
    double penalty = warmupPenalty * Math.scalb(1.0, -Math.min(warmup, 1000));
    for (int k = 0; k < out.length; k++) {
      double x = base * (1 + penalty);
      if (sigma > 0) {
        x *= Math.exp(sigma * rng.nextGaussian());
      }
      if (outlierProbability > 0 && rng.nextDouble() < outlierProbability) {
        x *= outlierMin + (outlierMax - outlierMin) * rng.nextDouble();
      }
      out[k] = x;
      penalty *= 0.5;
    }
  }
}
