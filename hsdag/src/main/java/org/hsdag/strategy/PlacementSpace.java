package org.hsdag.strategy;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;

/**
 * What a baseline searches over: the graph's nodes partitioned into units (single ops or
 * co-location groups), each unit placed on one device. A unit's choices are the devices every
 * member supports (or, when no device supports all members, those any member supports);
 * {@link #decode} then moves each op that cannot run on its unit's device to its first allowed
 * device in priority order, so no proposal ever uses a disallowed device when an allowed one
 * exists.
 */
public final class PlacementSpace {
  private final OpGraph graph;
  private final DeviceSet devices;
  private final SupportMatrix support;
  private final int[] unitOf;
  private final int[][] members;
  private final int[][] choices;
  private final int[] firstAllowed;

  private PlacementSpace(OpGraph graph, DeviceSet devices, SupportMatrix support, int[] groupOf) {
    if (support.nodeCount() != graph.nodeCount()) {
      throw new IllegalArgumentException(
          "support matrix has " + support.nodeCount() + " nodes but the graph has " + graph.nodeCount());
    }
    if (groupOf.length != graph.nodeCount()) {
      throw new IllegalArgumentException(
          "grouping has " + groupOf.length + " entries but the graph has " + graph.nodeCount() + " nodes");
    }
    this.graph = graph;
    this.devices = devices;
    this.support = support;
    int n = graph.nodeCount();
    // Renumber groups densely in order of first appearance along the topological order, so unit
    // indices follow the data flow (the RNN and Placeto read units in this order).
    int maxGroup = 0;
    for (int g : groupOf) {
      if (g < 0) {
        throw new IllegalArgumentException("negative group id " + g);
      }
      maxGroup = Math.max(maxGroup, g);
    }
    int[] dense = new int[maxGroup + 1];
    Arrays.fill(dense, -1);
    int units = 0;
    for (int v : graph.topologicalOrder()) {
      if (dense[groupOf[v]] < 0) {
        dense[groupOf[v]] = units++;
      }
    }
    unitOf = new int[n];
    int[] sizes = new int[units];
    for (int v = 0; v < n; v++) {
      unitOf[v] = dense[groupOf[v]];
      sizes[unitOf[v]]++;
    }
    members = new int[units][];
    for (int u = 0; u < units; u++) {
      members[u] = new int[sizes[u]];
    }
    int[] fill = new int[units];
    for (int v : graph.topologicalOrder()) {
      members[unitOf[v]][fill[unitOf[v]]++] = v;
    }
    long all = (1L << devices.size()) - 1;
    firstAllowed = new int[n];
    for (int v = 0; v < n; v++) {
      long m = support.mask(v) & all;
      firstAllowed[v] = m == 0 ? -1 : Long.numberOfTrailingZeros(m);
    }
    choices = new int[units][];
    long[] unitMasks = support.groupMasks(unitOf, units);
    for (int u = 0; u < units; u++) {
      choices[u] = bits(unitMasks[u]);
    }
  }

  /** Every op is its own unit. */
  public static PlacementSpace perOp(OpGraph graph, DeviceSet devices, SupportMatrix support) {
    int[] g = new int[graph.nodeCount()];
    Arrays.setAll(g, i -> i);
    return new PlacementSpace(graph, devices, support, g);
  }

  /** Units are the groups of {@code groupOf} (any non-negative ids; renumbered internally). */
  public static PlacementSpace grouped(OpGraph graph, DeviceSet devices, SupportMatrix support, int[] groupOf) {
    return new PlacementSpace(graph, devices, support, groupOf.clone());
  }

  private static int[] bits(long m) {
    int[] out = new int[Long.bitCount(m)];
    int k = 0;
    while (m != 0) {
      out[k++] = Long.numberOfTrailingZeros(m);
      m &= m - 1;
    }
    return out;
  }

  public OpGraph graph() {
    return graph;
  }

  public DeviceSet devices() {
    return devices;
  }

  public SupportMatrix support() {
    return support;
  }

  public int unitCount() {
    return members.length;
  }

  public int deviceCount() {
    return devices.size();
  }

  /** The unit of {@code node}. */
  public int unitOf(int node) {
    return unitOf[node];
  }

  /** Nodes of {@code unit} in topological order. */
  public int[] members(int unit) {
    return members[unit].clone();
  }

  public int memberCount(int unit) {
    return members[unit].length;
  }

  /** Device indices {@code unit} may be placed on, ascending (= priority order). */
  public int[] choices(int unit) {
    return choices[unit].clone();
  }

  public int choiceCount(int unit) {
    return choices[unit].length;
  }

  /** Each unit on a uniformly drawn allowed device (random restarts and initial states). */
  public int[] randomAssignment(java.util.SplittableRandom rng) {
    int[] a = new int[unitCount()];
    for (int u = 0; u < a.length; u++) {
      a[u] = choice(u, rng.nextInt(choiceCount(u)));
    }
    return a;
  }

  public int choice(int unit, int k) {
    return choices[unit][k];
  }

  public boolean isChoice(int unit, int device) {
    for (int c : choices[unit]) {
      if (c == device) {
        return true;
      }
    }
    return false;
  }

  /**
   * The op-level placement of a unit assignment: every op on its unit's device, except ops that
   * cannot run there, which go to their first allowed device.
   */
  public Placement decode(int[] deviceOfUnit) {
    if (deviceOfUnit.length != members.length) {
      throw new IllegalArgumentException(
          "assignment has " + deviceOfUnit.length + " units, the space has " + members.length);
    }
    int[] a = new int[unitOf.length];
    for (int v = 0; v < a.length; v++) {
      int d = deviceOfUnit[unitOf[v]];
      a[v] = support.allowed(v, d) || firstAllowed[v] < 0 ? d : firstAllowed[v];
    }
    return new Placement(devices, a);
  }

  /** Every unit on {@code device} where it is a choice, otherwise on its first choice. */
  public int[] uniform(int device) {
    int[] a = new int[members.length];
    for (int u = 0; u < a.length; u++) {
      a[u] = isChoice(u, device) ? device : choices[u][0];
    }
    return a;
  }

  /** The quotient graph over units: one edge per distinct pair of different units joined by an op edge. */
  public IntGraph unitGraph() {
    Set<Long> seen = new LinkedHashSet<>();
    for (int k = 0; k < graph.edgeCount(); k++) {
      int a = unitOf[graph.edge(k).source()];
      int b = unitOf[graph.edge(k).target()];
      if (a != b) {
        seen.add((long) a << 32 | b);
      }
    }
    int[] s = new int[seen.size()];
    int[] d = new int[seen.size()];
    int i = 0;
    for (long e : seen) {
      s[i] = (int) (e >>> 32);
      d[i++] = (int) e;
    }
    return new IntGraph(members.length, s, d);
  }
}
