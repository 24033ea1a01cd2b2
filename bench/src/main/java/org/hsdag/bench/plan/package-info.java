/**
 * Planner and warm-start experiments on the simulator (figures printed for the README). Leaf
 * package: nothing depends on it.
 */
package org.hsdag.bench.plan;
