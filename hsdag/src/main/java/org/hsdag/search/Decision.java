package org.hsdag.search;

/** How the final re-measurement chose its winner. */
public enum Decision {
  /** A split placement is the fastest and clearly faster than every single device (disjoint 95% intervals). */
  SPLIT_WINS,
  /** A single device is the fastest of all. */
  SINGLE_DEVICE_FASTEST,
  /** A split placement measured fastest, but within the noise of the fastest single device, which is kept. */
  SPLIT_WITHIN_NOISE,
  /** Nothing ran. */
  NOTHING_RAN
}
