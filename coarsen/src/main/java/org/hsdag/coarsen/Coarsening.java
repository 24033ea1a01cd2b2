package org.hsdag.coarsen;

import java.util.Arrays;
import java.util.Objects;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;

/**
 * The result of co-location coarsening: the cluster of every original node and the quotient graph over
 * clusters. Clusters produced by {@link ColocationCoarsener} are numbered in a topological order of the
 * quotient, which is acyclic, has no self-loops and merges duplicate edges. A device per cluster lifts
 * back to a {@link Placement} of the original graph with {@link #lift}. Arrays are copied in and out.
 *
 */
public final class Coarsening {
  private final CoarseningMode mode;
  private final int[] clusterOf;
  private final int clusterCount;
  private final IntGraph quotient;

  /**
   * @param mode the rule that produced the clusters
   * @param clusterOf cluster of each original node, 0..clusterCount-1
   * @param clusterCount number of clusters (every cluster has at least one member)
   * @param quotient the graph over clusters
   */
  public Coarsening(CoarseningMode mode, int[] clusterOf, int clusterCount, IntGraph quotient) {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(quotient, "quotient");
    clusterOf = clusterOf.clone();
    if (quotient.nodeCount() != clusterCount) {
      throw new IllegalArgumentException(
          "quotient has " + quotient.nodeCount() + " nodes but there are " + clusterCount + " clusters");
    }
    boolean[] used = new boolean[clusterCount];
    for (int i = 0; i < clusterOf.length; i++) {
      int c = clusterOf[i];
      if (c < 0 || c >= clusterCount) {
        throw new IllegalArgumentException("node " + i + " has cluster " + c + " outside 0.." + (clusterCount - 1));
      }
      used[c] = true;
    }
    for (int c = 0; c < clusterCount; c++) {
      if (!used[c]) {
        throw new IllegalArgumentException("cluster " + c + " has no member");
      }
    }
    for (int e = 0; e < quotient.edgeCount(); e++) {
      if (quotient.src(e) == quotient.dst(e)) {
        throw new IllegalArgumentException("quotient has a self-loop on cluster " + quotient.src(e));
      }
    }
    this.mode = mode;
    this.clusterOf = clusterOf;
    this.clusterCount = clusterCount;
    this.quotient = quotient;
  }

  /** Every node in its own cluster (no co-location at all, not even constants). */
  public static Coarsening identity(IntGraph g) {
    int[] ids = new int[g.nodeCount()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    return new Coarsening(CoarseningMode.NONE, ids, ids.length, Quotients.of(g, ids, ids.length));
  }

  public int[] clusterOf() {
    return clusterOf.clone();
  }

  /** Cluster of one original node. */
  public int clusterOf(int node) {
    return clusterOf[node];
  }

  /** Number of original nodes. */
  public int nodeCount() {
    return clusterOf.length;
  }

  /**
   * The placement of the original graph that puts every node on its cluster's device.
   *
   * @throws InvalidPlacementException when the array does not have one valid device per cluster
   */
  public Placement lift(DeviceSet devices, int[] devicePerCluster) {
    if (devicePerCluster.length != clusterCount) {
      throw new InvalidPlacementException(
          "expected a device for each of " + clusterCount + " clusters (got " + devicePerCluster.length + ")");
    }
    int[] deviceOf = new int[clusterOf.length];
    for (int i = 0; i < deviceOf.length; i++) {
      deviceOf[i] = devicePerCluster[clusterOf[i]];
    }
    return new Placement(devices, deviceOf);
  }

  /** Members of one cluster in increasing node index. O(n); use {@link #allMembers()} for every cluster. */
  public int[] members(int cluster) {
    if (cluster < 0 || cluster >= clusterCount) {
      throw new IndexOutOfBoundsException("cluster " + cluster + " outside 0.." + (clusterCount - 1));
    }
    int count = 0;
    for (int c : clusterOf) {
      if (c == cluster) {
        count++;
      }
    }
    int[] out = new int[count];
    int k = 0;
    for (int i = 0; i < clusterOf.length; i++) {
      if (clusterOf[i] == cluster) {
        out[k++] = i;
      }
    }
    return out;
  }

  /** Members of every cluster, each in increasing node index; O(n) in total. */
  public int[][] allMembers() {
    int[] sizes = clusterSizes();
    int[][] out = new int[clusterCount][];
    for (int c = 0; c < clusterCount; c++) {
      out[c] = new int[sizes[c]];
    }
    int[] fill = new int[clusterCount];
    for (int i = 0; i < clusterOf.length; i++) {
      int c = clusterOf[i];
      out[c][fill[c]++] = i;
    }
    return out;
  }

  /** Number of members per cluster. */
  public int[] clusterSizes() {
    int[] sizes = new int[clusterCount];
    for (int c : clusterOf) {
      sizes[c]++;
    }
    return sizes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Coarsening c
        && mode == c.mode
        && clusterCount == c.clusterCount
        && Arrays.equals(clusterOf, c.clusterOf)
        && quotient.equals(c.quotient);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, clusterCount, Arrays.hashCode(clusterOf), quotient);
  }

  @Override
  public String toString() {
    return "Coarsening[" + mode + ", " + clusterOf.length + " nodes -> " + clusterCount + " clusters, "
        + quotient.edgeCount() + " edges]";
  }

  public CoarseningMode mode() {
    return mode;
  }

  public int clusterCount() {
    return clusterCount;
  }

  public IntGraph quotient() {
    return quotient;
  }
}
