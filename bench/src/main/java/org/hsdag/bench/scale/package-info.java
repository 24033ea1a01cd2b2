/**
 * Scale benchmarks: synthetic IR of many nodes and IR-reading speed. Depends only on {@code ir};
 * the planner experiments use its synthetic graphs.
 */
package org.hsdag.bench.scale;
