/**
 * The simulated backend: {@link org.hsdag.sim.SimBackend} measures a placement on the cost model of
 * a calibrated machine with seeded noise, profile mismatch and device capacities. Depends on
 * {@code backend}, {@code cost}, {@code memory}, {@code ir} and {@code placement}; bench, the CLI
 * and tests may depend on it, the search core and the planner may not.
 */
package org.hsdag.sim;
