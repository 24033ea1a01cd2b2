/**
 * The cost-model planner: the placement proxy over a HETERO cost model, min-cut for two devices,
 * alpha-expansion for more, local search, annealing for a best-known reference, and the online
 * cost correction. Depends on {@code backend}, {@code sim}, {@code placement}, {@code coarsen} and
 * {@code ir}; search, strategies, the tuner, the CLI and bench depend on it.
 */
package org.hsdag.plan;
