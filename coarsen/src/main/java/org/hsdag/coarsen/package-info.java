/**
 * Co-location coarsening of an {@code OpGraph} into an acyclic quotient graph (clusterOf[]), with
 * the small integer-graph and disjoint-set helpers it needs. Depends on {@code ir} and
 * {@code placement}; features, parsing, the GNN, planner and strategies depend on it.
 */
package org.hsdag.coarsen;
