/**
 * The latency-backend SPI: {@link org.hsdag.backend.LatencyBackend}, the measurement protocol,
 * measurements as values (samples or a failure with a reason), confidence intervals, support
 * matrices, and {@link org.hsdag.backend.Backends} which opens a backend by name. Everything that
 * measures a placement (search, tuner, bench) depends on this package, not on a concrete backend.
 */
package org.hsdag.backend;
