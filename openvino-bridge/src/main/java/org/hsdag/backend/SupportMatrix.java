package org.hsdag.backend;

import org.hsdag.placement.DeviceSet;

/**
 * Which devices can run each node: bit d of {@code allowedMask[node]} is set when device d of
 * {@code devices} can run it (HETERO's {@code query_model} answer).
 */
public record SupportMatrix(DeviceSet devices, long[] allowedMask) {
  public SupportMatrix {
    if (devices.size() > 63) {
      throw new IllegalArgumentException("at most 63 devices");
    }
    allowedMask = allowedMask.clone();
  }

  /** Every device runs every one of {@code nodeCount} nodes. */
  public static SupportMatrix all(DeviceSet devices, int nodeCount) {
    long[] m = new long[nodeCount];
    java.util.Arrays.fill(m, (1L << devices.size()) - 1);
    return new SupportMatrix(devices, m);
  }

  @Override
  public long[] allowedMask() {
    return allowedMask.clone();
  }

  public int nodeCount() {
    return allowedMask.length;
  }

  public boolean allowed(int node, int device) {
    return (allowedMask[node] >>> device & 1L) != 0;
  }

  public long mask(int node) {
    return allowedMask[node];
  }
}
