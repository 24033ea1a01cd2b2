package org.hsdag.coarsen;

/**
 * Union–find over {@code 0..n-1} with path halving and union by size. Mutable working state of one
 * algorithm run; never shared.
 */
public final class DisjointSets {
  private final int[] parent;
  private final int[] size;
  private int sets;

  public DisjointSets(int n) {
    parent = new int[n];
    size = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
      size[i] = 1;
    }
    sets = n;
  }

  public int find(int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  /** Joins the sets of a and b; returns the new representative, or -1 when they were already one set. */
  public int union(int a, int b) {
    int ra = find(a);
    int rb = find(b);
    if (ra == rb) {
      return -1;
    }
    if (size[ra] < size[rb]) {
      int t = ra;
      ra = rb;
      rb = t;
    }
    parent[rb] = ra;
    size[ra] += size[rb];
    sets--;
    return ra;
  }

  /** Makes {@code keep}'s representative the representative of the joined set (used when a set's identity matters). */
  public void unionInto(int absorbed, int keep) {
    int ra = find(absorbed);
    int rk = find(keep);
    if (ra == rk) {
      return;
    }
    parent[ra] = rk;
    size[rk] += size[ra];
    sets--;
  }

  public int setCount() {
    return sets;
  }

  /**
   * Dense labels 0..setCount-1, numbered in order of each set's lowest element.
   */
  public int[] labels() {
    int n = parent.length;
    int[] label = new int[n];
    int[] byRoot = new int[n];
    java.util.Arrays.fill(byRoot, -1);
    int next = 0;
    for (int i = 0; i < n; i++) {
      int r = find(i);
      if (byRoot[r] < 0) {
        byRoot[r] = next++;
      }
      label[i] = byRoot[r];
    }
    return label;
  }
}
