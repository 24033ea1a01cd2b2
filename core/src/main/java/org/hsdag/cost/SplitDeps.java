package org.hsdag.cost;

/**
 * The dependency bitsets of one cycle-splitting step. Bits: one per boundary edge and one per
 * Parameter/Constant (its own boundary) of the subgraphs asked for; {@code own} of a node: its
 * bits owned by its subgraph; {@code cyc}: its boundary edges produced by its subgraph.
 */
final class SplitDeps {
  final int w;
  final int[] owner;
  final int[] source;
  final long[] entry;
  final long[] traced;
  final long[] own;
  final long[] cyc;

  SplitDeps(int w, int[] owner, int[] source, long[] entry, long[] traced, long[] own, long[] cyc) {
    this.w = w;
    this.owner = owner;
    this.source = source;
    this.entry = entry;
    this.traced = traced;
    this.own = own;
    this.cyc = cyc;
  }
}
