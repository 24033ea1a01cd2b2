/**
 * The HETERO-faithful simulator of a calibrated Intel machine: device profiles (JSON resources),
 * the HETERO cost model (kernel times, fusion, boundary copies, sub-model split), noise, profile
 * mismatch and the {@link org.hsdag.sim.SimBackend}. Depends on {@code backend}, {@code ir} and
 * {@code placement}; planners, bench and the CLI may depend on it, the search core may not.
 */
package org.hsdag.sim;
