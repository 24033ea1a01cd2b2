/**
 * The throughput objective: a placement's HETERO sub-models as pipeline stages, the steady-state
 * time per inference with several requests in flight, and the backend decorator that measures it.
 * Depends on {@code backend}, {@code cost}, {@code ir} and {@code placement}; the simulator, which
 * implements {@link org.hsdag.throughput.PipelineSimulator}, depends on it, as do the planner, tune,
 * report, CLI and bench.
 */
package org.hsdag.throughput;
