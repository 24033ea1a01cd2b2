/**
 * Figures measured on the real OpenVINO runtime (benchmark_app runs, rank correlation, spreads,
 * timed backend). Leaf package: nothing depends on it.
 */
package org.hsdag.bench.real;
