/**
 * The throughput objective: a placement's HETERO sub-models as pipeline stages, the steady-state
 * time per inference with several requests in flight, and the backend decorator that measures it.
 * Depends on {@code backend}, {@code cost}, {@code sim}, {@code ir} and {@code placement}; the
 * planner, tune, report, CLI and bench depend on it.
 */
package org.hsdag.throughput;
