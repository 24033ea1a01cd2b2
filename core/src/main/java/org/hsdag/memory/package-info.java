/**
 * Device memory of a placement: weights of the ops placed on a device, the peak of live
 * activations and boundary copies, a runtime overhead, and the capacities a placement must
 * respect ({@link org.hsdag.memory.MemoryCheck}). Depends on {@code ir} and {@code placement}
 * only, so the cost model, planner, search and CLI can all use it.
 */
package org.hsdag.memory;
