package org.hsdag.backend;

import org.hsdag.placement.DeviceSet;

/**
 * Which devices can run each node: bit d of {@code allowedMask[node]} is set when device d of
 * {@code devices} can run it (HETERO's {@code query_model} answer).
 */
public final class SupportMatrix {
  private final DeviceSet devices;
  private final long[] allowedMask;

  public SupportMatrix(DeviceSet devices, long[] allowedMask) {
    if (devices.size() > 63) {
      throw new IllegalArgumentException("at most 63 devices");
    }
    allowedMask = allowedMask.clone();
    this.devices = devices;
    this.allowedMask = allowedMask;
  }

  /** Every device runs every one of {@code nodeCount} nodes. */
  public static SupportMatrix all(DeviceSet devices, int nodeCount) {
    long[] m = new long[nodeCount];
    java.util.Arrays.fill(m, (1L << devices.size()) - 1);
    return new SupportMatrix(devices, m);
  }

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

  /**
   * Per group of nodes ({@code groupOf[node]} in {@code [0, groupCount)}), the devices the group
   * may use: those all its members support, else any one of them supports (HETERO falls back for
   * the others), else every device.
   */
  public long[] groupMasks(int[] groupOf, int groupCount) {
    return foldMasks(allowedMask, groupOf, groupCount, devices.size());
  }

  /** {@link #groupMasks} over raw per-node masks of {@code deviceCount} devices. */
  public static long[] foldMasks(long[] nodeMasks, int[] groupOf, int groupCount, int deviceCount) {
    long all = deviceCount >= 63 ? Long.MAX_VALUE : (1L << deviceCount) - 1;
    long[] and = new long[groupCount];
    long[] or = new long[groupCount];
    java.util.Arrays.fill(and, all);
    for (int v = 0; v < groupOf.length; v++) {
      and[groupOf[v]] &= nodeMasks[v];
      or[groupOf[v]] |= nodeMasks[v] & all;
    }
    for (int g = 0; g < groupCount; g++) {
      if (and[g] == 0) {
        and[g] = or[g] != 0 ? or[g] : all;
      }
    }
    return and;
  }

  public DeviceSet devices() {
    return devices;
  }
}
