package org.hsdag.train;

/**
 * Exponential moving average of rewards and of their variance, used to centre and scale
 * REINFORCE advantages: A = (r − b) / sd. Before the first update the statistics come from the
 * first batch itself, so the first update is already centred.
 */
public final class RewardBaseline {
  private final double alpha;
  private boolean initialised;
  private double mean;
  private double variance;

  public RewardBaseline(double alpha) {
    this.alpha = alpha;
  }

  /** Advantages of a batch against the statistics before it; then folds the batch in. */
  public double[] advantages(double[] rewards) {
    if (!initialised) {
      double m = 0;
      for (double r : rewards) {
        m += r;
      }
      m /= rewards.length;
      double v = 0;
      for (double r : rewards) {
        v += (r - m) * (r - m);
      }
      mean = m;
      variance = v / rewards.length;
      initialised = true;
    }
    double sd = Math.sqrt(variance);
    double floor = 1e-6 * Math.abs(mean) + 1e-12;
    double[] a = new double[rewards.length];
    for (int i = 0; i < rewards.length; i++) {
      a[i] = (rewards[i] - mean) / Math.max(sd, floor);
    }
    for (double r : rewards) {
      double d = r - mean;
      mean += alpha * d;
      variance = (1 - alpha) * (variance + alpha * d * d);
    }
    return a;
  }

  public boolean initialised() {
    return initialised;
  }

  public double mean() {
    return mean;
  }

  public double variance() {
    return variance;
  }

  void restore(boolean initialised, double mean, double variance) {
    this.initialised = initialised;
    this.mean = mean;
    this.variance = variance;
  }
}
