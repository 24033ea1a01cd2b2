/**
 * The latency-backend SPI: {@link org.hsdag.backend.LatencyBackend}, the measurement protocol,
 * measurements as values (samples or a failure with a reason), confidence intervals, support
 * matrices, and {@link org.hsdag.backend.Backends} which opens a backend by name. Everything that
 * measures a placement (search, tuner, bench) depends on this package, not on a concrete backend.
 *
 * <p><b>Time units, project-wide.</b> Every time quantity names its unit in its name ({@code
 * …Ms}/{@code …Millis} milliseconds, {@code …Micros}/{@code …Us} microseconds, {@code …Seconds}
 * seconds); a bare {@code double latency} is a bug. At the API boundaries: measured and predicted
 * latencies, samples, confidence intervals, the run log and every report are in <b>milliseconds</b>
 ({@link org.hsdag.backend.Measurement}, search candidates, plan candidates' {@code proxyMillis});
 * the cost model and the planner work in <b>microseconds</b> (kernel, copy and sub-model times,
 * cut energies, {@code latencyMicros}) and convert where their estimates meet measurements;
 * user-facing durations (time limits, wall clocks, progress) are in <b>seconds</b>
 * ({@code java.time.Duration} on the command line). The reward 1/latency is in 1/s.
 */
package org.hsdag.backend;
