/**
 * Figures measured on the real OpenVINO runtime (the {@code bench real-runtime-figures} subcommand:
 * benchmark_app runs, rank correlation, spreads, timed backend). Only the bench command depends on
 * this package.
 */
package org.hsdag.bench.real;
