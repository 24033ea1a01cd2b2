package org.hsdag.plan;

import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.Placement;

/**
 * Additive memory budgets of a device-per-op labeling: op i brings {@code bytes[i]} to its device
 * and device d may hold at most {@code budget[d]}. The searches keep a running load per device and
 * refuse any move that would push a device past its budget. Immutable.
 */
public final class OpBudget {
  private final long[] bytes;
  private final long[] budget;

  /**
   * @param bytes bytes each op brings to its device (its weights)
   * @param budget bytes each device may hold ({@link Long#MAX_VALUE}: unlimited)
   */
  public OpBudget(long[] bytes, long[] budget) {
    this.bytes = bytes.clone();
    this.budget = budget.clone();
  }

  /** Bytes each op brings to its device (a copy). */
  public long[] bytes() {
    return bytes.clone();
  }

  /** Bytes op {@code i} brings to its device. */
  public long bytes(int i) {
    return bytes[i];
  }

  /** Bytes device {@code d} may hold. */
  public long budget(int d) {
    return budget[d];
  }

  /**
   * What each device keeps back from its weights at first: its runtime overhead and the activation
   * peak of the whole model on it (an upper bound on the peak of any part of the model there).
   */
  static long[] startingReserves(PlacementProxy proxy, MemoryCheck check) {
    int devices = proxy.model().deviceCount();
    long[] reserve = new long[devices];
    for (int d = 0; d < devices; d++) {
      Placement all = Placement.allOn(proxy.devices(), proxy.graph().nodeCount(), proxy.devices().name(d));
      reserve[d] = check.overhead(d) + check.use(all).get(d).activationPeakBytes();
    }
    return reserve;
  }

  /** Each device's weight budget: its capacity less {@code reserve} (unlimited stays unlimited). */
  static long[] budgetsAfter(MemoryCheck check, long[] reserve) {
    long[] budget = new long[reserve.length];
    for (int d = 0; d < reserve.length; d++) {
      budget[d] = check.capacity(d) == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, check.capacity(d) - reserve[d]);
    }
    return budget;
  }

  /** Weight bytes each op of the proxy brings to its device (constants follow the op that consumes them). */
  public static long[] weightsPerOp(PlacementProxy proxy, MemoryCheck check) {
    long[] byNode = check.model().weightBytesByLeader();
    long[] bytes = new long[proxy.model().opCount()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = byNode[proxy.model().node(i)];
    }
    return bytes;
  }

  /** Load per device of {@code label}. */
  public long[] loads(int[] label, int devices) {
    long[] load = new long[devices];
    for (int i = 0; i < label.length; i++) {
      load[label[i]] += bytes[i];
    }
    return load;
  }

  /** Whether every device of {@code label} is within its budget. */
  public boolean holds(int[] label) {
    long[] load = loads(label, budget.length);
    for (int d = 0; d < budget.length; d++) {
      if (load[d] > budget[d]) {
        return false;
      }
    }
    return true;
  }

  /** Whether moving ops {@code ops[0..size)} (now at {@code label}) to {@code d} keeps d within budget. */
  boolean allows(long[] load, int[] ops, int size, int[] label, int d) {
    if (budget[d] == Long.MAX_VALUE) {
      return true;
    }
    long added = 0;
    for (int m = 0; m < size; m++) {
      if (label[ops[m]] != d) {
        added += bytes[ops[m]];
      }
    }
    return added == 0 || load[d] + added <= budget[d];
  }

  /** Updates {@code load} after ops {@code ops[0..size)} moved from {@code from[m]} to {@code d}. */
  void move(long[] load, int[] ops, int size, int[] from, int d) {
    for (int m = 0; m < size; m++) {
      if (from[m] != d) {
        load[from[m]] -= bytes[ops[m]];
        load[d] += bytes[ops[m]];
      }
    }
  }
}
