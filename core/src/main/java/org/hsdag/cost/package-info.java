/**
 * The HETERO cost model, one home for it: device profiles (JSON resources with their sources),
 * per-op kernel times, fusion, boundary copies, the sub-model split ({@link
 * org.hsdag.cost.HeteroSplit}) and the device memory a profile states. Depends on {@code ir},
 * {@code placement} and {@code memory}; the simulator, the planner and both backends depend on it.
 */
package org.hsdag.cost;
