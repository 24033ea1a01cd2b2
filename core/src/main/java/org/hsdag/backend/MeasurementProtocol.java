package org.hsdag.backend;

import java.util.Arrays;

/**
 * How one placement is timed: {@code warmupRuns} untimed runs, then {@code runs} timed runs
 * reduced by {@code statistic}.
 *
 * @param warmupRuns untimed runs before the timed ones
 * @param runs timed runs (samples kept)
 * @param statistic the reduction
 * @param lastK for {@link Statistic#MEAN_OF_LAST}: how many trailing samples are averaged
 * @param trimFraction for {@link Statistic#TRIMMED_MEAN}: fraction dropped at each end (0..0.5)
 */
public record MeasurementProtocol(int warmupRuns, int runs, Statistic statistic, int lastK, double trimFraction) {
  /** The paper's protocol: 10 runs, mean of the last 5. */
  public static final MeasurementProtocol PAPER = new MeasurementProtocol(0, 10, Statistic.MEAN_OF_LAST, 5, 0.0);

  public MeasurementProtocol {
    if (warmupRuns < 0 || runs < 1) {
      throw new IllegalArgumentException(
          "Expected warmupRuns >= 0 and runs >= 1 (got " + warmupRuns + ", " + runs + ")");
    }
    if (statistic == Statistic.MEAN_OF_LAST && (lastK < 1 || lastK > runs)) {
      throw new IllegalArgumentException("Expected 1 <= lastK <= runs (got lastK=" + lastK + ", runs=" + runs + ")");
    }
    if (trimFraction < 0 || trimFraction >= 0.5) {
      throw new IllegalArgumentException("Expected 0 <= trimFraction < 0.5 (got " + trimFraction + ")");
    }
  }

  /** The same protocol with {@code factor} times the timed runs (for final re-measurement). */
  public MeasurementProtocol scaled(int factor) {
    int r = runs * factor;
    return new MeasurementProtocol(warmupRuns, r, statistic,
        statistic == Statistic.MEAN_OF_LAST ? lastK * factor : lastK, trimFraction);
  }

  /** Reduces timed samples to the protocol's latency. */
  public double reduce(double[] samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    return switch (statistic) {
      case MEAN_OF_LAST -> {
        int k = Math.min(lastK, samples.length);
        double s = 0;
        for (int i = samples.length - k; i < samples.length; i++) {
          s += samples[i];
        }
        yield s / k;
      }
      case MEDIAN -> {
        double[] c = samples.clone();
        Arrays.sort(c);
        int m = c.length / 2;
        yield c.length % 2 == 1 ? c[m] : (c[m - 1] + c[m]) / 2;
      }
      case TRIMMED_MEAN -> {
        double[] c = samples.clone();
        Arrays.sort(c);
        int drop = (int) Math.floor(c.length * trimFraction);
        double s = 0;
        for (int i = drop; i < c.length - drop; i++) {
          s += c[i];
        }
        yield s / (c.length - 2 * drop);
      }
    };
  }

  /** The 95% confidence interval of {@link #reduce}'s statistic over {@code samples}. */
  public double[] interval(double[] samples) {
    return ConfidenceInterval.of(statistic, samples, lastK, trimFraction);
  }

  /** Short form for logs and manifests, e.g. {@code 0+10 mean-of-last-5}. */
  public String describe() {
    String stat = switch (statistic) {
      case MEAN_OF_LAST -> "mean-of-last-" + lastK;
      case MEDIAN -> "median";
      case TRIMMED_MEAN -> "trimmed-mean-" + trimFraction;
    };
    return warmupRuns + "+" + runs + " " + stat;
  }
}
