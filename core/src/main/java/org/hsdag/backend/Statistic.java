package org.hsdag.backend;

/** How a measurement's samples reduce to one latency. */
public enum Statistic {
  /** Mean of the last k samples (the HSDAG paper: 10 runs, mean of the last 5). */
  MEAN_OF_LAST,
  /** Median of all timed samples. */
  MEDIAN,
  /** Mean after dropping a fraction of the lowest and highest samples. */
  TRIMMED_MEAN
}
